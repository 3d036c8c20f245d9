// A small RAII layer over the SQLite C API for the schema registry's own
// connection. Not thread-safe: SqliteSchemaRegistry serialises access.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace st::registry::internal {

class Statement;

class Connection {
 public:
  // Opens (creating) the file with WAL journaling and a busy timeout.
  // Errors: Io naming the path.
  static Result<std::unique_ptr<Connection>> Open(const std::string& path, int busy_timeout_ms);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  Status Exec(std::string_view sql);
  Result<Statement> Prepare(std::string_view sql);
  // Unavailable for SQLITE_BUSY/LOCKED, AlreadyExists for a uniqueness
  // violation, Io otherwise; the message names `what`.
  Status Error(int rc, std::string_view what) const;

 private:
  explicit Connection(sqlite3* db) : db_(db) {}
  sqlite3* db_;
};

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  ~Statement();

  // 1-based parameter indexes.
  Statement& Bind(int index, std::string_view text);
  Statement& Bind(int index, int64_t value);
  // true: a row is available; false: done.
  Result<bool> Step();
  Status Run();

  std::string Text(int column) const;
  int64_t Int64(int column) const;

 private:
  friend class Connection;
  Statement(const Connection& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  const Connection* db_;
  sqlite3_stmt* stmt_;
  Status bind_error_;
};

// BEGIN IMMEDIATE now; ROLLBACK at destruction unless Commit() succeeded.
class Transaction {
 public:
  explicit Transaction(Connection& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  const Status& status() const { return begin_status_; }
  Status Commit();

 private:
  Connection& db_;
  Status begin_status_;
  bool open_ = false;
};

}  // namespace st::registry::internal
