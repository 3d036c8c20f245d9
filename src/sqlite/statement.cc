#include "sqlite/statement.h"

#include <sqlite3.h>

#include "sqlite/database.h"

namespace st::sqlite {

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_),
      stmt_(std::exchange(other.stmt_, nullptr)),
      bind_error_(std::move(other.bind_error_)) {}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::KeepBindError(int rc) {
  if (rc != SQLITE_OK && bind_error_.ok()) bind_error_ = db_->Error(rc, "binding a parameter");
}

Statement& Statement::Bind(int index, std::string_view text) {
  KeepBindError(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                                  SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::BindBlob(int index, std::string_view bytes) {
  KeepBindError(sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()),
                                  SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::Bind(int index, int64_t value) {
  KeepBindError(sqlite3_bind_int64(stmt_, index, value));
  return *this;
}

Statement& Statement::BindDouble(int index, double value) {
  KeepBindError(sqlite3_bind_double(stmt_, index, value));
  return *this;
}

Statement& Statement::BindNull(int index) {
  KeepBindError(sqlite3_bind_null(stmt_, index));
  return *this;
}

Statement& Statement::BindOptional(int index, const std::optional<std::string>& text) {
  return text.has_value() ? Bind(index, std::string_view(*text)) : BindNull(index);
}

Result<bool> Statement::Step() {
  if (!bind_error_.ok()) return Err(bind_error_);
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status error = db_->Error(rc, sqlite3_sql(stmt_));
  // A failed statement keeps its read snapshot until reset; a caller that keeps
  // it around (to retry) would otherwise see every later write fail as busy.
  sqlite3_reset(stmt_);
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
  if (IsNull(column)) return std::nullopt;
  return Text(column);
}

int64_t Statement::Int64(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::Double(int column) const { return sqlite3_column_double(stmt_, column); }

bool Statement::IsBlob(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_BLOB;
}

std::string Statement::Blob(int column) const {
  const void* bytes = sqlite3_column_blob(stmt_, column);
  if (bytes == nullptr) return "";
  return std::string(static_cast<const char*>(bytes),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool Statement::IsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

}  // namespace st::sqlite
