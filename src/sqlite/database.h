// One SQLite database file opened the way every streamtables store needs it:
// WAL journaling, a busy timeout, foreign keys, extended result codes, and
// SQLite result codes turned into st::Status values. The SQLite headers stay
// out of this header.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"
#include "sql/connection.h"
#include "sqlite/statement.h"

struct sqlite3;
struct sqlite3_stmt;

namespace st::sqlite {

struct OpenOptions {
  // The file, created mode 0600 when missing (its directory must exist); the
  // -wal and -shm files take the database file's mode. ":memory:" is
  // a private in-memory database (no WAL; for tests).
  std::string path;
  // Names the database in every error message ("catalog database"), so that
  // an operator knows which file to look at.
  std::string label = "database";
  // How long a writer waits for another connection's write lock before the
  // statement fails with Unavailable.
  std::chrono::milliseconds busy_timeout{5000};
  // synchronous=FULL: a committed transaction survives power loss. NORMAL
  // (false) never corrupts in WAL mode but may lose the last commits.
  bool durable = false;
};

// Not thread-safe (opened without SQLite's mutexes): callers serialise all use
// of one Database and of its Statements. Several Database objects, in one or
// several processes, may share a file; SQLite's file locks order them.
class Database final : public sql::Connection {
 public:
  // Opens (creating) the file and sets journal_mode=WAL, foreign_keys=ON,
  // the busy timeout and synchronous. Errors: Io (cannot open, or a
  // filesystem that refuses WAL; the message names the path and the fix),
  // Corruption (not a database).
  static Result<std::unique_ptr<Database>> Open(const OpenOptions& options);
  ~Database() override;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more ';'-separated statements, discarding any rows.
  // Errors: as Error() below.
  Status Exec(std::string_view sql) override;
  // Compiles one statement; it must not outlive this Database.
  // Errors: as Error() below (a syntax error is Io).
  Result<Statement> Prepare(std::string_view sql) override;
  // Rows changed by the last INSERT/UPDATE/DELETE on this connection.
  int64_t Changes() const override;
  sql::ErrorKind last_error() const override { return last_error_; }
  const sql::Dialect& dialect() const override;

  // The Status for SQLite result code `rc` (extended codes allowed); the
  // message is "<label> '<path>': <SQLite's message> (<what>)", `what` naming
  // the statement or step. Codes:
  //   SQLITE_BUSY, SQLITE_LOCKED        → Unavailable (retry later)
  //   SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY → AlreadyExists
  //   other SQLITE_CONSTRAINT_*          → Conflict
  //   SQLITE_CORRUPT, SQLITE_NOTADB      → Corruption
  //   anything else                      → Io
  // Also records last_error().
  Status Error(int rc, std::string_view what) const;

  const std::string& label() const override { return label_; }
  const std::string& path() const { return path_; }

  // The driver's cursor over `stmt` (statement.cc), which it finalizes.
  static std::unique_ptr<sql::Cursor> MakeCursor(const Database& db, sqlite3_stmt* stmt);

 private:
  Database(sqlite3* db, std::string label, std::string path)
      : db_(db), label_(std::move(label)), path_(std::move(path)) {}
  Status MakeError(int rc, std::string_view detail, std::string_view what) const;

  sqlite3* db_;
  std::string label_;
  std::string path_;
  // Written by the const error paths: a failure is an event of the
  // connection, not a change to what it holds.
  mutable sql::ErrorKind last_error_ = sql::ErrorKind::kNone;
};

}  // namespace st::sqlite
