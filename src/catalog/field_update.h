// FieldUpdate<T>: what a partial update does to one optional field of a
// record: leave it as it is, clear it, or set it to a value. It replaces
// std::optional<std::optional<T>>, whose two nullopts read alike.
#pragma once

#include <optional>
#include <utility>

namespace st::catalog {

template <class T>
class FieldUpdate {
 public:
  // Leave.
  FieldUpdate() = default;
  // Set(value); implicit so `change.field = value;` reads as set.
  FieldUpdate(T value)
      : set_(true), value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  // Clear; `change.field = std::nullopt;`.
  FieldUpdate(std::nullopt_t) : set_(true) {}  // NOLINT(google-explicit-constructor)

  static FieldUpdate Leave() { return FieldUpdate(); }
  static FieldUpdate Clear() { return FieldUpdate(std::nullopt); }
  static FieldUpdate Set(T value) { return FieldUpdate(std::move(value)); }

  bool is_leave() const { return !set_; }
  bool is_clear() const { return set_ && !value_.has_value(); }
  bool is_set() const { return value_.has_value(); }

  // Applies the update to the record's field.
  void ApplyTo(std::optional<T>& field) const {
    if (set_) field = value_;
  }

  // The optional<optional<T>> reading the store adapters use: has_value() is
  // "not Leave", and *update / update-> is the field's new value (nullopt for
  // Clear). Precondition for * and ->: has_value().
  bool has_value() const { return set_; }
  const std::optional<T>& operator*() const { return value_; }
  const std::optional<T>* operator->() const { return &value_; }

 private:
  bool set_ = false;
  std::optional<T> value_;  // Engaged only for Set.
};

}  // namespace st::catalog
