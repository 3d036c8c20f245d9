// Writes the Parquet files that tests/integration/test_parquet_pyarrow.py reads
// back with pyarrow and DuckDB, and beside each one the rows it meant to write
// as JSON (a canonical form: integers for int/date/time/timestamp, strings for
// decimals' unscaled values and floats, hex for binary). Usage:
//   parquet_golden_writer <output-dir>
// Rows come from a fixed-seed generator, plus hand-picked edge cases.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/output_stream.h"
#include "common/value.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"
#include "value_columnizer.h"

namespace st::parquet {
namespace {

using json = nlohmann::json;
using R = Repetition;
using Kind = LogicalType::Kind;

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  int64_t Range(int64_t lo, int64_t hi) {  // inclusive
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool Chance(int percent) { return static_cast<int>(Next() % 100) < percent; }
  std::string Bytes(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(Next());
    return s;
  }

 private:
  uint64_t state_;
};

Int128 Pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

std::string Int128ToString(Int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  std::string out;
  while (v != 0) {
    int digit = static_cast<int>(v % 10);
    if (digit < 0) digit = -digit;
    out.insert(out.begin(), static_cast<char>('0' + digit));
    v /= 10;
  }
  return neg ? "-" + out : out;
}

std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string DoubleString(double d) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), d);
  return std::string(buf, res.ptr);
}

json ToJson(const Node& node, const Value& v) {
  if (v.is_null()) return nullptr;
  if (node.is_leaf()) {
    if (v.kind() == Value::Kind::kDecimal) return Int128ToString(v.decimal_value());
    switch (node.physical_type()) {
      case PhysicalType::kBoolean:
        return v.bool_value();
      case PhysicalType::kInt32:
        return v.int32_value();
      case PhysicalType::kInt64:
        return v.int64_value();
      case PhysicalType::kFloat:
        return DoubleString(static_cast<double>(v.float_value()));
      case PhysicalType::kDouble:
        return DoubleString(v.double_value());
      case PhysicalType::kByteArray:
        if (node.logical_type().kind == Kind::kString) return v.bytes_value();
        return Hex(v.bytes_value());
      case PhysicalType::kFixedLenByteArray:
        return Hex(v.bytes_value());
    }
  }
  json out = json::array();
  const Kind k = node.logical_type().kind;
  if (k == Kind::kList) {
    const Node& element = node.children()[0].children()[0];
    for (const Value& item : v.list_value()) out.push_back(ToJson(element, item));
  } else if (k == Kind::kMap) {
    const Node& key = node.children()[0].children()[0];
    const Node& value = node.children()[0].children()[1];
    for (const auto& [kv, vv] : v.map_value()) {
      out.push_back(json::array({ToJson(key, kv), ToJson(value, vv)}));
    }
  } else {
    for (size_t i = 0; i < node.children().size(); ++i) {
      out.push_back(ToJson(node.children()[i], v.struct_value()[i]));
    }
  }
  return out;
}

// Arrow-side paths (LIST/MAP middle groups skipped) -> field id.
void CollectIds(const Node& node, const std::string& prefix, json* ids) {
  const std::string path = prefix.empty() ? node.name() : prefix + "." + node.name();
  if (node.field_id()) (*ids)[path] = *node.field_id();
  const Kind k = node.logical_type().kind;
  if (k == Kind::kList || k == Kind::kMap) {
    for (const Node& c : node.children()[0].children()) CollectIds(c, path, ids);
  } else {
    for (const Node& c : node.children()) CollectIds(c, path, ids);
  }
}

struct Case {
  std::string name;
  std::vector<Node> fields;
  std::vector<Value> rows;
  WriterOptions options;
  bool batches = false;  // Written through the batch API (ValueColumnizer) instead of WriteRow.
};

std::vector<Node> AllTypesFields() {
  return {
      Node::Boolean("bool_opt", R::kOptional, 1),
      Node::Int32("int_req", R::kRequired, 2),
      Node::Int32("int_opt", R::kOptional, 3),
      Node::Int64("long_opt", R::kOptional, 4),
      Node::Float("float_opt", R::kOptional, 5),
      Node::Double("double_opt", R::kOptional, 6),
      Node::Decimal("dec9", R::kOptional, 7, 9, 2),
      Node::Decimal("dec18", R::kOptional, 8, 18, 4),
      Node::Decimal("dec38", R::kOptional, 9, 38, 10),
      Node::Date("date_opt", R::kOptional, 10),
      Node::Time("time_opt", R::kOptional, 11),
      Node::Timestamp("ts", R::kOptional, 12, false),
      Node::Timestamp("tstz", R::kOptional, 13, true),
      Node::String("str_opt", R::kOptional, 14),
      Node::String("str_req", R::kRequired, 15),
      Node::Uuid("uuid_opt", R::kOptional, 16),
      Node::Fixed("fixed7", R::kOptional, 17, 7),
      Node::Binary("bin_opt", R::kOptional, 18),
      Node::Int32("all_null", R::kOptional, 19),
      Node::Float("float_zero", R::kOptional, 20),
      Node::Double("double_zero", R::kOptional, 21),
  };
}

std::vector<Value> AllTypesRows(int count, uint64_t seed) {
  Rng rng(seed);
  const Int128 d9 = Pow10(9) - 1, d18 = Pow10(18) - 1, d38 = Pow10(38) - 1;
  const int64_t kMinDate = -719162, kMaxDate = 2932896;  // 0001-01-01 .. 9999-12-31
  const int64_t kMinTs = -62135596800LL * 1000000, kMaxTs = 253402300799LL * 1000000;
  const float fspecial[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            -0.0f,
                            0.0f,
                            std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::lowest(),
                            std::numeric_limits<float>::denorm_min()};
  const double dspecial[] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             -0.0,
                             0.0,
                             std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::lowest(),
                             std::numeric_limits<double>::denorm_min()};
  const std::vector<std::string> strings = {
      "", "a", "z", "é", "日本語", "\xF0\x9F\x98\x80", "zzz", "A", "hello world", "\x7F"};
  std::vector<Value> rows;
  for (int i = 0; i < count; ++i) {
    auto opt = [&](Value v) { return (i == 2 || (i > 2 && rng.Chance(15))) ? Value::Null() : v; };
    auto pick = [&](int64_t lo, int64_t hi) {
      return i == 0 ? lo : i == 1 ? hi : rng.Range(lo, hi);
    };
    auto dec = [&](Int128 max) {
      if (i == 0) return -max;
      if (i == 1) return max;
      const Int128 raw = (static_cast<Int128>(rng.Next()) << 64) | rng.Next();
      Int128 v = raw % (max + 1);
      if (v < 0) v = -v;
      return rng.Chance(50) ? -v : v;
    };
    float f = static_cast<float>(rng.Range(-1000000, 1000000)) / 128.0f;
    double d = static_cast<double>(static_cast<int64_t>(rng.Next())) / 1e6;
    if (rng.Chance(30)) f = fspecial[rng.Next() % 8];
    if (rng.Chance(30)) d = dspecial[rng.Next() % 8];
    const float fz[] = {0.0f, 1.5f, 2.5f, std::numeric_limits<float>::quiet_NaN()};
    const double dz[] = {-0.0, -1.5, std::numeric_limits<double>::quiet_NaN()};
    std::string s = rng.Chance(50) ? strings[rng.Next() % strings.size()]
                                   : "s" + std::to_string(rng.Range(0, 50));
    std::string fixed7 = rng.Bytes(7);
    if (i == 0) fixed7 = std::string(7, '\0');
    if (i == 1) fixed7 = std::string(7, '\xFF');
    Value::Struct r;
    r.push_back(opt(Value::Bool(rng.Chance(50))));
    r.push_back(Value::Int32(static_cast<int32_t>(pick(INT32_MIN, INT32_MAX))));
    r.push_back(opt(Value::Int32(static_cast<int32_t>(pick(INT32_MIN, INT32_MAX)))));
    r.push_back(opt(Value::Int64(i == 0   ? INT64_MIN
                                 : i == 1 ? INT64_MAX
                                          : static_cast<int64_t>(rng.Next()))));
    r.push_back(opt(Value::Float(f)));
    r.push_back(opt(Value::Double(d)));
    r.push_back(opt(Value::Decimal(dec(d9))));
    r.push_back(opt(Value::Decimal(dec(d18))));
    r.push_back(opt(Value::Decimal(dec(d38))));
    r.push_back(opt(Value::Int32(static_cast<int32_t>(pick(kMinDate, kMaxDate)))));
    r.push_back(opt(Value::Int64(pick(0, 86400LL * 1000000 - 1))));
    r.push_back(opt(Value::Int64(pick(kMinTs, kMaxTs))));
    r.push_back(opt(Value::Int64(pick(kMinTs, kMaxTs))));
    r.push_back(opt(Value::String(s)));
    r.push_back(Value::String(i % 7 == 0 ? "" : "req-" + std::to_string(i % 13)));
    r.push_back(opt(Value::Binary(rng.Bytes(16))));
    r.push_back(opt(Value::Binary(fixed7)));
    r.push_back(opt(Value::Binary(rng.Bytes(static_cast<size_t>(rng.Range(0, 20))))));
    r.push_back(Value::Null());
    r.push_back(opt(Value::Float(fz[rng.Next() % 4])));
    r.push_back(opt(Value::Double(dz[rng.Next() % 3])));
    rows.push_back(Value::MakeStruct(std::move(r)));
  }
  return rows;
}

std::vector<Node> NestedFields() {
  return {
      Node::Int64("id", R::kRequired, 1),
      Node::List("tags", R::kOptional, 2, Node::String("element", R::kOptional, 3)),
      Node::List(
          "points", R::kOptional, 4,
          Node::Struct("element", R::kOptional, 5,
                       {Node::Int32("x", R::kRequired, 6), Node::Double("y", R::kOptional, 7)})),
      Node::Map("attrs", R::kOptional, 8, Node::String("key", R::kRequired, 9),
                Node::List("value", R::kOptional, 10, Node::Int64("element", R::kOptional, 11))),
      Node::Struct("info", R::kOptional, 12,
                   {Node::String("name", R::kOptional, 13),
                    Node::Struct("inner", R::kOptional, 14,
                                 {Node::Int32("a", R::kOptional, 15),
                                  Node::List("b", R::kRequired, 16,
                                             Node::Int32("element", R::kRequired, 17))})}),
      Node::List("req_list", R::kRequired, 18, Node::Int32("element", R::kRequired, 19)),
  };
}

std::vector<Value> NestedRows(int count, uint64_t seed) {
  Rng rng(seed);
  auto maybe = [&](int null_pct, Value v) { return rng.Chance(null_pct) ? Value::Null() : v; };
  std::vector<Value> rows;
  for (int i = 0; i < count; ++i) {
    Value::List tags;
    const int ntags = static_cast<int>(rng.Range(0, 4));
    for (int k = 0; k < ntags; ++k) {
      tags.push_back(maybe(20, Value::String("t" + std::to_string(rng.Range(0, 30)))));
    }
    Value::List points;
    const int npoints = static_cast<int>(rng.Range(0, 3));
    for (int k = 0; k < npoints; ++k) {
      points.push_back(
          maybe(20, Value::MakeStruct(
                        {Value::Int32(static_cast<int32_t>(rng.Range(-100, 100))),
                         maybe(30, Value::Double(static_cast<double>(rng.Range(-50, 50)) / 4))})));
    }
    Value::Map attrs;
    const int nattrs = static_cast<int>(rng.Range(0, 3));
    for (int k = 0; k < nattrs; ++k) {
      Value::List longs;
      const int nl = static_cast<int>(rng.Range(0, 3));
      for (int m = 0; m < nl; ++m) longs.push_back(maybe(25, Value::Int64(rng.Range(-5, 5))));
      attrs.emplace_back(Value::String("k" + std::to_string(k)),
                         maybe(25, Value::MakeList(std::move(longs))));
    }
    Value::List b;
    const int nb = static_cast<int>(rng.Range(0, 3));
    for (int k = 0; k < nb; ++k) b.push_back(Value::Int32(static_cast<int32_t>(rng.Range(0, 9))));
    Value inner = maybe(30, Value::MakeStruct({maybe(30, Value::Int32(static_cast<int32_t>(i))),
                                               Value::MakeList(std::move(b))}));
    Value info = maybe(20, Value::MakeStruct({maybe(30, Value::String("n" + std::to_string(i))),
                                              std::move(inner)}));
    Value::List req;
    const int nr = static_cast<int>(rng.Range(0, 2));
    for (int k = 0; k < nr; ++k) req.push_back(Value::Int32(k));
    rows.push_back(Value::MakeStruct({Value::Int64(i), maybe(20, Value::MakeList(std::move(tags))),
                                      maybe(20, Value::MakeList(std::move(points))),
                                      maybe(20, Value::MakeMap(std::move(attrs))), std::move(info),
                                      Value::MakeList(std::move(req))}));
  }
  // Hand-picked shapes: nulls and empties at every level.
  auto s = [](const char* x) { return Value::String(x); };
  rows[0] = Value::MakeStruct({Value::Int64(0), Value::Null(), Value::Null(), Value::Null(),
                               Value::Null(), Value::MakeList({})});
  rows[1] = Value::MakeStruct(
      {Value::Int64(1), Value::MakeList({}), Value::MakeList({}), Value::MakeMap({}),
       Value::MakeStruct({Value::Null(), Value::Null()}), Value::MakeList({Value::Int32(7)})});
  rows[2] = Value::MakeStruct(
      {Value::Int64(2), Value::MakeList({Value::Null()}), Value::MakeList({Value::Null()}),
       Value::MakeMap({{s("a"), Value::Null()},
                       {s("b"), Value::MakeList({})},
                       {s("c"), Value::MakeList({Value::Null()})}}),
       Value::MakeStruct({s("x"), Value::MakeStruct({Value::Null(), Value::MakeList({})})}),
       Value::MakeList({Value::Int32(1), Value::Int32(2)})});
  rows[3] = Value::MakeStruct(
      {Value::Int64(3), Value::MakeList({s("a"), Value::Null(), s("")}),
       Value::MakeList({Value::MakeStruct({Value::Int32(1), Value::Null()}), Value::Null(),
                        Value::MakeStruct({Value::Int32(2), Value::Double(2.5)})}),
       Value::MakeMap(
           {{s(""), Value::MakeList({Value::Int64(1), Value::Null(), Value::Int64(3)})}}),
       Value::MakeStruct({Value::Null(), Value::MakeStruct({Value::Int32(5),
                                                            Value::MakeList({Value::Int32(9)})})}),
       Value::MakeList({})});
  return rows;
}

std::vector<Node> FallbackFields() {
  return {Node::String("high_card", R::kOptional, 1), Node::String("low_card", R::kRequired, 2),
          Node::Int64("seq", R::kRequired, 3)};
}

std::vector<Value> FallbackRows(int count) {
  std::vector<Value> rows;
  for (int i = 0; i < count; ++i) {
    rows.push_back(Value::MakeStruct(
        {i % 11 == 0 ? Value::Null()
                     : Value::String("unique-value-" + std::to_string(i * 7919) + "-padding-text"),
         Value::String("cat" + std::to_string(i % 5)), Value::Int64(i)}));
  }
  return rows;
}

int WriteCase(const Case& c, const std::string& dir, json* manifest) {
  auto schema = Schema::Make(c.fields);
  if (!schema) {
    std::cerr << c.name << ": " << schema.error().ToString() << "\n";
    return 1;
  }
  MemoryOutputStream sink;
  auto writer = FileWriter::Make(*schema, c.options, &sink);
  if (!writer) {
    std::cerr << c.name << ": " << writer.error().ToString() << "\n";
    return 1;
  }
  json rows = json::array();
  testing::ValueColumnizer columnizer(*schema);
  for (size_t n = 0; n < c.rows.size(); ++n) {
    const Value& row = c.rows[n];
    Status s;
    if (c.batches) {
      // Odd-sized batches, so batches and pages do not line up.
      columnizer.Add(row);
      if (n % 97 == 96 || n + 1 == c.rows.size()) s = columnizer.WriteTo(writer->get());
    } else {
      s = (*writer)->WriteRow(row);
    }
    if (!s.ok()) {
      std::cerr << c.name << ": " << s.ToString() << "\n";
      return 1;
    }
    json r = json::array();
    for (size_t i = 0; i < c.fields.size(); ++i)
      r.push_back(ToJson(c.fields[i], row.struct_value()[i]));
    rows.push_back(std::move(r));
  }
  auto summary = (*writer)->Close();
  if (!summary) {
    std::cerr << c.name << ": " << summary.error().ToString() << "\n";
    return 1;
  }
  std::ofstream(dir + "/" + c.name + ".parquet", std::ios::binary) << sink.buffer();
  json ids = json::object();
  for (const Node& f : c.fields) CollectIds(f, "", &ids);
  json columns = json::array();
  for (const ColumnSummary& cs : summary->columns) {
    columns.push_back({{"path", cs.column.DottedPath()},
                       {"value_count", cs.value_count},
                       {"null_count", cs.null_count},
                       {"nan_count", cs.nan_count},
                       {"compressed_size_bytes", cs.compressed_size_bytes},
                       {"has_bounds", cs.min_value.has_value()}});
  }
  (*manifest)[c.name] = {{"rows", rows},
                         {"field_ids", ids},
                         {"row_count", summary->row_count},
                         {"file_size_bytes", summary->file_size_bytes},
                         {"row_group_offsets", summary->row_group_offsets},
                         {"columns", columns}};
  return 0;
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: parquet_golden_writer <output-dir>\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<Case> cases;
  const std::pair<const char*, Codec> codecs[] = {{"uncompressed", Codec::kUncompressed},
                                                  {"snappy", Codec::kSnappy},
                                                  {"gzip", Codec::kGzip},
                                                  {"zstd", Codec::kZstd}};
  for (const auto& [codec_name, codec] : codecs) {
    for (bool dict : {true, false}) {
      Case c{std::string("all_types_") + codec_name + (dict ? "_dict" : "_plain"),
             AllTypesFields(),
             AllTypesRows(300, 42),
             {}};
      c.options.codec = codec;
      c.options.compression_level = codec == Codec::kGzip ? 6 : 3;
      c.options.enable_dictionary = dict;
      c.options.key_value_metadata = {{"writer.case", c.name}};
      cases.push_back(std::move(c));
    }
  }
  {
    Case c{"all_types_small_pages", AllTypesFields(), AllTypesRows(3000, 7), {}};
    c.options.page_size_bytes = 512;
    c.options.row_group_size_bytes = 16 << 10;
    cases.push_back(std::move(c));
  }
  {
    Case c{"nested", NestedFields(), NestedRows(500, 99), {}};
    cases.push_back(std::move(c));
  }
  {
    Case c{"nested_small_pages", NestedFields(), NestedRows(4000, 5), {}};
    c.options.codec = Codec::kSnappy;
    c.options.page_size_bytes = 256;
    c.options.row_group_size_bytes = 8 << 10;
    cases.push_back(std::move(c));
  }
  {
    Case c{"dict_fallback", FallbackFields(), FallbackRows(5000), {}};
    c.options.dictionary_page_size_limit = 4 << 10;
    c.options.page_size_bytes = 2 << 10;
    cases.push_back(std::move(c));
  }
  {
    Case c{"empty", AllTypesFields(), {}, {}};
    cases.push_back(std::move(c));
  }
  for (const char* name : {"all_types_zstd_dict", "all_types_snappy_plain", "all_types_small_pages",
                           "nested", "nested_small_pages", "dict_fallback"}) {
    for (size_t i = 0, n = cases.size(); i < n; ++i) {
      if (cases[i].name != name) continue;
      Case c = cases[i];
      c.name += "_batches";
      c.batches = true;
      cases.push_back(std::move(c));
    }
  }
  json manifest = json::object();
  for (const Case& c : cases) {
    if (WriteCase(c, dir, &manifest) != 0) return 1;
  }
  std::ofstream(dir + "/manifest.json") << manifest.dump();
  return 0;
}

}  // namespace
}  // namespace st::parquet

int main(int argc, char** argv) { return st::parquet::Main(argc, argv); }
