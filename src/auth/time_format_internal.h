// The timestamp spellings auth meets: SigV4's basic ISO 8601
// ("20261130T005104Z"), HTTP's RFC 1123 Date header, and the extended ISO 8601
// or epoch-seconds values of IAM Date conditions. All times are UTC.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace st::auth {

using TimePoint = std::chrono::system_clock::time_point;

// "YYYYMMDDTHHMMSSZ" exactly; nullopt otherwise.
std::optional<TimePoint> ParseAmzDate(std::string_view text);
// The inverse of ParseAmzDate (sub-second parts are truncated).
std::string FormatAmzDate(TimePoint time);
// "Sun, 06 Nov 1994 08:49:37 GMT"; nullopt otherwise.
std::optional<TimePoint> ParseHttpDate(std::string_view text);
// IAM date values: "2024-01-31", "2024-01-31T12:00:00Z", with optional
// fractional seconds and a "Z" or "+hh:mm" offset, or integer epoch seconds.
std::optional<TimePoint> ParseIamDate(std::string_view text);
// "2024-01-31T12:00:00Z", what aws:CurrentTime holds.
std::string FormatIso8601(TimePoint time);

}  // namespace st::auth
