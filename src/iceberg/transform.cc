#include "iceberg/transform.h"

#include <charconv>
#include <optional>

#include "iceberg/calendar_internal.h"
#include "iceberg/conversions_internal.h"

namespace st::iceberg {

namespace {

using internal::CivilFromDays;
using internal::FloorDiv;
using internal::kMicrosPerDay;
using internal::kMicrosPerHour;

struct NamedKind {
  const char* name;
  Transform::Kind kind;
};
constexpr NamedKind kPlainKinds[] = {
    {"identity", Transform::Kind::kIdentity}, {"year", Transform::Kind::kYear},
    {"month", Transform::Kind::kMonth},       {"day", Transform::Kind::kDay},
    {"hour", Transform::Kind::kHour},         {"void", Transform::Kind::kVoid},
};

// Parses "<prefix>[<positive int>]"; nullopt when the prefix does not match.
std::optional<Result<int32_t>> ParseParam(const std::string& text, const std::string& prefix) {
  if (text.size() < prefix.size() + 3 || text.compare(0, prefix.size() + 1, prefix + "[") != 0 ||
      text.back() != ']') {
    return std::nullopt;
  }
  const char* begin = text.data() + prefix.size() + 1;
  const char* end = text.data() + text.size() - 1;
  int32_t n = 0;
  auto [ptr, ec] = std::from_chars(begin, end, n);
  if (ec != std::errc() || ptr != end || n <= 0) {
    return Result<int32_t>(Err(InvalidArgument("invalid transform '" + text + "': " + prefix +
                                               " needs a positive 32-bit integer")));
  }
  return Result<int32_t>(n);
}

bool IsTimeLike(TypeId id) {
  return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz;
}

// Truncates to `width` Unicode code points: a code point starts at every
// byte that is not a UTF-8 continuation byte (10xxxxxx).
std::string TruncateUtf8(const std::string& s, int32_t width) {
  int32_t seen = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<uint8_t>(s[i]) & 0xC0) != 0x80) {
      if (seen == width) return s.substr(0, i);
      ++seen;
    }
  }
  return s;
}

// v - (((v % W) + W) % W); the remainder is computed in a type wide enough
// not to overflow, the subtraction wraps as in Java.
template <typename T, typename U, typename Wide>
T TruncateInteger(T v, int32_t width) {
  const Wide w = width;
  const Wide rem = ((static_cast<Wide>(v) % w) + w) % w;
  return static_cast<T>(static_cast<U>(v) - static_cast<U>(rem));
}

int64_t DaysOf(TypeId source, const Value& v) {
  return source == TypeId::kDate ? v.int32_value() : FloorDiv(v.int64_value(), kMicrosPerDay);
}

}  // namespace

Result<Transform> Transform::Parse(const std::string& text) {
  for (const auto& [name, kind] : kPlainKinds) {
    if (text == name) return Transform(kind, 0);
  }
  if (auto n = ParseParam(text, "bucket")) {
    ST_ASSIGN_OR_RETURN(int32_t count, *n);
    return Bucket(count);
  }
  if (auto w = ParseParam(text, "truncate")) {
    ST_ASSIGN_OR_RETURN(int32_t width, *w);
    return Truncate(width);
  }
  return Err(InvalidArgument("unknown partition transform '" + text +
                             "'; expected identity, bucket[N], truncate[W], year, month, day, "
                             "hour or void"));
}

std::string Transform::ToString() const {
  switch (kind_) {
    case Kind::kBucket:
      return "bucket[" + std::to_string(param_) + "]";
    case Kind::kTruncate:
      return "truncate[" + std::to_string(param_) + "]";
    default:
      for (const auto& [name, kind] : kPlainKinds) {
        if (kind == kind_) return name;
      }
  }
  return "unknown";
}

std::string Transform::DefaultNameSuffix() const {
  switch (kind_) {
    case Kind::kIdentity:
      return "";
    case Kind::kBucket:
      return "bucket";
    case Kind::kTruncate:
      return "trunc";
    case Kind::kVoid:
      return "null";
    default:
      return ToString();
  }
}

bool Transform::CanTransform(const Type& source) const {
  const TypeId id = source.id();
  switch (kind_) {
    case Kind::kIdentity:
      return source.is_primitive();
    case Kind::kVoid:
      return true;
    case Kind::kBucket:
      return source.is_primitive() && id != TypeId::kBoolean && id != TypeId::kFloat &&
             id != TypeId::kDouble;
    case Kind::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal ||
             id == TypeId::kString || id == TypeId::kBinary;
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay:
      return IsTimeLike(id);
    case Kind::kHour:
      return id == TypeId::kTimestamp || id == TypeId::kTimestampTz;
  }
  return false;
}

TypePtr Transform::ResultType(const TypePtr& source) const {
  switch (kind_) {
    case Kind::kBucket:
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kHour:
      return Type::Int();
    case Kind::kDay:
      return Type::Date();
    default:
      return source;
  }
}

Result<Value> Transform::Apply(const Type& source, const Value& value) const {
  if (!CanTransform(source)) {
    return Err(InvalidArgument("transform " + ToString() + " cannot be applied to type " +
                               source.ToString()));
  }
  if (value.is_null() || kind_ == Kind::kVoid) return Value::Null();
  const TypeId id = source.id();
  auto mismatch = [&]() {
    return Err(InvalidArgument("transform " + ToString() + ": value does not match source type " +
                               source.ToString()));
  };
  switch (kind_) {
    case Kind::kIdentity:
      return value;
    case Kind::kBucket: {
      ST_ASSIGN_OR_RETURN(int32_t hash, BucketHash(source, value));
      return Value::Int32((hash & 0x7fffffff) % param_);
    }
    case Kind::kTruncate:
      if (id == TypeId::kInt) {
        if (value.kind() != Value::Kind::kInt32) return mismatch();
        return Value::Int32(
            TruncateInteger<int32_t, uint32_t, int64_t>(value.int32_value(), param_));
      }
      if (id == TypeId::kLong) {
        if (value.kind() != Value::Kind::kInt64) return mismatch();
        return Value::Int64(
            TruncateInteger<int64_t, uint64_t, Int128>(value.int64_value(), param_));
      }
      if (id == TypeId::kDecimal) {
        if (value.kind() != Value::Kind::kDecimal) return mismatch();
        return Value::Decimal(
            TruncateInteger<Int128, internal::UInt128, Int128>(value.decimal_value(), param_));
      }
      if (id == TypeId::kString) {
        if (value.kind() != Value::Kind::kString) return mismatch();
        return Value::String(TruncateUtf8(value.bytes_value(), param_));
      }
      if (value.kind() != Value::Kind::kBinary) return mismatch();
      return Value::Binary(value.bytes_value().substr(
          0, std::min<size_t>(value.bytes_value().size(), static_cast<size_t>(param_))));
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay: {
      const Value::Kind want = id == TypeId::kDate ? Value::Kind::kInt32 : Value::Kind::kInt64;
      if (value.kind() != want) return mismatch();
      const int64_t days = DaysOf(id, value);
      if (kind_ == Kind::kDay) return Value::Int32(static_cast<int32_t>(days));
      const auto civil = CivilFromDays(days);
      const int64_t years = civil.year - 1970;
      if (kind_ == Kind::kYear) return Value::Int32(static_cast<int32_t>(years));
      return Value::Int32(static_cast<int32_t>(years * 12 + civil.month - 1));
    }
    case Kind::kHour:
      if (value.kind() != Value::Kind::kInt64) return mismatch();
      return Value::Int32(static_cast<int32_t>(FloorDiv(value.int64_value(), kMicrosPerHour)));
    case Kind::kVoid:
      break;
  }
  return Value::Null();
}

}  // namespace st::iceberg
