// The Parquet schema model: a tree of group and leaf nodes, plus builders for
// the shapes Iceberg writes (3-level lists, key_value maps, decimals sized by
// precision). A Schema is immutable once made and describes every leaf column
// (path, levels, types) in depth-first order; leaf column indexes used by
// FileWriter's per-leaf API are positions in Schema::columns().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace st::parquet {

enum class Repetition { kRequired, kOptional, kRepeated };

// Values are the Parquet `Type` enum numbers; INT96 is deliberately absent.
enum class PhysicalType {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

// The unit of a TIME or TIMESTAMP (parquet.thrift TimeUnit). We write micros
// (Iceberg's unit); the reader reports what a file says (pyarrow may write
// millis or nanos).
enum class TimeUnit { kMillis, kMicros, kNanos };

// The logical-type annotations we write (and read). The matching legacy
// converted_type is derived from it when the Parquet spec pairs the two.
struct LogicalType {
  enum class Kind { kNone, kString, kDate, kTime, kTimestamp, kDecimal, kUuid, kList, kMap };
  Kind kind = Kind::kNone;
  bool adjusted_to_utc = false;  // kTime, kTimestamp.
  int32_t precision = 0;         // kDecimal
  int32_t scale = 0;             // kDecimal
  // kTime, kTimestamp. TIME(MILLIS) is INT32, every other TIME/TIMESTAMP INT64.
  TimeUnit unit = TimeUnit::kMicros;

  static LogicalType None() { return {}; }
  static LogicalType String() { return {Kind::kString}; }
  static LogicalType Date() { return {Kind::kDate}; }
  static LogicalType Time() { return {Kind::kTime, false}; }
  static LogicalType Timestamp(bool adjusted_to_utc) { return {Kind::kTimestamp, adjusted_to_utc}; }
  static LogicalType Decimal(int32_t precision, int32_t scale) {
    return {Kind::kDecimal, false, precision, scale};
  }
  static LogicalType TimeWithUnit(bool adjusted_to_utc, TimeUnit unit) {
    return {Kind::kTime, adjusted_to_utc, 0, 0, unit};
  }
  static LogicalType TimestampWithUnit(bool adjusted_to_utc, TimeUnit unit) {
    return {Kind::kTimestamp, adjusted_to_utc, 0, 0, unit};
  }
  static LogicalType Uuid() { return {Kind::kUuid}; }
  static LogicalType List() { return {Kind::kList}; }
  static LogicalType Map() { return {Kind::kMap}; }

  friend bool operator==(const LogicalType&, const LogicalType&) = default;
};

// Bytes of the big-endian two's-complement FIXED_LEN_BYTE_ARRAY that holds
// every unscaled decimal of `precision` digits (1..38): 5 for P=10, 16 for P=38.
int32_t DecimalFixedLength(int32_t precision);

class Node {
 public:
  // General constructors. `type_length` is required for kFixedLenByteArray.
  static Node Leaf(std::string name, Repetition repetition, PhysicalType type,
                   LogicalType logical = LogicalType::None(),
                   std::optional<int32_t> field_id = std::nullopt, int32_t type_length = 0);
  static Node Group(std::string name, Repetition repetition, std::vector<Node> children,
                    std::optional<int32_t> field_id = std::nullopt,
                    LogicalType logical = LogicalType::None());

  // Iceberg type mappings (docs/api-contract-notes.md §5.5).
  static Node Boolean(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Int32(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Int64(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Float(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Double(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Date(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Time(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Timestamp(std::string name, Repetition rep, std::optional<int32_t> field_id,
                        bool adjusted_to_utc);
  // INT32 for precision <= 9, INT64 for <= 18, else FIXED_LEN_BYTE_ARRAY.
  static Node Decimal(std::string name, Repetition rep, std::optional<int32_t> field_id,
                      int32_t precision, int32_t scale);
  static Node String(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Binary(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Uuid(std::string name, Repetition rep, std::optional<int32_t> field_id);
  static Node Fixed(std::string name, Repetition rep, std::optional<int32_t> field_id,
                    int32_t length);
  static Node Struct(std::string name, Repetition rep, std::optional<int32_t> field_id,
                     std::vector<Node> fields);
  // `<name>` (LIST) -> repeated group `list` -> `element`; the element node is
  // renamed to "element" and keeps its repetition and field id.
  static Node List(std::string name, Repetition rep, std::optional<int32_t> field_id, Node element);
  // `<name>` (MAP) -> repeated group `key_value` -> `key` (forced required), `value`.
  static Node Map(std::string name, Repetition rep, std::optional<int32_t> field_id, Node key,
                  Node value);

  const std::string& name() const { return name_; }
  Repetition repetition() const { return repetition_; }
  bool is_leaf() const { return is_leaf_; }
  PhysicalType physical_type() const { return physical_type_; }
  LogicalType logical_type() const { return logical_type_; }
  int32_t type_length() const { return type_length_; }
  std::optional<int32_t> field_id() const { return field_id_; }
  const std::vector<Node>& children() const { return children_; }

 private:
  Node() = default;

  std::string name_;
  Repetition repetition_ = Repetition::kRequired;
  bool is_leaf_ = true;
  PhysicalType physical_type_ = PhysicalType::kInt32;
  LogicalType logical_type_;
  int32_t type_length_ = 0;
  std::optional<int32_t> field_id_;
  std::vector<Node> children_;
};

// One leaf column, as FileWriter and FileSummary describe it.
struct ColumnDescriptor {
  std::vector<std::string> path;  // path_in_schema, e.g. {"tags", "list", "element"}
  PhysicalType physical_type = PhysicalType::kInt32;
  LogicalType logical_type;
  int32_t type_length = 0;
  std::optional<int32_t> field_id;
  int16_t max_def_level = 0;
  int16_t max_rep_level = 0;

  std::string DottedPath() const;  // "tags.list.element"
};

class Schema {
 public:
  // Validates the tree. Errors (InvalidArgument, naming the node):
  // empty names or groups, FIXED without length, logical types on the wrong
  // physical type, decimal precision outside 1..38 or scale outside 0..P,
  // decimals whose physical type cannot hold P digits, LIST/MAP groups not in
  // the 3-level shape, repeated nodes anywhere else (Unsupported), nesting
  // deeper than 100 levels.
  static Result<Schema> Make(std::vector<Node> fields);

  const std::vector<Node>& fields() const { return fields_; }
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }

 private:
  std::vector<Node> fields_;
  std::vector<ColumnDescriptor> columns_;
};

}  // namespace st::parquet
