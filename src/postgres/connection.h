// A PostgreSQL connection (libpq) behind the sql::Connection interface. The libpq headers stay out
// of this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "sql/connection.h"

struct pg_conn;

namespace st::postgres {

struct ConnectOptions {
  // A libpq connection URI: postgresql://user[:password]@host:port/dbname.
  std::string url;
  // Names the database in every error message.
  std::string label = "database";
};

// The URL with any password replaced by "***", for messages and logs.
std::string RedactedUrl(std::string_view url);

// Not thread-safe: one thread at a time. Statements
// are run with typed parameters (text, int8, float8, bytea), so '?' and
// '?N' placeholders are rewritten to $N and no type is left to inference.
// A lost connection is re-established by the next call; the transaction it
// held is gone (the call that saw the loss failed with kConnectionLost).
class Connection final : public sql::Connection {
 public:
  // Errors: Unavailable (the server cannot be reached), InvalidArgument
  // (a malformed URL).
  static Result<std::unique_ptr<Connection>> Open(const ConnectOptions& options);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  Status Exec(std::string_view sql) override;
  Result<sql::Statement> Prepare(std::string_view sql) override;
  int64_t Changes() const override { return changes_; }
  sql::ErrorKind last_error() const override { return last_error_; }
  const std::string& label() const override { return label_; }
  const sql::Dialect& dialect() const override;

  // Used by the cursor (connection.cc): the live handle, reconnecting when
  // the previous one was lost; and the Status for a failed result.
  Result<pg_conn*> Handle();
  Status Failure(const void* result, std::string_view what);
  void SetChanges(int64_t changes) { changes_ = changes; }

 private:
  Connection(pg_conn* conn, ConnectOptions options);
  Status LostTransaction();

  pg_conn* conn_;
  ConnectOptions options_;
  std::string label_;
  int64_t changes_ = 0;
  sql::ErrorKind last_error_ = sql::ErrorKind::kNone;
  // Inside BEGIN ... COMMIT/ROLLBACK (as far as Exec has seen).
  bool in_transaction_ = false;
  // The connection was lost inside a transaction: statements fail until
  // the caller's COMMIT or ROLLBACK.
  bool lost_transaction_ = false;
};

// `sql` with '?' / '?N' placeholders as PostgreSQL's $N, outside quotes;
// `params` is set to the number of parameters (the highest N).
std::string TranslatePlaceholders(std::string_view sql, int& params);

}  // namespace st::postgres
