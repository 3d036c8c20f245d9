#include <cctype>

#include "sql/connection.h"

namespace st::sql {

namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces the whole-word, upper-case type names of a migration; the
// migrations write types in upper case and names in lower case, so no
// identifier or string literal is touched.
std::string ReplaceTypes(std::string_view ddl) {
  struct Rename {
    std::string_view from, to;
  };
  static constexpr Rename kRenames[] = {
      {"INTEGER", "BIGINT"}, {"BLOB", "BYTEA"}, {"TEXT", "TEXT COLLATE \"C\""}};
  std::string out;
  out.reserve(ddl.size() + ddl.size() / 4);
  size_t i = 0;
  while (i < ddl.size()) {
    bool renamed = false;
    if (i == 0 || !IsWordChar(ddl[i - 1])) {
      for (const Rename& rename : kRenames) {
        size_t end = i + rename.from.size();
        if (ddl.substr(i, rename.from.size()) == rename.from &&
            (end == ddl.size() || !IsWordChar(ddl[end]))) {
          out += rename.to;
          i = end;
          renamed = true;
          break;
        }
      }
    }
    if (!renamed) out += ddl[i++];
  }
  return out;
}

}  // namespace

std::string Dialect::Schema(std::string_view ddl) const {
  return backend_ == Backend::kSqlite ? std::string(ddl) : ReplaceTypes(ddl);
}

std::string_view Dialect::BeginWrite() const {
  return backend_ == Backend::kSqlite ? "BEGIN IMMEDIATE" : "BEGIN ISOLATION LEVEL SERIALIZABLE";
}

std::string_view Dialect::BeginMigration() const {
  return backend_ == Backend::kSqlite ? "BEGIN IMMEDIATE"
                                      : "BEGIN; SELECT pg_advisory_xact_lock(7365726)";
}

std::string_view Dialect::TableExistsQuery() const {
  return backend_ == Backend::kSqlite
             ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
             : "SELECT count(*) FROM information_schema.tables WHERE "
               "table_schema = current_schema() AND table_name = ?";
}

bool IsRetryable(ErrorKind kind) {
  return kind == ErrorKind::kBusy || kind == ErrorKind::kSerializationFailure;
}

}  // namespace st::sql
