// Min/max accumulation with the Parquet type-defined sort order of a column:
// signed for integers and decimals (FIXED decimals compare as big-endian two's
// complement), IEEE for floats with NaN excluded, unsigned lexicographic for
// BYTE_ARRAY and other FIXED values (uuid, fixed[n]).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "parquet/schema.h"

namespace st::parquet::internal {

class StatsAccumulator {
 public:
  explicit StatsAccumulator(const ColumnDescriptor& column);

  void Update(bool v) { UpdateInt(v ? 1 : 0); }
  void Update(int32_t v) { UpdateInt(v); }
  void Update(int64_t v) { UpdateInt(v); }
  void Update(float v) { UpdateFloating(v); }
  void Update(double v) { UpdateFloating(v); }
  void UpdateBytes(std::string_view v) {
    if (!has_min_max_) {
      min_bytes_.assign(v);
      max_bytes_.assign(v);
      has_min_max_ = true;
      return;
    }
    if (LessBytes(v, min_bytes_)) min_bytes_.assign(v);
    if (LessBytes(max_bytes_, v)) max_bytes_.assign(v);
  }

  // Batch forms: one pass over the values, the bounds updated once.
  template <typename T>
  void UpdateRange(const T* v, size_t n) {
    if constexpr (std::is_floating_point_v<T>) {
      for (size_t i = 0; i < n; ++i) UpdateFloating(v[i]);
    } else {
      if (n == 0) return;
      T lo = v[0];
      T hi = v[0];
      for (size_t i = 1; i < n; ++i) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
      }
      UpdateInt(lo);
      UpdateInt(hi);
    }
  }
  void UpdateBytesRange(const std::string_view* v, size_t n) {
    if (n == 0) return;
    std::string_view lo = v[0];
    std::string_view hi = v[0];
    for (size_t i = 1; i < n; ++i) {
      if (LessBytes(v[i], lo)) lo = v[i];
      if (LessBytes(hi, v[i])) hi = v[i];
    }
    UpdateBytes(lo);
    UpdateBytes(hi);
  }

  void Merge(const StatsAccumulator& other);
  // Merges bounds in EncodedMin/EncodedMax form (as another accumulator of
  // the same column produced them). False when they do not fit the type.
  bool MergeEncoded(std::string_view min, std::string_view max);
  void Reset() { has_min_max_ = false; }

  // False when every value was null or NaN.
  bool has_min_max() const { return has_min_max_; }
  // PLAIN-encoded bounds (BYTE_ARRAY without its length prefix). For floats a
  // zero min is written as -0.0 and a zero max as +0.0, as the spec requires.
  std::string EncodedMin() const { return Encode(true); }
  std::string EncodedMax() const { return Encode(false); }

 private:
  void UpdateInt(int64_t v) {
    if (!has_min_max_) {
      min_int_ = max_int_ = v;
      has_min_max_ = true;
      return;
    }
    if (v < min_int_) min_int_ = v;
    if (v > max_int_) max_int_ = v;
  }
  void UpdateFloating(double v) {
    if (v != v) return;  // NaN has no place in the order.
    if (!has_min_max_) {
      min_double_ = max_double_ = v;
      has_min_max_ = true;
      return;
    }
    if (v < min_double_) min_double_ = v;
    if (v > max_double_) max_double_ = v;
  }
  bool LessBytes(std::string_view a, std::string_view b) const {
    if (signed_fixed_) {
      // Same length by construction; the first byte carries the sign.
      const auto a0 = static_cast<int8_t>(a[0]);
      const auto b0 = static_cast<int8_t>(b[0]);
      if (a0 != b0) return a0 < b0;
      return std::memcmp(a.data() + 1, b.data() + 1, a.size() - 1) < 0;
    }
    const size_t n = a.size() < b.size() ? a.size() : b.size();
    const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
    return c != 0 ? c < 0 : a.size() < b.size();
  }
  std::string Encode(bool min) const;

  PhysicalType type_;
  bool signed_fixed_ = false;
  bool has_min_max_ = false;
  int64_t min_int_ = 0;
  int64_t max_int_ = 0;
  double min_double_ = 0;
  double max_double_ = 0;
  std::string min_bytes_;
  std::string max_bytes_;
};

}  // namespace st::parquet::internal
