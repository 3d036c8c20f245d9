#include "sqlite/database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace st::sqlite {

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
      return rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY
                 ? StatusCode::kAlreadyExists
                 : StatusCode::kConflict;
    default:
      return StatusCode::kIo;
  }
}

sql::ErrorKind KindFor(int rc) {
  switch (rc & 0xFF) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return sql::ErrorKind::kBusy;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return sql::ErrorKind::kCorruption;
    case SQLITE_CONSTRAINT:
      return rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY
                 ? sql::ErrorKind::kUniqueViolation
                 : sql::ErrorKind::kConstraintViolation;
    default:
      return sql::ErrorKind::kOther;
  }
}

constexpr sql::Dialect kSqliteDialect(sql::Backend::kSqlite);

}  // namespace

Result<std::unique_ptr<Database>> Database::Open(const OpenOptions& options) {
  // SQLite would create the file with mode 0644 (less the umask) and gives
  // its -wal and -shm files the database file's mode, so creating it owner-only
  // first keeps all three private. An existing file keeps its mode.
  if (options.path != ":memory:" && !options.path.empty()) {
    int fd = ::open(options.path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
      return Err(IoError("cannot create " + options.label + " '" + options.path +
                         "': " + std::strerror(errno) +
                         "; check that the directory exists and is writable"));
    }
    ::close(fd);
  }
  sqlite3* handle = nullptr;
  int rc =
      sqlite3_open_v2(options.path.c_str(), &handle,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc);
    sqlite3_close(handle);
    return Err(IoError("cannot open " + options.label + " '" + options.path + "': " + message +
                       "; check that the directory exists and is writable"));
  }
  std::unique_ptr<Database> db(new Database(handle, options.label, options.path));
  sqlite3_busy_timeout(handle, static_cast<int>(options.busy_timeout.count()));
  sqlite3_extended_result_codes(handle, 1);
  // journal_mode returns the mode now in force; a network filesystem may refuse
  // WAL, and two processes would then not see each other's locks reliably.
  ST_ASSIGN_OR_RETURN(Statement wal, db->Prepare("PRAGMA journal_mode=WAL"));
  ST_ASSIGN_OR_RETURN(bool has_row, wal.Step());
  if (has_row && wal.Text(0) != "wal" && options.path != ":memory:") {
    return Err(IoError(options.label + " '" + options.path + "' refused WAL mode (journal_mode=" +
                       wal.Text(0) + "); put it on a local filesystem"));
  }
  ST_TRY(db->Exec("PRAGMA foreign_keys=ON"));
  ST_TRY(db->Exec(options.durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL"));
  // Opening is lazy: reading the schema is what detects a file that is not a database.
  ST_TRY(db->Exec("SELECT count(*) FROM sqlite_master"));
  return db;
}

Database::~Database() { sqlite3_close_v2(db_); }

Status Database::Exec(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status::OK();
  std::string detail = error ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  return MakeError(rc, detail, "in: " + text.substr(0, 80));
}

Result<Statement> Database::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return Err(Error(rc, "preparing: " + std::string(sql.substr(0, 80))));
  return Statement(MakeCursor(*this, stmt));
}

int64_t Database::Changes() const { return sqlite3_changes64(db_); }

Status Database::Error(int rc, std::string_view what) const {
  return MakeError(rc, sqlite3_errmsg(db_), what);
}

const sql::Dialect& Database::dialect() const { return kSqliteDialect; }

Status Database::MakeError(int rc, std::string_view detail, std::string_view what) const {
  last_error_ = KindFor(rc);
  StatusCode code = CodeFor(rc);
  std::string message =
      label_ + " '" + path_ + "': " + std::string(detail) + " (" + std::string(what) + ")";
  if (code == StatusCode::kUnavailable) message += "; another writer holds the lock, retry later";
  return Status(code, std::move(message));
}

}  // namespace st::sqlite
