// A generic, schema-less value tree: the row representation shared by the
// format writers (Parquet shredding, Avro encoding) and the table engine
// (partition values, bounds, generated test rows). Its meaning comes from the
// schema it is written with: a date is an Int32 of days, a timestamp an Int64
// of microseconds, a uuid or fixed a Binary, a decimal the unscaled Int128.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace st {

__extension__ typedef __int128 Int128;

class Value {
 public:
  enum class Kind {
    kNull,
    kBool,
    kInt32,
    kInt64,
    kFloat,
    kDouble,
    kDecimal,
    kString,
    kBinary,
    kList,
    kMap,
    kStruct
  };
  using List = std::vector<Value>;
  using Map = std::vector<std::pair<Value, Value>>;
  using Struct = std::vector<Value>;  // Field values in schema order.

  Value() = default;  // Null.
  static Value Null() { return Value(); }
  static Value Bool(bool v) { return Value(Kind::kBool, v); }
  static Value Int32(int32_t v) { return Value(Kind::kInt32, v); }
  static Value Int64(int64_t v) { return Value(Kind::kInt64, v); }
  static Value Float(float v) { return Value(Kind::kFloat, v); }
  static Value Double(double v) { return Value(Kind::kDouble, v); }
  static Value Decimal(Int128 unscaled) { return Value(Kind::kDecimal, unscaled); }
  static Value String(std::string v) { return Value(Kind::kString, std::move(v)); }
  static Value Binary(std::string bytes) { return Value(Kind::kBinary, std::move(bytes)); }
  static Value MakeList(List v) { return Value(Kind::kList, std::move(v)); }
  static Value MakeMap(Map v) { return Value(Kind::kMap, std::move(v)); }
  static Value MakeStruct(Struct v) { return Value(Kind::kStruct, std::move(v)); }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }

  // Accessors; calling the wrong one for kind() is a bug (std::bad_variant_access).
  bool bool_value() const { return std::get<bool>(data_); }
  int32_t int32_value() const { return std::get<int32_t>(data_); }
  int64_t int64_value() const { return std::get<int64_t>(data_); }
  float float_value() const { return std::get<float>(data_); }
  double double_value() const { return std::get<double>(data_); }
  Int128 decimal_value() const { return std::get<Int128>(data_); }
  // String (UTF-8) or Binary bytes.
  const std::string& bytes_value() const { return std::get<std::string>(data_); }
  const List& list_value() const { return std::get<List>(data_); }
  const Map& map_value() const { return std::get<Map>(data_); }
  const Struct& struct_value() const { return std::get<Struct>(data_); }

  friend bool operator==(const Value& a, const Value& b) {
    return a.kind_ == b.kind_ && a.data_ == b.data_;
  }

 private:
  // List and Struct share std::vector<Value>; kind_ tells them apart.
  using Data = std::variant<std::monostate, bool, int32_t, int64_t, float, double, Int128,
                            std::string, std::vector<Value>, Map>;
  template <typename T>
  Value(Kind kind, T&& v) : kind_(kind), data_(std::forward<T>(v)) {}

  Kind kind_ = Kind::kNull;
  Data data_;
};

}  // namespace st
