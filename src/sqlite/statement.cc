// The SQLite cursor behind sql::Statement.
#include <sqlite3.h>

#include "sqlite/database.h"

namespace st::sqlite {

namespace {

class SqliteCursor final : public sql::Cursor {
 public:
  SqliteCursor(const Database& db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  ~SqliteCursor() override { sqlite3_finalize(stmt_); }
  SqliteCursor(const SqliteCursor&) = delete;
  SqliteCursor& operator=(const SqliteCursor&) = delete;

  Status BindText(int index, std::string_view text) override {
    return Checked(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                                     SQLITE_TRANSIENT));
  }
  Status BindBlob(int index, std::string_view bytes) override {
    return Checked(sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()),
                                     SQLITE_TRANSIENT));
  }
  Status BindInt64(int index, int64_t value) override {
    return Checked(sqlite3_bind_int64(stmt_, index, value));
  }
  Status BindDouble(int index, double value) override {
    return Checked(sqlite3_bind_double(stmt_, index, value));
  }
  Status BindNull(int index) override { return Checked(sqlite3_bind_null(stmt_, index)); }

  Result<bool> Step() override {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    Status error = db_.Error(rc, sqlite3_sql(stmt_));
    // A failed statement keeps its read snapshot until reset; a caller that
    // keeps it around (to retry) would otherwise see every later write fail
    // as busy.
    sqlite3_reset(stmt_);
    return Err(std::move(error));
  }

  std::string Text(int column) const override {
    const unsigned char* text = sqlite3_column_text(stmt_, column);
    if (text == nullptr) return "";
    return std::string(reinterpret_cast<const char*>(text),
                       static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
  }
  int64_t Int64(int column) const override { return sqlite3_column_int64(stmt_, column); }
  double Double(int column) const override { return sqlite3_column_double(stmt_, column); }
  bool IsBlob(int column) const override {
    return sqlite3_column_type(stmt_, column) == SQLITE_BLOB;
  }
  std::string Blob(int column) const override {
    const void* bytes = sqlite3_column_blob(stmt_, column);
    if (bytes == nullptr) return "";
    return std::string(static_cast<const char*>(bytes),
                       static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
  }
  bool IsNull(int column) const override {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
  }

 private:
  Status Checked(int rc) {
    return rc == SQLITE_OK ? Status::OK() : db_.Error(rc, "binding a parameter");
  }

  const Database& db_;
  sqlite3_stmt* stmt_;
};

}  // namespace

std::unique_ptr<sql::Cursor> Database::MakeCursor(const Database& db, sqlite3_stmt* stmt) {
  return std::make_unique<SqliteCursor>(db, stmt);
}

}  // namespace st::sqlite
