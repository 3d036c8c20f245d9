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
