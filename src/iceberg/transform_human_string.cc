// Human-readable partition values for file paths. The forms follow PyIceberg
// (Python isoformat, str(Decimal), repr(float)); for the time transforms they
// are also Java's (yyyy, yyyy-MM, yyyy-MM-dd, yyyy-MM-dd-HH).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/base64.h"
#include "common/uuid.h"
#include "iceberg/calendar_internal.h"
#include "iceberg/conversions_internal.h"
#include "iceberg/transform.h"

namespace st::iceberg {

namespace {

using internal::CivilFromDays;
using internal::FloorDiv;
using internal::FloorMod;

// Zero-padded to `width` characters including a leading '-' (Java "%04d",
// Python "{:0=4d}").
std::string PadNumber(int64_t v, int width) {
  const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits = std::to_string(magnitude);
  if (v < 0) {
    while (static_cast<int>(digits.size()) + 1 < width) digits.insert(0, "0");
    return "-" + digits;
  }
  while (static_cast<int>(digits.size()) < width) digits.insert(0, "0");
  return digits;
}

std::string HumanDay(int64_t days) {
  const auto c = CivilFromDays(days);
  return PadNumber(c.year, 4) + "-" + PadNumber(c.month, 2) + "-" + PadNumber(c.day, 2);
}

// HH:MM:SS, with .ffffff only when the microseconds are non-zero.
std::string HumanTimeOfDay(int64_t micros_of_day) {
  const int64_t seconds = micros_of_day / 1'000'000;
  const int64_t micros = micros_of_day % 1'000'000;
  std::string out = PadNumber(seconds / 3600, 2) + ":" + PadNumber(seconds / 60 % 60, 2) + ":" +
                    PadNumber(seconds % 60, 2);
  if (micros != 0) out += "." + PadNumber(micros, 6);
  return out;
}

std::string HumanTimestamp(int64_t micros) {
  const int64_t days = FloorDiv(micros, internal::kMicrosPerDay);
  return HumanDay(days) + "T" + HumanTimeOfDay(FloorMod(micros, internal::kMicrosPerDay));
}

std::string Int128ToString(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  // Work on the magnitude as unsigned so the most negative value is safe.
  internal::UInt128 mag = negative ? -static_cast<internal::UInt128>(v) : v;
  std::string digits;
  while (mag != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

// BigDecimal.toString / str(Decimal): plain unless the adjusted exponent is
// below -6, then scientific ("1E-10").
std::string HumanDecimal(Int128 unscaled, int scale) {
  std::string digits = Int128ToString(unscaled);
  std::string sign;
  if (digits[0] == '-') {
    sign = "-";
    digits.erase(0, 1);
  }
  const int64_t adjusted = static_cast<int64_t>(digits.size()) - 1 - scale;
  if (scale == 0) return sign + digits;
  if (adjusted >= -6) {
    if (static_cast<int64_t>(digits.size()) > scale) {
      return sign + digits.substr(0, digits.size() - scale) + "." +
             digits.substr(digits.size() - scale);
    }
    return sign + "0." + std::string(scale - digits.size(), '0') + digits;
  }
  std::string mantissa = digits.substr(0, 1);
  if (digits.size() > 1) mantissa += "." + digits.substr(1);
  return sign + mantissa + "E" + std::to_string(adjusted);
}

// Python repr(float): shortest round-trip digits; fixed notation when the
// decimal exponent is in [-4, 16), else d.ddde±XX.
std::string HumanDouble(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const size_t e_pos = sci.find('e');
  std::string digits = sci.substr(0, e_pos);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exponent = std::atoi(sci.c_str() + e_pos + 1);
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return sign + "0." + std::string(-exponent - 1, '0') + digits;
    if (static_cast<int>(digits.size()) <= exponent + 1) {
      return sign + digits + std::string(exponent + 1 - digits.size(), '0') + ".0";
    }
    return sign + digits.substr(0, exponent + 1) + "." + digits.substr(exponent + 1);
  }
  std::string mantissa = digits.substr(0, 1);
  if (digits.size() > 1) mantissa += "." + digits.substr(1);
  return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + PadNumber(std::abs(exponent), 2);
}

std::string HumanValue(const Type& type, const Value& v) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return v.bool_value() ? "true" : "false";
    case TypeId::kInt:
      return std::to_string(v.int32_value());
    case TypeId::kLong:
      return std::to_string(v.int64_value());
    case TypeId::kFloat:
      return HumanDouble(v.float_value());
    case TypeId::kDouble:
      return HumanDouble(v.double_value());
    case TypeId::kDecimal:
      return HumanDecimal(v.decimal_value(), type.scale());
    case TypeId::kDate:
      return HumanDay(v.int32_value());
    case TypeId::kTime:
      return HumanTimeOfDay(v.int64_value());
    case TypeId::kTimestamp:
      return HumanTimestamp(v.int64_value());
    case TypeId::kTimestampTz:
      return HumanTimestamp(v.int64_value()) + "+00:00";
    case TypeId::kString:
      return v.bytes_value();
    case TypeId::kUuid:
      if (v.bytes_value().size() == 16) {
        Uuid uuid;
        std::copy(v.bytes_value().begin(), v.bytes_value().end(), uuid.bytes.begin());
        return uuid.ToString();
      }
      return common::Base64Encode(v.bytes_value());
    default:
      return common::Base64Encode(v.bytes_value());
  }
}

}  // namespace

std::string Transform::ToHumanString(const Type& result_type, const Value& value) const {
  if (value.is_null() || kind_ == Kind::kVoid) return "null";
  switch (kind_) {
    case Kind::kYear:
      return PadNumber(1970 + static_cast<int64_t>(value.int32_value()), 4);
    case Kind::kMonth: {
      const int64_t months = value.int32_value();
      return PadNumber(1970 + FloorDiv(months, 12), 4) + "-" +
             PadNumber(FloorMod(months, 12) + 1, 2);
    }
    case Kind::kDay:
      return HumanDay(value.int32_value());
    case Kind::kHour: {
      const int64_t hours = value.int32_value();
      return HumanDay(FloorDiv(hours, 24)) + "-" + PadNumber(FloorMod(hours, 24), 2);
    }
    case Kind::kBucket:
      return std::to_string(value.int32_value());
    default:
      return HumanValue(result_type, value);
  }
}

}  // namespace st::iceberg
