// The table schema compiled for shredding: one node per Iceberg field with
// its Parquet definition/repetition levels and leaf column range, so the
// decoders write levels and values without consulting the schema again.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "iceberg/schema.h"
#include "parquet/schema.h"

namespace st::decoding {

struct TransparentStringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct ShredNode {
  enum class Kind { kPrimitive, kStruct, kList, kMap };
  Kind kind = Kind::kPrimitive;
  iceberg::TypePtr type;
  iceberg::TypeId type_id = iceberg::TypeId::kStruct;
  std::string name;
  std::string path;  // Dotted, for error messages.
  bool required = false;
  // Index into the partition spec's fields when this top-level column is a
  // partition source, else -1.
  int partition_slot = -1;
  int16_t def_level = 0;       // Definition level when this node is present.
  int16_t repeated_level = 0;  // List/map: repetition level of their entries.
  int column = -1;             // Primitive: its leaf column.
  int first_column = 0;        // Leaf columns of the subtree: [first, end).
  int end_column = 0;
  std::vector<ShredNode> children;  // Struct fields; list {element}; map {key, value}.
  // Struct only.
  std::unordered_map<std::string, int, TransparentStringHash, std::equal_to<>> child_by_name;
  // Scratch for decoders: which children an object supplied. A node never
  // nests inside itself, so one buffer per node suffices.
  mutable std::vector<uint8_t> seen;
  // The child after the one found last: producers write keys in a fixed
  // order, so this is usually the next key's field.
  mutable size_t next_hint = 0;

  // The child named `name`, or -1.
  int FindChild(std::string_view name) const;
};

struct ShredPlan {
  ShredNode root;          // The value columns (every top-level field but _kafka).
  bool has_kafka = false;  // Whether the schema has `_kafka` (then `kafka` is its node).
  ShredNode kafka;
};

// Errors: InvalidArgument when a map key is not a string (JSON object keys
// are) or the levels disagree with `parquet_schema` (a bug: Internal).
Result<ShredPlan> MakeShredPlan(const iceberg::Schema& schema,
                                const parquet::Schema& parquet_schema);

// The type's name in error messages ("timestamptz", "object", "array").
std::string ExpectedTypeName(const ShredNode& node);

}  // namespace st::decoding
