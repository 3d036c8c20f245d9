// The SQL driver interface the metadata stores are written against: a
// connection that runs SQL, prepares statements (sql/statement.h) and opens
// write transactions, plus the dialect facts that differ between backends.
// src/sqlite and src/postgres implement it; store code holds a Connection
// and never names a backend.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "sql/statement.h"

namespace st::sql {

// Why the last statement failed, as typed codes: the Status says what the
// caller should do (Unavailable: retry, AlreadyExists, Conflict, ...); this
// says what the database reported, so a retry loop can tell a failure that
// certainly changed nothing from one whose outcome is unknown.
enum class ErrorKind {
  kNone,
  kBusy,                  // Another writer held the lock (SQLite); nothing was done.
  kSerializationFailure,  // PostgreSQL 40001/40P01; the transaction was rolled back.
  kConnectionLost,        // The server went away; an open transaction is gone.
  kUniqueViolation,       // A primary key or unique constraint (AlreadyExists).
  kConstraintViolation,   // Another constraint: foreign key, check, not null (Conflict).
  kCorruption,            // The database is damaged or not a database.
  kOther,
};

enum class Backend { kSqlite, kPostgres };

// What differs in SQL text between the backends, in one place. Queries use
// '?' (or '?N') placeholders and portable SQL (ON CONFLICT ... DO UPDATE /
// DO NOTHING, LIMIT, substr, length, coalesce); drivers translate
// placeholders themselves. Migrations are written once with SQLite's type
// names and translated by Schema().
class Dialect {
 public:
  explicit constexpr Dialect(Backend backend) : backend_(backend) {}
  Backend backend() const { return backend_; }

  // DDL written with TEXT / INTEGER / BLOB as this backend runs it.
  // PostgreSQL: INTEGER is BIGINT (epoch millis), BLOB is BYTEA, and TEXT
  // compares bytewise (COLLATE "C", as SQLite does) so that listings and
  // their page tokens order the same on both backends.
  std::string Schema(std::string_view ddl) const;
  // The statement that opens a write transaction. SQLite: BEGIN IMMEDIATE
  // (the write lock up front); PostgreSQL: SERIALIZABLE, so a unit of
  // work's read-check-write (the offset fence, the token check) cannot
  // interleave with another replica's.
  std::string_view BeginWrite() const;
  // Opens a migration's transaction, serialised against every other
  // process migrating the same database. PostgreSQL: READ COMMITTED under a
  // transaction-scoped advisory lock, so that the version re-read after
  // waiting sees the other process's migration.
  std::string_view BeginMigration() const;
  // A query with one text parameter, the table name, whose first column
  // counts the tables of that name.
  std::string_view TableExistsQuery() const;
  // Whether a TEXT column may also hold binary values that IsBlob() tells
  // apart (SQLite's dynamic typing); PostgreSQL columns have one type.
  bool BinaryInTextColumns() const { return backend_ == Backend::kSqlite; }

 private:
  Backend backend_;
};

// Not thread-safe: callers serialise all use of one Connection and of its
// Statements (a pool hands each connection to one thread at a time).
class Connection {
 public:
  virtual ~Connection() = default;

  // Runs one or more ';'-separated statements, discarding any rows.
  virtual Status Exec(std::string_view sql) = 0;
  // Compiles one statement; it must not outlive this Connection.
  virtual Result<Statement> Prepare(std::string_view sql) = 0;
  // Rows changed by the last INSERT/UPDATE/DELETE on this connection.
  virtual int64_t Changes() const = 0;
  // The kind of the most recent failure on this connection: read it right
  // after a call failed.
  virtual ErrorKind last_error() const = 0;
  // Names the database in messages ("catalog database").
  virtual const std::string& label() const = 0;
  virtual const Dialect& dialect() const = 0;
};

// Whether `kind` certainly left the database unchanged, so the whole
// transaction may be run again (a lost connection during COMMIT does not).
bool IsRetryable(ErrorKind kind);

}  // namespace st::sql
