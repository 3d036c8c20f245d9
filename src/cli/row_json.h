// The `--dump-rows` encoding: one JSON object per row, lossless, so tests can
// compare any reader's output with what was written.
//
//   struct          object keyed by field name
//   list            array
//   map             array of [key, value] pairs, in written order
//   boolean         true/false
//   int, long       integer
//   date            integer days since 1970-01-01
//   time            integer µs since midnight
//   timestamp(tz)   integer µs since the epoch (UTC)
//   float, double   number (floats widened exactly), or "NaN", "Infinity", "-Infinity"
//   decimal(P,S)    string "-123.45" with exactly S fraction digits
//   string          string
//   uuid            string "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
//   fixed, binary   standard base64 string
//   null            null
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "common/value.h"
#include "iceberg/schema.h"

namespace st::cli {

// One row (a Struct in schema order) as a single-line JSON text, no newline.
// Errors: InvalidArgument when the value does not match the schema.
Result<std::string> RowToJsonLine(const iceberg::Schema& schema, const Value& row);

// "-123.45" for unscaled -12345 at scale 2.
std::string DecimalToString(Int128 unscaled, int scale);

}  // namespace st::cli
