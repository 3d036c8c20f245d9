#include <algorithm>
#include <cstdio>
#include <ctime>
#include <limits>

#include "api/s3/object_headers_internal.h"

namespace st::api::s3 {

namespace {

// A non-empty run of digits that fits int64; nullopt otherwise.
std::optional<int64_t> ParseCount(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::tm Utc(std::chrono::system_clock::time_point time) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm;
}

}  // namespace

Result<std::optional<ByteRange>> ResolveRange(std::optional<std::string_view> header,
                                              int64_t size) {
  if (!header.has_value()) return std::optional<ByteRange>();
  std::string_view spec = Trim(*header);
  constexpr std::string_view kUnit = "bytes=";
  if (spec.substr(0, kUnit.size()) != kUnit) return std::optional<ByteRange>();
  spec = Trim(spec.substr(kUnit.size()));
  if (spec.find(',') != std::string_view::npos) return std::optional<ByteRange>();
  size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return std::optional<ByteRange>();
  std::string_view first_text = Trim(spec.substr(0, dash));
  std::string_view last_text = Trim(spec.substr(dash + 1));
  if (first_text.empty()) {
    std::optional<int64_t> suffix = ParseCount(last_text);
    if (!suffix.has_value()) return std::optional<ByteRange>();
    if (*suffix == 0 || size == 0) {
      return Err(FailedPrecondition("range " + std::string(spec) + " selects no bytes"));
    }
    int64_t length = std::min(*suffix, size);
    return std::optional<ByteRange>(ByteRange{size - length, length});
  }
  std::optional<int64_t> first = ParseCount(first_text);
  if (!first.has_value()) return std::optional<ByteRange>();
  int64_t last = size - 1;
  if (!last_text.empty()) {
    std::optional<int64_t> parsed = ParseCount(last_text);
    if (!parsed.has_value() || *parsed < *first) return std::optional<ByteRange>();
    last = std::min(*parsed, size - 1);
  }
  if (*first >= size) {
    return Err(FailedPrecondition("range " + std::string(spec) + " starts beyond the object"));
  }
  return std::optional<ByteRange>(ByteRange{*first, last - *first + 1});
}

std::string HttpDate(std::chrono::system_clock::time_point time) {
  std::tm tm = Utc(time);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buffer;
}

std::optional<std::chrono::system_clock::time_point> ParseHttpDate(std::string_view text) {
  std::tm tm{};
  std::string copy(Trim(text));
  const char* end = strptime(copy.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  std::time_t seconds = timegm(&tm);
  // system_clock counts nanoseconds in 64 bits (years 1678-2261): a date
  // outside that (year 202, 9999) is not one we can compare with.
  constexpr std::time_t kLimit = std::numeric_limits<int64_t>::max() / 1000000000 - 366 * 86400;
  if (seconds == static_cast<std::time_t>(-1) || seconds > kLimit || seconds < -kLimit) {
    return std::nullopt;
  }
  return std::chrono::system_clock::from_time_t(seconds);
}

}  // namespace st::api::s3
