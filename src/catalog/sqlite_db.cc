#include <sqlite3.h>

#include <utility>

#include "catalog/sqlite_db_internal.h"

namespace st::catalog::sqlite {

namespace {

StatusCode CodeFor(int rc) {
  switch (rc & 0xFF) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StatusCode::kUnavailable;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return StatusCode::kCorruption;
    case SQLITE_CONSTRAINT:
      return StatusCode::kConflict;
    default:
      return StatusCode::kIo;
  }
}

}  // namespace

Result<std::unique_ptr<Database>> Database::Open(const std::string& path, int busy_timeout_ms,
                                                 bool durable) {
  sqlite3* handle = nullptr;
  int rc =
      sqlite3_open_v2(path.c_str(), &handle,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
    sqlite3_close(handle);
    return Err(IoError("cannot open catalog database '" + path + "': " + message +
                       "; check that the directory exists and is writable"));
  }
  std::unique_ptr<Database> db(new Database(handle));
  sqlite3_busy_timeout(handle, busy_timeout_ms);
  sqlite3_extended_result_codes(handle, 1);
  // journal_mode returns a row; a read-only or in-memory database may refuse WAL.
  ST_ASSIGN_OR_RETURN(Statement wal, db->Prepare("PRAGMA journal_mode=WAL"));
  ST_ASSIGN_OR_RETURN(bool has_row, wal.Step());
  if (has_row && wal.Text(0) != "wal" && path != ":memory:") {
    return Err(IoError("catalog database '" + path + "' refused WAL mode (journal_mode=" +
                       wal.Text(0) + "); put it on a local filesystem"));
  }
  ST_TRY(db->Exec("PRAGMA foreign_keys=ON"));
  ST_TRY(db->Exec(durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL"));
  Status probe = db->Exec("SELECT count(*) FROM sqlite_master");
  if (!probe.ok()) return Err(probe.WithContext("catalog database '" + path + "'"));
  return db;
}

Database::~Database() { sqlite3_close_v2(db_); }

Status Database::Exec(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status::OK();
  std::string message = error ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  return Status(CodeFor(rc), "catalog database: " + message + " (in: " + text.substr(0, 80) + ")");
}

Result<Statement> Database::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return Err(Error(rc, "preparing: " + std::string(sql.substr(0, 80))));
  return Statement(*this, stmt);
}

int64_t Database::Changes() const { return sqlite3_changes64(db_); }

Status Database::Error(int rc, std::string_view what) const {
  StatusCode code = CodeFor(rc);
  std::string message =
      "catalog database: " + std::string(sqlite3_errmsg(db_)) + " (" + std::string(what) + ")";
  if (code == StatusCode::kUnavailable) message += "; another writer holds the lock, retry later";
  return Status(code, std::move(message));
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)), bind_error_(other.bind_error_) {}

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

Statement& Statement::BindOptional(int index, const std::optional<std::string>& text) {
  if (text.has_value()) return Bind(index, std::string_view(*text));
  int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK && bind_error_.ok()) bind_error_ = db_->Error(rc, "binding a parameter");
  return *this;
}

Result<bool> Statement::Step() {
  if (!bind_error_.ok()) return Err(bind_error_);
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status error = db_->Error(rc, sqlite3_sql(stmt_));
  if ((rc & 0xFF) == SQLITE_CONSTRAINT &&
      (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)) {
    error = Status(StatusCode::kAlreadyExists, error.message());
  }
  return Err(std::move(error));
}

Status Statement::Run() {
  while (true) {
    ST_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::OK();
  }
}

std::string Statement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::optional<std::string> Statement::OptionalText(int column) const {
  if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::nullopt;
  return Text(column);
}

int64_t Statement::Int64(int column) const { return sqlite3_column_int64(stmt_, column); }

Transaction::Transaction(Database& db) : db_(db) {
  begin_status_ = db_.Exec("BEGIN IMMEDIATE");
  open_ = begin_status_.ok();
}

Transaction::~Transaction() {
  if (open_) (void)db_.Exec("ROLLBACK");
}

Status Transaction::Commit(StatusCode failure_code) {
  Status status = db_.Exec("COMMIT");
  if (status.ok()) {
    open_ = false;
    return status;
  }
  if (status.code() == StatusCode::kUnavailable) return status;  // Still open; rolled back later.
  return Status(failure_code, status.message());
}

}  // namespace st::catalog::sqlite
