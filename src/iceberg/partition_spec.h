// Partition specs: how a table's rows map to partition tuples.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "iceberg/schema.h"
#include "iceberg/transform.h"

namespace st::iceberg {

// Partition field ids start here (Java PartitionSpec); an unpartitioned table
// reports last-partition-id = kPartitionFieldIdStart - 1.
inline constexpr int32_t kPartitionFieldIdStart = 1000;

struct PartitionField {
  int32_t source_id = 0;
  int32_t field_id = 0;
  std::string name;
  Transform transform = Transform::Identity();
  friend bool operator==(const PartitionField&, const PartitionField&) = default;
};

class PartitionSpec {
 public:
  // Validates against `schema`: sources exist and are primitive, transforms
  // accept the source type, names are unique and non-empty, field ids are
  // >= 1000 and unique. Errors: InvalidArgument naming the field.
  static Result<PartitionSpec> Make(const Schema& schema, int32_t spec_id,
                                    std::vector<PartitionField> fields);
  // Without validation (for metadata read from storage whose schema may have
  // dropped a source column).
  static PartitionSpec MakeUnchecked(int32_t spec_id, std::vector<PartitionField> fields);
  static PartitionSpec Unpartitioned() { return MakeUnchecked(0, {}); }

  int32_t spec_id() const { return spec_id_; }
  const std::vector<PartitionField>& fields() const { return fields_; }
  bool unpartitioned() const { return fields_.empty(); }
  // Highest field id, or kPartitionFieldIdStart - 1 when unpartitioned.
  int32_t LastFieldId() const;

  // The partition tuple's struct type (field ids = partition field ids, all
  // optional). Errors: InvalidArgument when a source id is not in `schema`.
  Result<TypePtr> PartitionType(const Schema& schema) const;
  // Computes the partition tuple (a Struct) of one row (a Struct in schema
  // order; nested source fields are found by walking struct values).
  Result<Value> PartitionOf(const Schema& schema, const Value& row) const;
  // "ts_day=2025-01-01/cat=a" (names and values URL-escaped for paths);
  // "" when unpartitioned.
  Result<std::string> PartitionPath(const Schema& schema, const Value& partition) const;

  friend bool operator==(const PartitionSpec&, const PartitionSpec&) = default;

 private:
  int32_t spec_id_ = 0;
  std::vector<PartitionField> fields_;
};

}  // namespace st::iceberg
