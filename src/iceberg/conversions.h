// The spec's single-value binary serialization (Appendix D), used for
// lower/upper bounds and manifest-list partition summaries.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "common/value.h"
#include "iceberg/types.h"

namespace st::iceberg {

// boolean: 1 byte 0x00/0x01; int/date: 4-byte LE; long/time/timestamp(tz):
// 8-byte LE; float/double: IEEE LE; decimal: minimal big-endian two's
// complement of the unscaled value; string: UTF-8 bytes; uuid: 16 bytes
// big-endian; fixed/binary: the bytes. Errors: InvalidArgument for nested
// types, nulls or a value kind that does not match the type.
Result<std::string> ToSingleValueBytes(const Type& type, const Value& value);
// The inverse. Errors: Corruption when the length is wrong for the type.
Result<Value> FromSingleValueBytes(const Type& type, std::string_view bytes);

// Whether a non-null `value` has the st::Value kind that `type` maps to
// (types.h); false for nested types and nulls.
bool ValueMatchesType(const Type& type, const Value& value);

// Compares two non-null values of a primitive type in the type's order
// (signed ints, IEEE for floats with NaN greatest, unsigned bytes for
// string/binary/fixed/uuid, numeric for decimal): <0, 0, >0.
int CompareValues(const Type& type, const Value& a, const Value& b);

}  // namespace st::iceberg
