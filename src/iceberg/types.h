// Iceberg data types (spec "Schemas and Data Types", format v2).
//
// Types are immutable and shared (TypePtr). Values of a type are st::Value
// (common/value.h) mapped as follows, everywhere in the table engine:
//   boolean→Bool  int→Int32  long→Int64  float→Float  double→Double
//   decimal(P,S)→Decimal (unscaled)  date→Int32 days since 1970-01-01
//   time→Int64 µs since midnight  timestamp/timestamptz→Int64 µs since epoch (UTC)
//   string→String (UTF-8)  uuid→Binary (16 bytes, big-endian)  fixed[L]→Binary (L bytes)
//   binary→Binary  struct→Struct (fields in order)  list→List  map→Map
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace st::iceberg {

enum class TypeId {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kString,
  kUuid,
  kFixed,
  kBinary,
  kStruct,
  kList,
  kMap,
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

// A named, id-carrying field of a struct, or the element/key/value of a list or map.
struct NestedField {
  int32_t id = 0;
  std::string name;
  bool required = false;
  TypePtr type;
  std::string doc;  // Empty when absent.
};

class Type {
 public:
  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ < TypeId::kStruct; }
  bool is_nested() const { return !is_primitive(); }

  // decimal only.
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  // fixed only.
  int32_t fixed_length() const { return length_; }
  // struct: its fields; list: one field named "element"; map: "key" then "value".
  const std::vector<NestedField>& fields() const { return fields_; }
  const NestedField& element() const { return fields_.at(0); }  // list only
  const NestedField& key() const { return fields_.at(0); }      // map only
  const NestedField& value() const { return fields_.at(1); }    // map only

  // The spec's JSON type string for primitives ("decimal(9,2)", "fixed[16]",
  // "timestamptz"), and a readable form for nested types ("list<int>").
  std::string ToString() const;

  static TypePtr Boolean();
  static TypePtr Int();
  static TypePtr Long();
  static TypePtr Float();
  static TypePtr Double();
  static TypePtr Date();
  static TypePtr Time();
  static TypePtr Timestamp();
  static TypePtr TimestampTz();
  static TypePtr String();
  static TypePtr Uuid();
  static TypePtr Binary();
  // Precondition: 1 <= precision <= 38, 0 <= scale <= precision (checked by
  // ParsePrimitive for external input; ST_CHECKed here).
  static TypePtr Decimal(int precision, int scale);
  static TypePtr Fixed(int32_t length);
  static TypePtr Struct(std::vector<NestedField> fields);
  static TypePtr List(int32_t element_id, bool element_required, TypePtr element);
  static TypePtr Map(int32_t key_id, TypePtr key, int32_t value_id, bool value_required,
                     TypePtr value);

  // Parses a primitive type string as written in metadata JSON. Unknown or
  // malformed strings → InvalidArgument naming the string.
  static Result<TypePtr> ParsePrimitive(const std::string& text);

  friend bool operator==(const Type& a, const Type& b);

 private:
  explicit Type(TypeId id) : id_(id) {}
  TypeId id_;
  int precision_ = 0;
  int scale_ = 0;
  int32_t length_ = 0;
  std::vector<NestedField> fields_;
};

bool operator==(const NestedField& a, const NestedField& b);

}  // namespace st::iceberg
