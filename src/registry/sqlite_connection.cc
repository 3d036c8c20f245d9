#include <sqlite3.h>

#include "registry/sqlite_connection_internal.h"

namespace st::registry::internal {

Result<std::unique_ptr<Connection>> Connection::Open(const std::string& path, int busy_timeout_ms) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Err(IoError("cannot open the schema registry database '" + path + "': " + message +
                       "; check that the data directory exists and is writable"));
  }
  std::unique_ptr<Connection> connection(new Connection(db));
  sqlite3_busy_timeout(db, busy_timeout_ms);
  ST_TRY(connection->Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"));
  return connection;
}

Connection::~Connection() { sqlite3_close(db_); }

Status Connection::Exec(std::string_view sql) {
  std::string text(sql);
  char* message = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return Status::OK();
  std::string detail = message != nullptr ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  return Error(rc, "schema registry statement failed: " + detail);
}

Result<Statement> Connection::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return Err(Error(rc, "preparing a schema registry statement"));
  return Statement(*this, stmt);
}

Status Connection::Error(int rc, std::string_view what) const {
  std::string message = std::string(what) + ": " + sqlite3_errmsg(db_);
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status(StatusCode::kUnavailable, message + "; retry");
    case SQLITE_CONSTRAINT:
      return AlreadyExists(message);
    default:
      return IoError(message);
  }
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), bind_error_(std::move(other.bind_error_)) {
  other.stmt_ = nullptr;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::Bind(int index, std::string_view text) {
  int rc =
      sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK && bind_error_.ok()) bind_error_ = db_->Error(rc, "binding a parameter");
  return *this;
}

Statement& Statement::Bind(int index, int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK && bind_error_.ok()) bind_error_ = db_->Error(rc, "binding a parameter");
  return *this;
}

Result<bool> Statement::Step() {
  if (!bind_error_.ok()) return Err(bind_error_);
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Err(db_->Error(rc, "schema registry query"));
}

Status Statement::Run() {
  ST_ASSIGN_OR_RETURN(bool row, Step());
  (void)row;
  return Status::OK();
}

std::string Statement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

int64_t Statement::Int64(int column) const { return sqlite3_column_int64(stmt_, column); }

Transaction::Transaction(Connection& db) : db_(db) {
  begin_status_ = db_.Exec("BEGIN IMMEDIATE");
  open_ = begin_status_.ok();
}

Transaction::~Transaction() {
  if (open_) (void)db_.Exec("ROLLBACK");
}

Status Transaction::Commit() {
  ST_TRY(db_.Exec("COMMIT"));
  open_ = false;
  return Status::OK();
}

}  // namespace st::registry::internal
