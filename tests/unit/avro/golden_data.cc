#include "golden_data.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

namespace st::avro::testing {
namespace {

using Json = nlohmann::ordered_json;

const char* kEverythingSchema = R"json({
  "type": "record", "name": "everything", "namespace": "st.test", "doc": "every Avro type",
  "st-custom": {"nested": [1, 2, "three"]},
  "fields": [
    {"name": "null_field", "type": "null"},
    {"name": "bool_field", "type": "boolean", "field-id": 1},
    {"name": "int_field", "type": "int", "field-id": 2, "doc": "an int"},
    {"name": "long_field", "type": "long", "field-id": 3},
    {"name": "float_field", "type": "float", "field-id": 4},
    {"name": "double_field", "type": "double", "field-id": 5},
    {"name": "bytes_field", "type": "bytes", "field-id": 6},
    {"name": "string_field", "type": "string", "field-id": 7},
    {"name": "date_field", "type": {"type": "int", "logicalType": "date"}, "field-id": 8},
    {"name": "time_field", "type": {"type": "long", "logicalType": "time-micros"}, "field-id": 9},
    {"name": "ts_field", "type": {"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": false}, "field-id": 10},
    {"name": "tstz_field", "type": {"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": true}, "field-id": 11},
    {"name": "uuid_field", "type": {"type": "fixed", "name": "uuid_fixed", "size": 16, "logicalType": "uuid"}, "field-id": 12},
    {"name": "decimal_fixed", "type": {"type": "fixed", "name": "decimal_9_2", "size": 4, "logicalType": "decimal", "precision": 9, "scale": 2}, "field-id": 13},
    {"name": "decimal_bytes", "type": {"type": "bytes", "logicalType": "decimal", "precision": 38, "scale": 3}, "field-id": 14},
    {"name": "enum_field", "type": {"type": "enum", "name": "color", "symbols": ["RED", "GREEN", "BLUE"]}, "field-id": 15},
    {"name": "fixed_field", "type": {"type": "fixed", "name": "three", "size": 3}, "field-id": 16},
    {"name": "int_array", "type": {"type": "array", "items": "int", "element-id": 17}, "field-id": 18},
    {"name": "string_map", "type": {"type": "map", "values": ["null", "long"], "key-id": 19, "value-id": 20}, "field-id": 21},
    {"name": "int_map", "type": ["null", {"type": "array", "logicalType": "map", "items": {
        "type": "record", "name": "k117_v118", "fields": [
          {"name": "key", "type": "int", "field-id": 117},
          {"name": "value", "type": "long", "field-id": 118}]}}], "default": null, "field-id": 108},
    {"name": "nested", "type": {"type": "record", "name": "inner", "fields": [
        {"name": "a", "type": ["null", "string"], "default": null, "field-id": 31},
        {"name": "b", "type": {"type": "array", "element-id": 33, "items": {"type": "record", "name": "leaf", "namespace": "st.other", "fields": [
            {"name": "x", "type": "int", "field-id": 34},
            {"name": "y", "type": ["null", "double"], "default": null, "field-id": 35},
            {"name": "z", "type": ["null", "string"], "default": null, "field-id": 36}]}}, "field-id": 32}]}, "field-id": 30},
    {"name": "optional_long", "type": ["null", "long"], "default": null, "field-id": 40},
    {"name": "union_multi", "type": ["null", "string", "long", "inner", "st.other.leaf"], "field-id": 41},
    {"name": "deep", "type": {"type": "array", "items": {"type": "map", "values": {"type": "array", "items": "string"}}}, "field-id": 42},
    {"name": "empty", "type": {"type": "record", "name": "empty_record", "fields": []}, "field-id": 43},
    {"name": "color_again", "type": "color", "field-id": 44}
  ]
})json";

Value Bin(std::string s) { return Value::Binary(std::move(s)); }
Value Str(std::string s) { return Value::String(std::move(s)); }

// Three fields, so a union can tell it from "inner" (two).
Value Leaf(int32_t x, Value y) {
  return Value::MakeStruct({Value::Int32(x), std::move(y), Value::String("z")});
}

Value Inner(Value a, Value::List leaves) {
  return Value::MakeStruct({std::move(a), Value::MakeList(std::move(leaves))});
}

struct Parts {
  bool b = false;
  int32_t i = 0;
  int64_t l = 0;
  float f = 0;
  double d = 0;
  std::string bytes;
  std::string str;
  int32_t date = 0;
  int64_t time = 0, ts = 0, tstz = 0;
  std::string uuid = std::string(16, '\0');
  Int128 dec_fixed = 0, dec_bytes = 0;
  Value enum_value = Str("RED");
  std::string fixed = "abc";
  Value::List ints;
  Value::Map string_map;
  Value int_map;
  Value nested = Inner(Value::Null(), {});
  Value optional_long;
  Value union_multi;
  Value::List deep;
  Value color_again = Str("BLUE");
};

Value Build(Parts p) {
  return Value::MakeStruct({
      Value::Null(),
      Value::Bool(p.b),
      Value::Int32(p.i),
      Value::Int64(p.l),
      Value::Float(p.f),
      Value::Double(p.d),
      Bin(p.bytes),
      Str(p.str),
      Value::Int32(p.date),
      Value::Int64(p.time),
      Value::Int64(p.ts),
      Value::Int64(p.tstz),
      Bin(p.uuid),
      Value::Decimal(p.dec_fixed),
      Value::Decimal(p.dec_bytes),
      p.enum_value,
      Bin(p.fixed),
      Value::MakeList(p.ints),
      Value::MakeMap(p.string_map),
      p.int_map,
      p.nested,
      p.optional_long,
      p.union_multi,
      Value::MakeList(p.deep),
      Value::MakeStruct({}),
      p.color_again,
  });
}

Int128 Pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

}  // namespace

const std::string& EverythingSchemaJson() {
  static const std::string kJson = kEverythingSchema;
  return kJson;
}

std::vector<Value> EverythingRecords(int generated) {
  std::vector<Value> out;
  {
    Parts p;
    p.b = true;
    p.i = 42;
    p.l = 1234567890123;
    p.f = 1.5f;
    p.d = 3.141592653589793;
    p.bytes = std::string("\x00\x01\xff\xfe", 4);
    p.str = "héllo wörld ✓ 𝄞 日本語";
    p.date = 19000;
    p.time = 3600000000LL;
    p.ts = 1700000000000000LL;
    p.tstz = -86400000000LL;
    p.uuid = std::string("\x12\x34\x56\x78\x9a\xbc\xde\xf0\x01\x23\x45\x67\x89\xab\xcd\xef", 16);
    p.dec_fixed = 12345;
    p.dec_bytes = -Pow10(37) - 7;
    p.enum_value = Str("GREEN");
    p.fixed = std::string("\x00\x7f\x80", 3);
    p.ints = {Value::Int32(1), Value::Int32(-1), Value::Int32(0)};
    p.string_map = {{Str("one"), Value::Int64(1)},
                    {Str("none"), Value::Null()},
                    {Str("ключ"), Value::Int64(-5)}};
    p.int_map = Value::MakeMap(
        {{Value::Int32(1), Value::Int64(100)}, {Value::Int32(2), Value::Int64(200)}});
    p.nested = Inner(Str("a"), {Leaf(1, Value::Double(0.5)), Leaf(2, Value::Null())});
    p.optional_long = Value::Int64(7);
    p.union_multi = Str("a string branch");
    p.deep = {Value::MakeMap({{Str("k"), Value::MakeList({Str("x"), Str("")})}}),
              Value::MakeMap({})};
    out.push_back(Build(p));
  }
  {
    Parts p;  // Extremes.
    p.i = std::numeric_limits<int32_t>::min();
    p.l = std::numeric_limits<int64_t>::min();
    p.f = std::numeric_limits<float>::max();
    p.d = -std::numeric_limits<double>::denorm_min();
    p.date = -719162;  // 0001-01-01.
    p.time = 86399999999LL;
    p.ts = 253402300799999999LL;    // 9999-12-31T23:59:59.999999.
    p.tstz = -62135596800000000LL;  // 0001-01-01T00:00:00.
    p.uuid = std::string(16, '\xff');
    p.dec_fixed = 999999999;
    p.dec_bytes = Pow10(38) - 1;
    p.enum_value = Value::Int32(2);  // Encoded by index, decoded as "BLUE".
    p.ints = {Value::Int32(std::numeric_limits<int32_t>::max()),
              Value::Int32(std::numeric_limits<int32_t>::min())};
    p.int_map = Value::MakeMap({});
    p.union_multi = Value::Int64(std::numeric_limits<int64_t>::max());
    p.nested =
        Inner(Value::Null(), {Leaf(std::numeric_limits<int32_t>::min(), Value::Double(-0.0))});
    out.push_back(Build(p));
  }
  {
    Parts p;  // Second set of extremes, nulls and empties.
    p.i = std::numeric_limits<int32_t>::max();
    p.l = std::numeric_limits<int64_t>::max();
    p.f = -std::numeric_limits<float>::denorm_min();
    p.d = std::numeric_limits<double>::max();
    p.str = "";
    p.dec_fixed = -999999999;
    p.dec_bytes = -(Pow10(38) - 1);
    p.union_multi = Inner(Str("in a union"), {Leaf(5, Value::Double(1e300))});
    out.push_back(Build(p));
  }
  {
    Parts p;  // Non-finite floats.
    p.f = std::numeric_limits<float>::infinity();
    p.d = -std::numeric_limits<double>::infinity();
    p.union_multi = Leaf(9, Value::Double(std::nan("")));
    out.push_back(Build(p));
  }
  std::mt19937_64 rng(20240611);
  for (int n = 0; n < generated; ++n) {
    Parts p;
    p.b = rng() & 1;
    p.i = static_cast<int32_t>(rng());
    p.l = static_cast<int64_t>(rng()) >> (rng() % 64);
    p.f = static_cast<float>(static_cast<int32_t>(rng() % 100000)) / 64.0f;
    p.d = static_cast<double>(static_cast<int64_t>(rng())) / 1e6;
    p.bytes = std::string(rng() % 20, static_cast<char>(rng()));
    p.str = "row " + std::to_string(n) + " ☃";
    p.date = static_cast<int32_t>(rng() % 40000);
    p.time = static_cast<int64_t>(rng() % 86400000000ULL);
    p.ts = static_cast<int64_t>(rng() % 4000000000000000ULL);
    p.tstz = p.ts;
    for (char& c : p.uuid) c = static_cast<char>(rng());
    p.dec_fixed = static_cast<int32_t>(rng() % 1999999999) - 999999999;
    p.dec_bytes = static_cast<Int128>(static_cast<int64_t>(rng())) * 1000003;
    p.enum_value = Str(std::vector<std::string>{"RED", "GREEN", "BLUE"}[rng() % 3]);
    for (size_t k = rng() % 5; k > 0; --k)
      p.ints.push_back(Value::Int32(static_cast<int32_t>(rng() % 1000)));
    for (size_t k = rng() % 3; k > 0; --k) {
      p.string_map.emplace_back(Str("k" + std::to_string(k)),
                                Value::Int64(static_cast<int64_t>(rng() % 77)));
    }
    if (rng() & 1) {
      p.int_map = Value::MakeMap({{Value::Int32(n), Value::Int64(n * 10LL)}});
    }
    p.nested = Inner(rng() & 1 ? Str("n" + std::to_string(n)) : Value::Null(),
                     {Leaf(n, Value::Double(n / 4.0))});
    p.optional_long = rng() & 1 ? Value::Int64(n) : Value::Null();
    switch (rng() % 4) {
      case 0:
        p.union_multi = Value::Null();
        break;
      case 1:
        p.union_multi = Str("s" + std::to_string(n));
        break;
      case 2:
        p.union_multi = Value::Int64(-n);
        break;
      default:
        p.union_multi = Leaf(n, Value::Null());
        break;
    }
    out.push_back(Build(p));
  }
  return out;
}

namespace {

std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Int128ToString(Int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  __extension__ unsigned __int128 u =
      negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string out;
  while (u > 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + out : out;
}

Json FloatJson(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  return d;
}

const Node* PickBranch(const Node& node, const Value& value) {
  for (const NodePtr& b : node.branches) {
    const Node& r = b->Resolve();
    switch (value.kind()) {
      case Value::Kind::kNull:
        if (r.type == Type::kNull) return &r;
        break;
      case Value::Kind::kStruct:
        if (r.type == Type::kRecord && r.fields.size() == value.struct_value().size()) return &r;
        break;
      case Value::Kind::kMap:
        if (r.type == Type::kMap || r.is_logical_map) return &r;
        break;
      case Value::Kind::kList:
        if (r.type == Type::kArray) return &r;
        break;
      default:
        if (r.type != Type::kNull && r.type != Type::kRecord) return &r;
        break;
    }
  }
  return nullptr;
}

Json Render(const Node& n, const Value& v) {
  const Node& node = n.Resolve();
  if (node.type == Type::kUnion) {
    const Node* branch = PickBranch(node, v);
    return branch == nullptr ? Json("<no branch>") : Render(*branch, v);
  }
  if (node.type == Type::kEnum && v.kind() == Value::Kind::kInt32) {
    return node.symbols.at(static_cast<size_t>(v.int32_value()));
  }
  switch (v.kind()) {
    case Value::Kind::kNull:
      return nullptr;
    case Value::Kind::kBool:
      return v.bool_value();
    case Value::Kind::kInt32:
      return v.int32_value();
    case Value::Kind::kInt64:
      return v.int64_value();
    case Value::Kind::kFloat:
      return FloatJson(v.float_value());
    case Value::Kind::kDouble:
      return FloatJson(v.double_value());
    case Value::Kind::kDecimal:
      return Json{{"$decimal", Int128ToString(v.decimal_value())}};
    case Value::Kind::kString:
      return v.bytes_value();
    case Value::Kind::kBinary:
      return Json{{"$bytes", Hex(v.bytes_value())}};
    case Value::Kind::kList: {
      Json out = Json::array();
      for (const Value& item : v.list_value()) out.push_back(Render(*node.items, item));
      return out;
    }
    case Value::Kind::kMap: {
      if (node.type == Type::kArray) {
        const Node& rec = node.items->Resolve();
        Json out = Json::array();
        for (const auto& [k, val] : v.map_value()) {
          out.push_back(Json{{"key", Render(*rec.fields[0].type, k)},
                             {"value", Render(*rec.fields[1].type, val)}});
        }
        return out;
      }
      Json out = Json::object();
      for (const auto& [k, val] : v.map_value()) out[k.bytes_value()] = Render(*node.values, val);
      return out;
    }
    case Value::Kind::kStruct: {
      Json out = Json::object();
      const auto& fields = v.struct_value();
      for (size_t i = 0; i < fields.size() && i < node.fields.size(); ++i) {
        out[node.fields[i].name] = Render(*node.fields[i].type, fields[i]);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

std::string ValueToJson(const Node& node, const Value& value) {
  return Render(node, value).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace st::avro::testing
