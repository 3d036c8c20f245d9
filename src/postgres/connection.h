// One libpq connection to a PostgreSQL server, with the same statement API
// as src/sqlite (Prepare, typed binds, Step, column reads) so that the stores
// written for both read alike, and the one mapping of SQLSTATEs to
// st::Status. The libpq headers stay out of this header.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"

struct pg_conn;
struct pg_result;

namespace st::postgres {

class Connection;

struct ConnectOptions {
  // A libpq connection string or URI ("postgresql://user@host:port/db?...").
  std::string conninfo;
  // Names the database in every error message ("catalog database").
  std::string label = "database";
  // How long a statement waits for a lock another transaction holds before
  // failing with Unavailable (lock_timeout), and how long connecting may take.
  std::chrono::milliseconds lock_timeout{5000};
  std::chrono::seconds connect_timeout{10};
};

// A statement made by Connection::Prepare; must not outlive it. '?' (or '?N')
// placeholders are turned into $N, so the SQL reads like the SQLite stores'.
// Parameters are sent as text with their type (text, int8, bytea), results
// are read as text (bytea decoded). Executed on the first Step(); the whole
// result is then held client-side (catalog results are small and bounded by
// page limits). Move-only, not thread-safe.
class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  ~Statement();

  Statement& Bind(int index, std::string_view text);
  Statement& Bind(int index, int64_t value);
  Statement& BindDouble(int index, double value);
  Statement& BindBlob(int index, std::string_view bytes);
  Statement& BindNull(int index);
  Statement& BindOptional(int index, const std::optional<std::string>& text);

  // true: a row is available; false: done. Errors: Connection::Error's.
  Result<bool> Step();
  Status Run();
  // Rows changed by this statement (INSERT/UPDATE/DELETE), after it ran.
  int64_t Changes() const { return changes_; }

  template <typename OnRow>
  Status ForEachRow(OnRow&& on_row) {
    while (true) {
      ST_ASSIGN_OR_RETURN(bool row, Step());
      if (!row) return Status::OK();
      on_row(std::as_const(*this));
    }
  }
  template <typename ReadRow>
  auto ReadRows(ReadRow&& read_row)
      -> Result<std::vector<std::invoke_result_t<ReadRow&, const Statement&>>> {
    std::vector<std::invoke_result_t<ReadRow&, const Statement&>> out;
    ST_TRY(ForEachRow([&](const Statement& row) { out.push_back(read_row(row)); }));
    return out;
  }

  std::string Text(int column) const;
  std::optional<std::string> OptionalText(int column) const;
  int64_t Int64(int column) const;
  double Double(int column) const;
  bool IsNull(int column) const;
  bool IsBlob(int column) const;
  std::string Blob(int column) const;

 private:
  friend class Connection;
  Statement(Connection& conn, std::string sql) : conn_(&conn), sql_(std::move(sql)) {}
  void Set(int index, std::optional<std::string> value, unsigned type_oid);
  Status Execute();

  Connection* conn_;
  std::string sql_;
  std::vector<std::optional<std::string>> params_;
  std::vector<unsigned> types_;
  Status bind_error_;
  pg_result* result_ = nullptr;
  bool executed_ = false;
  int row_ = -1;
  int64_t changes_ = 0;
};

// Not thread-safe: one thread at a time (the Pool hands it out).
class Connection {
 public:
  // Errors: Unavailable (cannot reach or log in to the server: the message
  // names the label and libpq's reason), InvalidArgument (a malformed
  // connection string).
  static Result<std::unique_ptr<Connection>> Open(const ConnectOptions& options);
  // A stand-in that fails every statement with `why` (a connection that
  // could not be had), so callers need no second error path.
  static std::unique_ptr<Connection> Failed(Status why, std::string label);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one or more ';'-separated statements without parameters.
  Status Exec(std::string_view sql);
  // Never fails by itself (the SQL is sent on the first Step); Result keeps
  // the call sites identical to src/sqlite's.
  Result<Statement> Prepare(std::string_view sql);
  // Rows changed by the last statement that ran on this connection.
  int64_t Changes() const { return changes_; }
  // The server closed the connection or the socket failed: it is useless and
  // the pool drops it.
  bool broken() const;
  // Whether the connection looks alive without a round trip: reads whatever
  // the server sent while idle (a termination notice) and checks the socket.
  bool LooksAlive();
  // The server process id serving this connection (tests terminate it).
  int BackendPid() const;
  const std::string& label() const { return label_; }

  // The Status for a failed result (`result` may be null: the connection
  // failed before a result). SQLSTATEs:
  //   23505 unique_violation                      → AlreadyExists
  //   other 23xxx integrity constraint            → Conflict
  //   40001 serialization failure, 40P01 deadlock,
  //   55P03 lock not available, 57014 cancelled,
  //   53xxx insufficient resources, 08xxx and a
  //   lost connection, 57P0x server shutting down → Unavailable (retry)
  //   XX001/XX002 data corrupted                  → Corruption
  //   anything else                               → Io
  Status Error(const pg_result* result, std::string_view what) const;

 private:
  friend class Statement;
  friend class Transaction;
  Connection(pg_conn* conn, std::string label) : conn_(conn), label_(std::move(label)) {}

  pg_conn* conn_;
  Status failure_;  // Failed() only.
  std::string label_;
  int64_t changes_ = 0;
};

// BEGIN on construction plus the store-wide writer lock (a transaction-scoped
// advisory lock, see src/postgres/README.md): writers are ordered one at a
// time exactly like SQLite's BEGIN IMMEDIATE, waiting up to lock_timeout.
// Rolls back on destruction unless Commit() succeeded.
class Transaction {
 public:
  // `writer_lock_key`: the advisory lock key every writer of one database
  // takes; nullopt for no lock (migrations take their own).
  Transaction(Connection& conn, std::optional<int64_t> writer_lock_key);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // Errors of BEGIN or of the lock: Unavailable (lock timeout, lost
  // connection), Io.
  const Status& status() const { return begin_status_; }
  // Errors: Unavailable when the server refused the commit for a retryable
  // reason with the transaction certainly rolled back; otherwise
  // `failure_code`: a lost connection during COMMIT leaves its outcome
  // unknown, so a caller whose commit matters passes CommitStateUnknown.
  Status Commit(StatusCode failure_code = StatusCode::kIo);

 private:
  Connection& conn_;
  Status begin_status_;
  bool open_ = false;
};

}  // namespace st::postgres
