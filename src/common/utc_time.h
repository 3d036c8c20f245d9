// Wall-clock time as the AWS wire formats and our logs spell it.
#pragma once

#include <chrono>
#include <string>

namespace st {

// ISO-8601 UTC with milliseconds, "2026-11-30T04:30:00.123Z". Sub-millisecond
// parts are dropped toward the past, so times before 1970 format correctly
// ("1969-12-31T23:59:59.999Z" for -1 ms).
std::string FormatUtcMillis(std::chrono::system_clock::time_point time);

}  // namespace st
