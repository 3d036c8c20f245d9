// A thin RAII layer over the SQLite C API for the SQLite MetadataStore:
// connection, prepared statement, transaction. Not thread-safe; the store
// serialises access.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace st::catalog::sqlite {

class Statement;

class Database {
 public:
  // Opens (creating) the file and sets WAL, foreign keys, busy timeout and
  // synchronous. Errors: Io, Corruption.
  static Result<std::unique_ptr<Database>> Open(const std::string& path, int busy_timeout_ms,
                                                bool durable);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results.
  Status Exec(std::string_view sql);
  Result<Statement> Prepare(std::string_view sql);
  // Rows changed by the last INSERT/UPDATE/DELETE.
  int64_t Changes() const;
  // Converts an SQLite result code into a Status naming `what`.
  Status Error(int rc, std::string_view what) const;

 private:
  explicit Database(sqlite3* db) : db_(db) {}
  sqlite3* db_;
};

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  ~Statement();

  // Parameters are 1-based, in the order of the '?' in the SQL.
  Statement& Bind(int index, std::string_view text);
  Statement& Bind(int index, int64_t value);
  Statement& BindOptional(int index, const std::optional<std::string>& text);  // nullopt → NULL
  // true: a row is available; false: done. Errors: Unavailable (busy),
  // AlreadyExists (a uniqueness constraint), Conflict (another constraint), Io.
  Result<bool> Step();
  // Steps to completion, for statements without rows.
  Status Run();

  std::string Text(int column) const;
  std::optional<std::string> OptionalText(int column) const;
  int64_t Int64(int column) const;

 private:
  friend class Database;
  Statement(Database& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  Database* db_;
  sqlite3_stmt* stmt_;
  Status bind_error_;
};

// BEGIN IMMEDIATE on construction (check status()); rolls back on destruction
// unless Commit() succeeded.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  const Status& status() const { return begin_status_; }
  // Errors: Unavailable (busy), and otherwise the code given: a pointer swap
  // passes CommitStateUnknown because the outcome of a failed COMMIT is not
  // knowable from here.
  Status Commit(StatusCode failure_code = StatusCode::kIo);

 private:
  Database& db_;
  Status begin_status_;
  bool open_ = false;
};

}  // namespace st::catalog::sqlite
