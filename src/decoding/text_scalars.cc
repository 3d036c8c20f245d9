#include <array>

#include "common/base64.h"
#include "decoding/text_scalars_internal.h"

namespace st::decoding {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400LL * kMicrosPerSecond;

bool Digits(std::string_view text, size_t pos, size_t count, int* out) {
  if (pos + count > text.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// "YYYY-MM-DD" at text[0..10).
bool ParseDatePart(std::string_view text, int64_t* days) {
  int y = 0, m = 0, d = 0;
  if (text.size() < 10 || text[4] != '-' || text[7] != '-') return false;
  if (!Digits(text, 0, 4, &y) || !Digits(text, 5, 2, &m) || !Digits(text, 8, 2, &d)) return false;
  if (m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) return false;
  *days = DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  return true;
}

// "HH:MM:SS[.f+]" starting at text[pos]; advances pos.
bool ParseTimePart(std::string_view text, size_t* pos, int64_t* micros) {
  int h = 0, mi = 0, s = 0;
  const size_t p = *pos;
  if (p + 8 > text.size() || text[p + 2] != ':' || text[p + 5] != ':') return false;
  if (!Digits(text, p, 2, &h) || !Digits(text, p + 3, 2, &mi) || !Digits(text, p + 6, 2, &s)) {
    return false;
  }
  if (h > 23 || mi > 59 || s > 59) return false;
  size_t i = p + 8;
  int64_t fraction = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    const size_t start = i;
    int64_t scale = 100000;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (scale > 0) fraction += (text[i] - '0') * scale;
      scale /= 10;
      ++i;
    }
    if (i == start) return false;
  }
  *micros = ((h * 60LL + mi) * 60 + s) * kMicrosPerSecond + fraction;
  *pos = i;
  return true;
}

// "Z" / "z" / "±HH:MM" at text[pos..end) → offset seconds east of UTC.
bool ParseOffset(std::string_view text, size_t pos, int64_t* offset_seconds) {
  if (pos == text.size()) return false;
  if (text[pos] == 'Z' || text[pos] == 'z') {
    *offset_seconds = 0;
    return pos + 1 == text.size();
  }
  if (text[pos] != '+' && text[pos] != '-') return false;
  int h = 0, m = 0;
  if (pos + 6 != text.size() || text[pos + 3] != ':') return false;
  if (!Digits(text, pos + 1, 2, &h) || !Digits(text, pos + 4, 2, &m) || h > 23 || m > 59) {
    return false;
  }
  *offset_seconds = (h * 60LL + m) * 60 * (text[pos] == '-' ? -1 : 1);
  return true;
}

// -1 for non-hex characters; a table because uuids are on the hot path.
constexpr auto kHexTable = [] {
  std::array<int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int c = '0'; c <= '9'; ++c) table[c] = static_cast<int8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) table[c] = static_cast<int8_t>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) table[c] = static_cast<int8_t>(c - 'A' + 10);
  return table;
}();

int HexValue(char c) { return kHexTable[static_cast<unsigned char>(c)]; }

}  // namespace

int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day) {
  // Shift the year to start in March so the leap day is the last day of it.
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

bool ParseRfc3339Timestamp(std::string_view text, bool offset_optional, int64_t* micros) {
  int64_t days = 0;
  if (!ParseDatePart(text, &days)) return false;
  if (text.size() < 11 || (text[10] != 'T' && text[10] != 't' && text[10] != ' ')) return false;
  size_t pos = 11;
  int64_t time = 0;
  if (!ParseTimePart(text, &pos, &time)) return false;
  int64_t offset = 0;
  if (pos == text.size()) {
    if (!offset_optional) return false;
  } else if (!ParseOffset(text, pos, &offset)) {
    return false;
  }
  *micros = days * kMicrosPerDay + time - offset * kMicrosPerSecond;
  return true;
}

bool ParseIsoDate(std::string_view text, int32_t* days) {
  int64_t d = 0;
  if (text.size() != 10 || !ParseDatePart(text, &d)) return false;
  *days = static_cast<int32_t>(d);
  return true;
}

bool ParseIsoTime(std::string_view text, int64_t* micros) {
  size_t pos = 0;
  int64_t time = 0;
  if (!ParseTimePart(text, &pos, &time)) return false;
  int64_t offset = 0;
  if (pos != text.size() && !ParseOffset(text, pos, &offset)) return false;
  int64_t utc = (time - offset * kMicrosPerSecond) % kMicrosPerDay;
  if (utc < 0) utc += kMicrosPerDay;
  *micros = utc;
  return true;
}

bool ParseUuidText(std::string_view text, std::string* out) {
  if (text.size() != 36) return false;
  char bytes[16];
  int n = 0;
  for (size_t i = 0; i < 36;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return false;
      ++i;
      continue;
    }
    const int hi = HexValue(text[i]);
    const int lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    bytes[n++] = static_cast<char>(hi << 4 | lo);
    i += 2;
  }
  out->append(bytes, 16);
  return true;
}

bool ParseDecimalText(std::string_view text, int precision, int scale, Int128* unscaled) {
  size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  // Collect the significant digits and where the decimal point falls.
  const size_t int_start = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  const size_t int_end = i;
  if (int_end == int_start) return false;
  if (text[int_start] == '0' && int_end - int_start > 1) return false;  // JSON: no leading zeros.
  size_t frac_start = i, frac_end = i;
  if (i < text.size() && text[i] == '.') {
    frac_start = ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    frac_end = i;
    if (frac_end == frac_start) return false;
  }
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    const size_t exp_start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
      ++i;
    }
    if (i == exp_start) return false;
    if (exp_negative) exponent = -exponent;
  }
  if (i != text.size()) return false;

  // digit k of the concatenated int+frac digits has power 10^(point - 1 - k + exponent).
  Int128 limit = 1;
  for (int p = 0; p < precision; ++p) limit *= 10;
  Int128 value = 0;
  const int64_t int_digits = static_cast<int64_t>(int_end - int_start);
  const int64_t total = int_digits + static_cast<int64_t>(frac_end - frac_start);
  for (int64_t k = 0; k < total; ++k) {
    const char c = k < int_digits ? text[int_start + k] : text[frac_start + (k - int_digits)];
    const int64_t power = int_digits - 1 - k + exponent;  // Of this digit in the value.
    if (power < -scale) {
      if (c != '0') return false;  // Finer than the scale.
      continue;
    }
    const int digit = c - '0';
    if (value > (limit - 1 - digit) / 10) return false;  // Checked first: no overflow.
    value = value * 10 + digit;
  }
  // Scale up for the positions between the last digit taken and 10^-scale.
  const int64_t last_power = int_digits - total + exponent;  // Power of the last digit.
  // A non-zero value passes the limit within precision + 1 steps.
  if (value != 0) {
    for (int64_t p = last_power; p > -scale; --p) {
      if (value > (limit - 1) / 10) return false;
      value *= 10;
    }
  }
  *unscaled = negative ? -value : value;
  return true;
}

}  // namespace st::decoding
