// A prepared statement of any SQL driver: typed parameter binding by
// position and column reads of the current row. Statement is the value the
// stores hold; Cursor is what a driver (src/sqlite, src/postgres) implements
// behind it, so store code is written once for every backend.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"

namespace st::sql {

// One prepared statement inside a driver. Parameters are 1-based, columns
// 0-based. A bind error is returned by the bind and kept by Statement.
class Cursor {
 public:
  virtual ~Cursor() = default;
  virtual Status BindText(int index, std::string_view text) = 0;
  virtual Status BindInt64(int index, int64_t value) = 0;
  virtual Status BindDouble(int index, double value) = 0;
  virtual Status BindBlob(int index, std::string_view bytes) = 0;
  virtual Status BindNull(int index) = 0;
  // true: a row is available to the readers; false: done.
  virtual Result<bool> Step() = 0;
  virtual std::string Text(int column) const = 0;
  virtual int64_t Int64(int column) const = 0;
  virtual double Double(int column) const = 0;
  virtual bool IsNull(int column) const = 0;
  virtual bool IsBlob(int column) const = 0;
  virtual std::string Blob(int column) const = 0;
};

// Made by Connection::Prepare; must not outlive its connection. Move-only.
// Not thread-safe. Binding never fails on its own: a bind error is kept and
// returned by the next Step()/Run(), so binds can be chained.
class Statement {
 public:
  explicit Statement(std::unique_ptr<Cursor> cursor) : cursor_(std::move(cursor)) {}
  Statement(Statement&& other) noexcept = default;
  Statement& operator=(Statement&&) = delete;

  // Parameters are 1-based, in the order of the '?' in the SQL (or ?N).
  // Text is copied. There is deliberately no bool or int overload: a
  // `const char*` would silently pick it.
  Statement& Bind(int index, std::string_view text) { return Keep(cursor_->BindText(index, text)); }
  Statement& Bind(int index, int64_t value) { return Keep(cursor_->BindInt64(index, value)); }
  Statement& BindDouble(int index, double value) { return Keep(cursor_->BindDouble(index, value)); }
  // Bytes stored as binary (SQLite BLOB, PostgreSQL BYTEA); copied.
  Statement& BindBlob(int index, std::string_view bytes) {
    return Keep(cursor_->BindBlob(index, bytes));
  }
  Statement& BindNull(int index) { return Keep(cursor_->BindNull(index)); }
  // nullopt binds NULL.
  Statement& BindOptional(int index, const std::optional<std::string>& text) {
    return text.has_value() ? Bind(index, std::string_view(*text)) : BindNull(index);
  }

  // true: a row is available to the column readers; false: done. Errors:
  // those of the driver (Unavailable when busy or on a serialization
  // failure, AlreadyExists for a uniqueness violation, Conflict for another
  // constraint, ...); Connection::last_error() says which.
  Result<bool> Step() {
    if (!bind_error_.ok()) return Err(bind_error_);
    return cursor_->Step();
  }
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
  std::string Text(int column) const { return cursor_->Text(column); }
  std::optional<std::string> OptionalText(int column) const {
    if (IsNull(column)) return std::nullopt;
    return Text(column);
  }
  int64_t Int64(int column) const { return cursor_->Int64(column); }
  double Double(int column) const { return cursor_->Double(column); }
  bool IsNull(int column) const { return cursor_->IsNull(column); }
  bool IsBlob(int column) const { return cursor_->IsBlob(column); }
  // The column's bytes (binary as stored; other types as Text reads them).
  std::string Blob(int column) const { return cursor_->Blob(column); }

 private:
  Statement& Keep(Status status) {
    if (!status.ok() && bind_error_.ok()) bind_error_ = std::move(status);
    return *this;
  }

  std::unique_ptr<Cursor> cursor_;
  Status bind_error_;
};

}  // namespace st::sql
