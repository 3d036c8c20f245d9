#include "iceberg/conversions.h"

#include <bit>
#include <cmath>
#include <cstring>

#include "iceberg/conversions_internal.h"

namespace st::iceberg {

namespace internal {

std::string DecimalToMinimalBytes(Int128 unscaled) {
  std::string bytes;
  // Emit bytes least significant first until the remaining value is pure sign
  // extension of the last emitted byte's top bit.
  Int128 v = unscaled;
  while (true) {
    uint8_t low = static_cast<uint8_t>(static_cast<UInt128>(v) & 0xff);
    bytes.push_back(static_cast<char>(low));
    v >>= 8;  // Arithmetic shift: GCC defines it for signed types.
    const bool sign_bit = (low & 0x80) != 0;
    if ((v == 0 && !sign_bit) || (v == -1 && sign_bit)) break;
  }
  return std::string(bytes.rbegin(), bytes.rend());
}

Result<Int128> DecimalFromBytes(std::string_view bytes) {
  if (bytes.empty() || bytes.size() > 16) {
    return Err(Corruption("decimal value has " + std::to_string(bytes.size()) +
                          " bytes; expected 1..16 big-endian bytes"));
  }
  UInt128 acc = (static_cast<uint8_t>(bytes[0]) & 0x80) ? ~static_cast<UInt128>(0) : 0;
  for (char c : bytes) acc = (acc << 8) | static_cast<uint8_t>(c);
  return static_cast<Int128>(acc);
}

}  // namespace internal

namespace {

template <typename T>
std::string LittleEndian(T v) {
  static_assert(std::endian::native == std::endian::little, "big-endian hosts are not supported");
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

template <typename T>
T FromLittleEndian(std::string_view bytes) {
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

bool KindMatches(const Type& type, Value::Kind kind) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return kind == Value::Kind::kBool;
    case TypeId::kInt:
    case TypeId::kDate:
      return kind == Value::Kind::kInt32;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return kind == Value::Kind::kInt64;
    case TypeId::kFloat:
      return kind == Value::Kind::kFloat;
    case TypeId::kDouble:
      return kind == Value::Kind::kDouble;
    case TypeId::kDecimal:
      return kind == Value::Kind::kDecimal;
    case TypeId::kString:
      return kind == Value::Kind::kString;
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return kind == Value::Kind::kBinary;
    default:
      return false;
  }
}

Status WrongLength(const Type& type, size_t got, const char* expected) {
  return Corruption("single-value bytes for " + type.ToString() + " have length " +
                    std::to_string(got) + "; expected " + expected);
}

template <typename T>
int ThreeWay(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Java's Float/Double.compareTo order: -0.0 < 0.0 and NaN above everything.
template <typename F>
int CompareFloating(F a, F b) {
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return ThreeWay(a_nan, b_nan);
  if (a == b) return ThreeWay(std::signbit(b), std::signbit(a));
  return ThreeWay(a, b);
}

}  // namespace

bool ValueMatchesType(const Type& type, const Value& value) {
  return KindMatches(type, value.kind());
}

Result<std::string> ToSingleValueBytes(const Type& type, const Value& value) {
  if (!type.is_primitive()) {
    return Err(InvalidArgument("single-value serialization is defined for primitives only, not " +
                               type.ToString()));
  }
  if (value.is_null()) {
    return Err(
        InvalidArgument("cannot serialize a null " + type.ToString() + " as a single value"));
  }
  if (!KindMatches(type, value.kind())) {
    return Err(InvalidArgument("value kind does not match Iceberg type " + type.ToString()));
  }
  switch (type.id()) {
    case TypeId::kBoolean:
      return std::string(1, value.bool_value() ? '\x01' : '\x00');
    case TypeId::kInt:
    case TypeId::kDate:
      return LittleEndian(value.int32_value());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return LittleEndian(value.int64_value());
    case TypeId::kFloat:
      return LittleEndian(value.float_value());
    case TypeId::kDouble:
      return LittleEndian(value.double_value());
    case TypeId::kDecimal:
      return internal::DecimalToMinimalBytes(value.decimal_value());
    case TypeId::kUuid:
      if (value.bytes_value().size() != 16) {
        return Err(InvalidArgument("uuid value must be 16 bytes, got " +
                                   std::to_string(value.bytes_value().size())));
      }
      return value.bytes_value();
    default:  // string, fixed, binary
      return value.bytes_value();
  }
}

Result<Value> FromSingleValueBytes(const Type& type, std::string_view bytes) {
  switch (type.id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return Err(WrongLength(type, bytes.size(), "1"));
      return Value::Bool(bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      if (bytes.size() != 4) return Err(WrongLength(type, bytes.size(), "4"));
      return Value::Int32(FromLittleEndian<int32_t>(bytes));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      // A long column promoted from int may still carry 4-byte bounds.
      if (type.id() == TypeId::kLong && bytes.size() == 4) {
        return Value::Int64(FromLittleEndian<int32_t>(bytes));
      }
      if (bytes.size() != 8) return Err(WrongLength(type, bytes.size(), "8"));
      return Value::Int64(FromLittleEndian<int64_t>(bytes));
    case TypeId::kFloat:
      if (bytes.size() != 4) return Err(WrongLength(type, bytes.size(), "4"));
      return Value::Float(FromLittleEndian<float>(bytes));
    case TypeId::kDouble:
      // Likewise for double promoted from float.
      if (bytes.size() == 4) return Value::Double(FromLittleEndian<float>(bytes));
      if (bytes.size() != 8) return Err(WrongLength(type, bytes.size(), "8"));
      return Value::Double(FromLittleEndian<double>(bytes));
    case TypeId::kDecimal: {
      ST_ASSIGN_OR_RETURN(Int128 unscaled, internal::DecimalFromBytes(bytes));
      return Value::Decimal(unscaled);
    }
    case TypeId::kString:
      return Value::String(std::string(bytes));
    case TypeId::kUuid:
      if (bytes.size() != 16) return Err(WrongLength(type, bytes.size(), "16"));
      return Value::Binary(std::string(bytes));
    case TypeId::kFixed:
      if (static_cast<int64_t>(bytes.size()) != type.fixed_length()) {
        return Err(WrongLength(type, bytes.size(), std::to_string(type.fixed_length()).c_str()));
      }
      return Value::Binary(std::string(bytes));
    case TypeId::kBinary:
      return Value::Binary(std::string(bytes));
    default:
      return Err(InvalidArgument("single-value serialization is defined for primitives only, not " +
                                 type.ToString()));
  }
}

int CompareValues(const Type& type, const Value& a, const Value& b) {
  ST_CHECK(KindMatches(type, a.kind()) && KindMatches(type, b.kind()));
  switch (a.kind()) {
    case Value::Kind::kBool:
      return ThreeWay(a.bool_value(), b.bool_value());
    case Value::Kind::kInt32:
      return ThreeWay(a.int32_value(), b.int32_value());
    case Value::Kind::kInt64:
      return ThreeWay(a.int64_value(), b.int64_value());
    case Value::Kind::kFloat:
      return CompareFloating(a.float_value(), b.float_value());
    case Value::Kind::kDouble:
      return CompareFloating(a.double_value(), b.double_value());
    case Value::Kind::kDecimal:
      return ThreeWay(a.decimal_value(), b.decimal_value());
    default: {
      // std::string compares chars, which are signed here; compare as unsigned bytes.
      const std::string& x = a.bytes_value();
      const std::string& y = b.bytes_value();
      const size_t n = std::min(x.size(), y.size());
      const int c = n == 0 ? 0 : std::memcmp(x.data(), y.data(), n);
      if (c != 0) return c < 0 ? -1 : 1;
      return ThreeWay(x.size(), y.size());
    }
  }
}

}  // namespace st::iceberg
