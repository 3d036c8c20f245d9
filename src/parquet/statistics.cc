#include "parquet/statistics_internal.h"

namespace st::parquet::internal {

StatsAccumulator::StatsAccumulator(const ColumnDescriptor& column)
    : type_(column.physical_type),
      signed_fixed_(column.physical_type == PhysicalType::kFixedLenByteArray &&
                    column.logical_type.kind == LogicalType::Kind::kDecimal) {}

void StatsAccumulator::Merge(const StatsAccumulator& other) {
  if (!other.has_min_max_) return;
  switch (type_) {
    case PhysicalType::kBoolean:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      UpdateInt(other.min_int_);
      UpdateInt(other.max_int_);
      return;
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      UpdateFloating(other.min_double_);
      UpdateFloating(other.max_double_);
      return;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      UpdateBytes(other.min_bytes_);
      UpdateBytes(other.max_bytes_);
      return;
  }
}

bool StatsAccumulator::MergeEncoded(std::string_view min, std::string_view max) {
  auto load = [](std::string_view b, auto* v) {
    if (b.size() != sizeof(*v)) return false;
    std::memcpy(v, b.data(), sizeof(*v));
    return true;
  };
  switch (type_) {
    case PhysicalType::kBoolean:
      if (min.size() != 1 || max.size() != 1) return false;
      UpdateInt(min[0] != 0 ? 1 : 0);
      UpdateInt(max[0] != 0 ? 1 : 0);
      return true;
    case PhysicalType::kInt32: {
      int32_t lo = 0;
      int32_t hi = 0;
      if (!load(min, &lo) || !load(max, &hi)) return false;
      UpdateInt(lo);
      UpdateInt(hi);
      return true;
    }
    case PhysicalType::kInt64: {
      int64_t lo = 0;
      int64_t hi = 0;
      if (!load(min, &lo) || !load(max, &hi)) return false;
      UpdateInt(lo);
      UpdateInt(hi);
      return true;
    }
    case PhysicalType::kFloat: {
      float lo = 0;
      float hi = 0;
      if (!load(min, &lo) || !load(max, &hi)) return false;
      UpdateFloating(lo);
      UpdateFloating(hi);
      return true;
    }
    case PhysicalType::kDouble: {
      double lo = 0;
      double hi = 0;
      if (!load(min, &lo) || !load(max, &hi)) return false;
      UpdateFloating(lo);
      UpdateFloating(hi);
      return true;
    }
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      if (signed_fixed_ && (min.empty() || min.size() != max.size())) return false;
      UpdateBytes(min);
      UpdateBytes(max);
      return true;
  }
  return false;
}

std::string StatsAccumulator::Encode(bool min) const {
  std::string out;
  auto put = [&out](const auto& v) { out.assign(reinterpret_cast<const char*>(&v), sizeof(v)); };
  const int64_t i = min ? min_int_ : max_int_;
  double d = min ? min_double_ : max_double_;
  if (d == 0) d = min ? -0.0 : 0.0;
  switch (type_) {
    case PhysicalType::kBoolean:
      out.assign(1, static_cast<char>(i));
      break;
    case PhysicalType::kInt32:
      put(static_cast<int32_t>(i));
      break;
    case PhysicalType::kInt64:
      put(i);
      break;
    case PhysicalType::kFloat:
      put(static_cast<float>(d));
      break;
    case PhysicalType::kDouble:
      put(d);
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      out = min ? min_bytes_ : max_bytes_;
      break;
  }
  return out;
}

}  // namespace st::parquet::internal
