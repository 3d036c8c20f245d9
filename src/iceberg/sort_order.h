// Sort orders (metadata only: we record them; writers may ignore them).
#pragma once

#include <cstdint>
#include <vector>

#include "iceberg/transform.h"

namespace st::iceberg {

enum class SortDirection { kAsc, kDesc };
enum class NullOrder { kNullsFirst, kNullsLast };

struct SortField {
  Transform transform = Transform::Identity();
  int32_t source_id = 0;
  SortDirection direction = SortDirection::kAsc;
  NullOrder null_order = NullOrder::kNullsFirst;
  friend bool operator==(const SortField&, const SortField&) = default;
};

struct SortOrder {
  int32_t order_id = 0;  // 0 is reserved for the unsorted order.
  std::vector<SortField> fields;
  static SortOrder Unsorted() { return SortOrder{}; }
  friend bool operator==(const SortOrder&, const SortOrder&) = default;
};

}  // namespace st::iceberg
