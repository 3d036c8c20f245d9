// A prepared SQLite statement with typed parameter binding and column reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"

struct sqlite3_stmt;

namespace st::sqlite {

class Database;

// Made by Database::Prepare; must not outlive it. Move-only. Not thread-safe.
// Binding never fails on its own: a bind error is kept and returned by the
// next Step()/Run(), so binds can be chained.
class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  ~Statement();

  // Parameters are 1-based, in the order of the '?' in the SQL (or ?N).
  // Text is copied. There is deliberately no bool or int overload: a
  // `const char*` would silently pick it.
  Statement& Bind(int index, std::string_view text);
  Statement& Bind(int index, int64_t value);
  Statement& BindDouble(int index, double value);
  // Bytes stored as a BLOB (typeof() = 'blob'); copied.
  Statement& BindBlob(int index, std::string_view bytes);
  Statement& BindNull(int index);
  // nullopt binds NULL.
  Statement& BindOptional(int index, const std::optional<std::string>& text);

  // true: a row is available to the column readers; false: done.
  // Errors: those of Database::Error (Unavailable when busy, AlreadyExists
  // for a uniqueness violation, Conflict for another constraint, ...).
  Result<bool> Step();
  // Steps to completion, for statements whose rows do not matter.
  Status Run();

  // Steps through the remaining rows, calling on_row(*this) for each.
  template <typename OnRow>
  Status ForEachRow(OnRow&& on_row) {
    while (true) {
      ST_ASSIGN_OR_RETURN(bool row, Step());
      if (!row) return Status::OK();
      on_row(std::as_const(*this));
    }
  }
  // Steps through the remaining rows, collecting read_row(*this) for each.
  template <typename ReadRow>
  auto ReadRows(ReadRow&& read_row)
      -> Result<std::vector<std::invoke_result_t<ReadRow&, const Statement&>>> {
    std::vector<std::invoke_result_t<ReadRow&, const Statement&>> out;
    ST_TRY(ForEachRow([&](const Statement& row) { out.push_back(read_row(row)); }));
    return out;
  }

  // Column readers for the current row; columns are 0-based. NULL reads as
  // "" / 0 / 0.0 unless the reader says otherwise.
  std::string Text(int column) const;
  std::optional<std::string> OptionalText(int column) const;  // NULL → nullopt
  int64_t Int64(int column) const;
  double Double(int column) const;
  bool IsNull(int column) const;
  bool IsBlob(int column) const;
  // The column's bytes (a BLOB as stored; other types as Text reads them).
  std::string Blob(int column) const;

 private:
  friend class Database;
  Statement(const Database& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  void KeepBindError(int rc);

  const Database* db_;
  sqlite3_stmt* stmt_;
  Status bind_error_;
};

}  // namespace st::sqlite
