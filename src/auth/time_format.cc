#include <cstdint>
#include <cstdio>

#include "auth/time_format_internal.h"

namespace st::auth {
namespace {

using std::chrono::days;
using std::chrono::hours;
using std::chrono::minutes;
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

std::optional<TimePoint> FromFields(int year, int month, int day, int hour, int minute,
                                    int second) {
  std::chrono::year_month_day ymd{std::chrono::year(year),
                                  std::chrono::month(static_cast<unsigned>(month)),
                                  std::chrono::day(static_cast<unsigned>(day))};
  if (!ymd.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  return TimePoint(std::chrono::sys_days(ymd).time_since_epoch() + hours(hour) + minutes(minute) +
                   seconds(second));
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
    return TimePoint(seconds(epoch));
  }
  auto y = Digits(text, 0, 4), mo = Digits(text, 5, 2), d = Digits(text, 8, 2);
  if (!y || !mo || !d || text[4] != '-' || text[7] != '-') return std::nullopt;
  if (text.size() == 10) return FromFields(*y, *mo, *d, 0, 0, 0);
  if (text.size() < 19 || (text[10] != 'T' && text[10] != 't') || text[13] != ':' ||
      text[16] != ':') {
    return std::nullopt;
  }
  auto h = Digits(text, 11, 2), mi = Digits(text, 14, 2), s = Digits(text, 17, 2);
  if (!h || !mi || !s) return std::nullopt;
  auto base = FromFields(*y, *mo, *d, *h, *mi, *s);
  if (!base) return std::nullopt;
  size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
  }
  std::string_view zone = text.substr(pos);
  if (zone == "Z" || zone == "z" || zone.empty()) return base;
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') return std::nullopt;
  auto oh = Digits(zone, 1, 2), om = Digits(zone, 4, 2);
  if (!oh || !om) return std::nullopt;
  auto offset = hours(*oh) + minutes(*om);
  return zone[0] == '+' ? *base - offset : *base + offset;
}

}  // namespace st::auth
