// Parsers for the JSON string forms of Iceberg primitives (RFC 3339
// date-time/date/time, canonical UUID, base64) and for exact decimals from
// JSON number text. Each returns false on malformed input; callers turn that
// into TYPE_MISMATCH.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/value.h"

namespace st::decoding {

// "YYYY-MM-DD[Tt ]HH:MM:SS[.fraction](Z|z|±HH:MM)" → µs since the epoch, UTC.
// Fraction digits past microseconds are truncated. An offset is required
// unless `offset_optional` (Iceberg timestamp without zone).
bool ParseRfc3339Timestamp(std::string_view text, bool offset_optional, int64_t* micros);
// "YYYY-MM-DD" → days since 1970-01-01.
bool ParseIsoDate(std::string_view text, int32_t* days);
// "HH:MM:SS[.fraction]" with an optional Z / ±HH:MM (applied, modulo a day)
// → µs since midnight.
bool ParseIsoTime(std::string_view text, int64_t* micros);
// Canonical 8-4-4-4-12 hex UUID → 16 big-endian bytes appended to `out`.
bool ParseUuidText(std::string_view text, std::string* out);
// A JSON number token (optional '-', digits, optional fraction, optional
// exponent) → unscaled value at `scale`. False when the text is not a number,
// a non-zero digit falls beyond the scale, or |unscaled| >= 10^precision.
bool ParseDecimalText(std::string_view text, int precision, int scale, Int128* unscaled);
// Days since 1970-01-01 of a proleptic Gregorian date (no range check).
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

}  // namespace st::decoding
