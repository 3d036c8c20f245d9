// Pushing one primitive value, given in its JSON text form, into a leaf
// column: the type-directed half of JSON decoding that needs no parser.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/value.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/record.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {

// A JSON string's content for a string, timestamp(tz), date, time, uuid,
// binary or fixed column. False (nothing pushed) when the text does not
// parse as the node's type or the type is not one of those.
bool PushTextValue(const ShredNode& node, std::string_view text, int16_t rep, ColumnBuffer& c);

// A JSON number token for a decimal column, exactly. False (nothing pushed)
// when it is not a number or does not fit the precision and scale.
bool PushDecimalText(const ShredNode& node, std::string_view token, int16_t rep, ColumnBuffer& c);

// An unscaled decimal that fits the node's precision, in the column's
// physical form (int32, int64 or big-endian fixed bytes).
void PushDecimalUnscaled(const ShredNode& node, Int128 unscaled, int16_t rep, ColumnBuffer& c);

// Null levels (definition `def`) for every leaf column under `node`.
void PushNulls(const ShredNode& node, int16_t def, int16_t rep, ColumnBuffers& out);

// A value the record lacks (or gives as null) for `node`: nulls, or false
// with MISSING_PARTITION_VALUE / MISSING_REQUIRED_FIELD in `error` when the
// node is a partition source or required.
bool PushMissing(const ShredNode& node, int16_t rep, ColumnBuffers& out, RecordError* error);

// The value just pushed to `c` (the node's column), as an st::Value.
Value LastValue(const ShredNode& node, const ColumnBuffer& c);

// A short quoted rendering of a rejected string for error messages.
std::string QuoteForMessage(std::string_view text);

}  // namespace st::decoding
