#include <cfloat>
#include <cmath>
#include <limits>

#include "cli/builtin_tables.h"
#include "iceberg/types.h"

namespace st::cli {
namespace {

using iceberg::NestedField;
using iceberg::Type;

constexpr int64_t kTs2020 = 1'577'836'800'000'000LL;  // 2020-01-01T00:00:00Z

Int128 Pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

// A random unscaled decimal of at most `precision` digits, either sign.
Int128 RandomDecimal(RowRandom& random, int precision) {
  Int128 limit = Pow10(precision);
  Int128 v = (static_cast<Int128>(random.Next()) << 64) | random.Next();
  if (v < 0) v = -v;
  v %= limit;
  // Bias towards short values too, so bounds are not always near the extremes.
  if (random.OneIn(2)) v %= Pow10(static_cast<int>(random.Uniform(1, precision)));
  return random.OneIn(2) ? -v : v;
}

// Picks a special value with probability 1/4, a null with probability 1/8 (if
// nullable), else `normal`.
template <typename Specials, typename Normal>
Value Pick(RowRandom& random, bool nullable, const Specials& specials, Normal normal) {
  int64_t r = random.Uniform(0, 7);
  if (nullable && r == 0) return Value::Null();
  if (r <= 2 && !specials.empty()) {
    return specials[static_cast<size_t>(
        random.Uniform(0, static_cast<int64_t>(specials.size()) - 1))];
  }
  return normal();
}

std::vector<Value> FloatSpecials() {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  return {Value::Float(std::numeric_limits<float>::quiet_NaN()),
          Value::Float(kInf),
          Value::Float(-kInf),
          Value::Float(-0.0f),
          Value::Float(0.0f),
          Value::Float(FLT_MAX),
          Value::Float(-FLT_MAX),
          Value::Float(std::numeric_limits<float>::denorm_min())};
}

std::vector<Value> DoubleSpecials() {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  return {Value::Double(std::numeric_limits<double>::quiet_NaN()),
          Value::Double(kInf),
          Value::Double(-kInf),
          Value::Double(-0.0),
          Value::Double(0.0),
          Value::Double(DBL_MAX),
          Value::Double(-DBL_MAX),
          Value::Double(std::numeric_limits<double>::denorm_min())};
}

std::vector<Value> DecimalSpecials(int precision) {
  Int128 max = Pow10(precision) - 1;
  return {Value::Decimal(max), Value::Decimal(-max), Value::Decimal(0), Value::Decimal(1),
          Value::Decimal(-1)};
}

std::vector<Value> StringSpecials() {
  std::string all_max;
  for (int i = 0; i < 20; ++i) all_max += "\xF4\x8F\xBF\xBF";  // U+10FFFF: no upper bound.
  return {Value::String(""),
          Value::String("a"),
          Value::String("\xC3\xA9t\xC3\xA9"),                     // "été"
          Value::String("\xF0\x9F\x98\x80"),                      // 😀
          Value::String("abcdefghijklmnopqrstuvwxyz0123456789"),  // > 16 code points
          Value::String("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E text \xF0\x9F\x8E\x89 over sixteen"),
          Value::String(all_max)};
}

Value RandomFloatish(RowRandom& random, bool single) {
  double v =
      (random.UnitDouble() - 0.5) * std::pow(10.0, static_cast<double>(random.Uniform(-3, 6)));
  return single ? Value::Float(static_cast<float>(v)) : Value::Double(v);
}

}  // namespace

Result<BuiltinTable> MakeAllTypesTable() {
  std::vector<NestedField> fields = {
      {1, "id", true, Type::Long()},
      {2, "b", false, Type::Boolean()},
      {3, "i", false, Type::Int()},
      {4, "l", false, Type::Long()},
      {5, "f", false, Type::Float()},
      {6, "d", false, Type::Double()},
      {7, "dec9", false, Type::Decimal(9, 2)},
      {8, "dec18", false, Type::Decimal(18, 6)},
      {9, "dec38", false, Type::Decimal(38, 10)},
      {10, "dt", false, Type::Date()},
      {11, "tm", false, Type::Time()},
      {12, "ts", false, Type::TimestampTz()},
      {13, "ts_ntz", false, Type::Timestamp()},
      {14, "s", false, Type::String()},
      {15, "u", false, Type::Uuid()},
      {16, "fx", false, Type::Fixed(7)},
      {17, "bin", false, Type::Binary()},
      {18, "req_i", true, Type::Int()},
      {19, "req_s", true, Type::String()},
  };
  ST_ASSIGN_OR_RETURN(auto schema, iceberg::Schema::Make(0, std::move(fields)));

  auto make_row = [](RowRandom& r, int64_t index) -> Value {
    static const std::vector<Value> kInts = {Value::Int32(std::numeric_limits<int32_t>::min()),
                                             Value::Int32(std::numeric_limits<int32_t>::max()),
                                             Value::Int32(0), Value::Int32(-1)};
    static const std::vector<Value> kLongs = {Value::Int64(std::numeric_limits<int64_t>::min()),
                                              Value::Int64(std::numeric_limits<int64_t>::max()),
                                              Value::Int64(0), Value::Int64(-1)};
    static const std::vector<Value> kFloats = FloatSpecials();
    static const std::vector<Value> kDoubles = DoubleSpecials();
    static const std::vector<Value> kDec9 = DecimalSpecials(9);
    static const std::vector<Value> kDec18 = DecimalSpecials(18);
    static const std::vector<Value> kDec38 = DecimalSpecials(38);
    // 1969-12-31, 1970-01-01, 1900-01-01, 1582-10-15, 0001-01-01, 9999-12-31.
    static const std::vector<Value> kDates = {Value::Int32(-1),      Value::Int32(0),
                                              Value::Int32(-25567),  Value::Int32(-141427),
                                              Value::Int32(-719162), Value::Int32(2932896)};
    static const std::vector<Value> kTimes = {Value::Int64(0), Value::Int64(kMicrosPerDay - 1)};
    // One µs before the epoch, the epoch, 1900-01-01, 9999-12-31T23:59:59.999999.
    static const std::vector<Value> kTimestamps = {Value::Int64(-1), Value::Int64(0),
                                                   Value::Int64(-2'208'988'800'000'000LL),
                                                   Value::Int64(253'402'300'799'999'999LL)};
    static const std::vector<Value> kStrings = StringSpecials();
    static const std::vector<Value> kUuids = {Value::Binary(std::string(16, '\0')),
                                              Value::Binary(std::string(16, '\xFF'))};
    static const std::vector<Value> kFixed = {Value::Binary(std::string(7, '\0')),
                                              Value::Binary(std::string(7, '\xFF'))};
    static const std::vector<Value> kBinaries = {
        Value::Binary(""), Value::Binary(std::string(1, '\0')),
        Value::Binary(std::string(20, '\xFF')),
        Value::Binary("a longer binary value, well beyond sixteen bytes")};
    static const std::vector<Value> kNone;

    Value::Struct row;
    row.push_back(Value::Int64(index));
    row.push_back(Pick(r, true, kNone, [&] { return Value::Bool(r.OneIn(2)); }));
    row.push_back(Pick(r, true, kInts, [&] {
      return Value::Int32(static_cast<int32_t>(r.Uniform(-1'000'000, 1'000'000)));
    }));
    row.push_back(
        Pick(r, true, kLongs, [&] { return Value::Int64(static_cast<int64_t>(r.Next())); }));
    row.push_back(Pick(r, true, kFloats, [&] { return RandomFloatish(r, true); }));
    row.push_back(Pick(r, true, kDoubles, [&] { return RandomFloatish(r, false); }));
    row.push_back(Pick(r, true, kDec9, [&] { return Value::Decimal(RandomDecimal(r, 9)); }));
    row.push_back(Pick(r, true, kDec18, [&] { return Value::Decimal(RandomDecimal(r, 18)); }));
    row.push_back(Pick(r, true, kDec38, [&] { return Value::Decimal(RandomDecimal(r, 38)); }));
    row.push_back(Pick(r, true, kDates, [&] {
      return Value::Int32(static_cast<int32_t>(r.Uniform(-40'000, 40'000)));
    }));
    row.push_back(
        Pick(r, true, kTimes, [&] { return Value::Int64(r.Uniform(0, kMicrosPerDay - 1)); }));
    // The partition source: rarely special, so day(ts) yields a handful of partitions.
    row.push_back(r.OneIn(16)   ? Value::Null()
                  : r.OneIn(16) ? kTimestamps[static_cast<size_t>(r.Uniform(0, 3))]
                                : Value::Int64(kTs2020 + r.Uniform(0, 5 * kMicrosPerDay - 1)));
    row.push_back(Pick(r, true, kTimestamps, [&] {
      return Value::Int64(r.Uniform(-3'000'000'000'000'000LL, 3'000'000'000'000'000LL));
    }));
    row.push_back(
        Pick(r, true, kStrings, [&] { return Value::String(RandomUnicodeString(r, 30)); }));
    row.push_back(Pick(r, true, kUuids, [&] { return Value::Binary(RandomUuidBytes(r)); }));
    row.push_back(Pick(r, true, kFixed, [&] { return Value::Binary(RandomBytes(r, 7)); }));
    row.push_back(Pick(r, true, kBinaries, [&] {
      return Value::Binary(RandomBytes(r, static_cast<int>(r.Uniform(0, 40))));
    }));
    row.push_back(Pick(r, false, kInts,
                       [&] { return Value::Int32(static_cast<int32_t>(r.Uniform(-100, 100))); }));
    row.push_back(Value::String(RandomUnicodeString(r, 24)));
    return Value::MakeStruct(std::move(row));
  };
  return BuiltinTable{std::move(schema), make_row};
}

}  // namespace st::cli
