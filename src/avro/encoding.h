// Avro binary encoding of st::Value trees under a Schema.
//
// Value mapping (both directions unless noted):
//   null → Null; boolean → Bool; int → Int32; long → Int64 (Int32 accepted on
//   encode); float → Float; double → Double (Float accepted on encode);
//   string → String; bytes and fixed → Binary; record → Struct, fields in
//   schema order; array → List; map → Map with String keys; enum → String
//   symbol (Int32 index accepted on encode); union → the branch's value.
//   Logical types: decimal (valid precision/scale on bytes or fixed) → Decimal
//   of the unscaled value (Binary of the raw big-endian bytes also accepted on
//   encode); an array with logicalType "map" whose items are a record
//   {key, value} (Iceberg's int-keyed maps) → Map of key/value (List of
//   two-field Structs also accepted on encode). Other logical types (date,
//   time-micros, timestamp-micros, uuid, ...) use the underlying type's Value.
//
// Union branch choice on encode: the first branch, in schema order, that
// takes the Value's kind exactly (Null → null, Bool → boolean, Int32 → int,
// Int64 → long, Float → float, Double → double, Decimal → a decimal
// bytes/fixed, String → string, Binary → non-decimal bytes or a fixed of that
// size, List → array, Map → map, Struct → a record with that many fields);
// failing that, the first that takes it by promotion or alternative form
// (Int32 → long, Float → double, String → enum, Binary → any bytes/fixed,
// Map → logical-map array, Struct → any record). Records in one union should
// differ in arity; otherwise the first wins.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "avro/schema.h"
#include "common/status.h"
#include "common/value.h"

namespace st::avro {

// Appends the encoding of `value` to `*out`. On InvalidArgument (the value
// does not fit the schema; the message names the field path) `*out` may hold
// a partial encoding.
Status Encode(const Schema& schema, const Value& value, std::string* out);
Status EncodeNode(const Node& node, const Value& value, std::string* out);

// Limits that keep hostile input from exhausting the stack or memory.
struct DecodeLimits {
  // Deepest value nesting (records, arrays, maps, unions) accepted.
  int max_depth = 100;
  // Items of zero encoded size (e.g. arrays of null) cost no input bytes, so
  // they are budgeted separately, per decoded top-level value.
  int64_t max_zero_width_items = int64_t{1} << 20;
};

// Decodes one value of `schema` starting at `data[*offset]` and advances
// `*offset` past it. Errors: Corruption naming what was malformed and its byte
// offset (truncation, bad varint, length or count beyond the input, union or
// enum index out of range, limits exceeded). Never reads outside `data`.
Result<Value> Decode(const Schema& schema, std::string_view data, size_t* offset,
                     const DecodeLimits& limits = {});

}  // namespace st::avro
