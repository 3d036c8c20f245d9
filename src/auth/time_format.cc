#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "auth/time_format_internal.h"

namespace st::auth {
namespace {

using std::chrono::days;
using std::chrono::seconds;

// Reads exactly `width` decimal digits at `pos`.
std::optional<int> Digits(std::string_view text, size_t pos, size_t width) {
  if (pos + width > text.size()) return std::nullopt;
  int value = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// TimePoint counts nanoseconds in 64 bits (years 1677-2262). Times are
// computed in seconds first and must lie a year inside that range, so that
// what callers add (skew, X-Amz-Expires) cannot overflow either.
constexpr int64_t kSecondsPerYear = int64_t{366} * 86400;
const int64_t kMaxSeconds =
    std::chrono::duration_cast<seconds>(TimePoint::max().time_since_epoch()).count() -
    kSecondsPerYear;
const int64_t kMinSeconds =
    std::chrono::duration_cast<seconds>(TimePoint::min().time_since_epoch()).count() +
    kSecondsPerYear;

// Seconds since the epoch; nullopt for an invalid date or time of day.
std::optional<int64_t> SecondsFromFields(int year, int month, int day, int hour, int minute,
                                         int second) {
  std::chrono::year_month_day ymd{std::chrono::year(year),
                                  std::chrono::month(static_cast<unsigned>(month)),
                                  std::chrono::day(static_cast<unsigned>(day))};
  if (!ymd.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  int64_t days_since_epoch = std::chrono::sys_days(ymd).time_since_epoch().count();
  return days_since_epoch * 86400 + int64_t{hour} * 3600 + int64_t{minute} * 60 + second;
}

// nullopt outside the representable range (no client signs such a date).
std::optional<TimePoint> FromFields(int year, int month, int day, int hour, int minute,
                                    int second) {
  auto secs = SecondsFromFields(year, month, day, hour, minute, second);
  if (!secs || *secs < kMinSeconds || *secs > kMaxSeconds) return std::nullopt;
  return TimePoint(seconds(*secs));
}

// Clamped into the representable range: an IAM date such as 9999-12-31
// still compares later than any request time.
TimePoint ClampedFromSeconds(int64_t secs) {
  return TimePoint(seconds(std::clamp(secs, kMinSeconds, kMaxSeconds)));
}

struct Fields {
  int year, month, day, hour, minute, second;
};

Fields Split(TimePoint time) {
  auto secs = std::chrono::floor<seconds>(time);
  auto day_point = std::chrono::floor<days>(secs);
  std::chrono::year_month_day ymd{day_point};
  std::chrono::hh_mm_ss hms{secs - day_point};
  return {static_cast<int>(ymd.year()),
          static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(static_cast<unsigned>(ymd.day())),
          static_cast<int>(hms.hours().count()),
          static_cast<int>(hms.minutes().count()),
          static_cast<int>(hms.seconds().count())};
}

}  // namespace

std::optional<TimePoint> ParseAmzDate(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  auto y = Digits(text, 0, 4), mo = Digits(text, 4, 2), d = Digits(text, 6, 2);
  auto h = Digits(text, 9, 2), mi = Digits(text, 11, 2), s = Digits(text, 13, 2);
  if (!y || !mo || !d || !h || !mi || !s) return std::nullopt;
  return FromFields(*y, *mo, *d, *h, *mi, *s);
}

std::string FormatAmzDate(TimePoint time) {
  Fields f = Split(time);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%04d%02d%02dT%02d%02d%02dZ", f.year, f.month, f.day, f.hour,
                f.minute, f.second);
  return buf;
}

std::string FormatIso8601(TimePoint time) {
  Fields f = Split(time);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02dZ", f.year, f.month, f.day, f.hour,
                f.minute, f.second);
  return buf;
}

std::optional<TimePoint> ParseHttpDate(std::string_view text) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": fixed width, 29 characters.
  static constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (text.size() != 29 || text[3] != ',' || text.substr(26) != "GMT") return std::nullopt;
  auto d = Digits(text, 5, 2), y = Digits(text, 12, 4);
  auto h = Digits(text, 17, 2), mi = Digits(text, 20, 2), s = Digits(text, 23, 2);
  size_t month_at = kMonths.find(text.substr(8, 3));
  if (!d || !y || !h || !mi || !s || month_at == std::string_view::npos || month_at % 3 != 0) {
    return std::nullopt;
  }
  return FromFields(*y, static_cast<int>(month_at / 3) + 1, *d, *h, *mi, *s);
}

std::optional<TimePoint> ParseIamDate(std::string_view text) {
  if (text.empty()) return std::nullopt;
  bool all_digits = true;
  for (char c : text) all_digits = all_digits && c >= '0' && c <= '9';
  if (all_digits) {
    if (text.size() > 12) return std::nullopt;
    int64_t epoch = 0;
    for (char c : text) epoch = epoch * 10 + (c - '0');
    return ClampedFromSeconds(epoch);
  }
  auto y = Digits(text, 0, 4), mo = Digits(text, 5, 2), d = Digits(text, 8, 2);
  if (!y || !mo || !d || text[4] != '-' || text[7] != '-') return std::nullopt;
  if (text.size() == 10) {
    auto date = SecondsFromFields(*y, *mo, *d, 0, 0, 0);
    if (!date) return std::nullopt;
    return ClampedFromSeconds(*date);
  }
  if (text.size() < 19 || (text[10] != 'T' && text[10] != 't') || text[13] != ':' ||
      text[16] != ':') {
    return std::nullopt;
  }
  auto h = Digits(text, 11, 2), mi = Digits(text, 14, 2), s = Digits(text, 17, 2);
  if (!h || !mi || !s) return std::nullopt;
  auto base = SecondsFromFields(*y, *mo, *d, *h, *mi, *s);
  if (!base) return std::nullopt;
  size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
  }
  std::string_view zone = text.substr(pos);
  if (zone == "Z" || zone == "z" || zone.empty()) return ClampedFromSeconds(*base);
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') return std::nullopt;
  auto oh = Digits(zone, 1, 2), om = Digits(zone, 4, 2);
  if (!oh || !om) return std::nullopt;
  int64_t offset = int64_t{*oh} * 3600 + int64_t{*om} * 60;
  return ClampedFromSeconds(zone[0] == '+' ? *base - offset : *base + offset);
}

}  // namespace st::auth
