// Protobuf decoding: .proto parsing and the Iceberg mapping, the wire walk
// into column buffers (field order, repeats, packing, merging, defaults,
// unknown fields), hostile payloads, and the writer's framing path.
#include <gtest/gtest.h>

#include <limits>

#include "decoding/column_buffers_internal.h"
#include "decoding/protobuf_decode_plan_internal.h"
#include "decoding/protobuf_descriptor_internal.h"
#include "decoding/protobuf_schema.h"
#include "decoding/protobuf_shredder_internal.h"
#include "decoding/shred_plan_internal.h"
#include "decoding_test_fixture.h"
#include "iceberg/parquet_schema.h"
#include "protobuf_wire_builder.h"

namespace st::decoding {
namespace {

constexpr const char* kCommon = R"(syntax = "proto3";
package c;
enum Color { RED = 0; GREEN = 1; }
message Point { int32 x = 1; int32 y = 2; })";

constexpr const char* kMain = R"(syntax = "proto3";
package t;
import "c/common.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
message M {
  int32 i = 1;
  uint32 u = 2;
  sint64 s = 3;
  fixed64 f = 4;
  double d = 5;
  string name = 6;
  c.Color color = 7;
  c.Point point = 8;
  repeated int32 nums = 9;
  repeated c.Point points = 10;
  map<int32, string> labels = 11;
  oneof pick { string a = 12; int64 b = 13; }
  google.protobuf.Timestamp ts = 14;
  google.protobuf.Int64Value w = 15;
  optional bool flag = 16;
  bytes raw = 17;
}
message Other { message Inner { string z = 1; } })";

using wire_builder::F64;
using wire_builder::L;
using wire_builder::Tag;
using wire_builder::V;
using wire_builder::Varint;

WriterSchema Writer(const char* text = kMain) {
  WriterSchema w{WriterSchemaType::kProtobuf, text, {}};
  w.references.emplace_back("c/common.proto", kCommon);
  return w;
}

iceberg::Schema MustTable(const WriterSchema& w, std::vector<int32_t> indexes = {0}) {
  auto schema = ProtobufToIcebergSchema(w, indexes);
  EXPECT_TRUE(schema.has_value()) << (schema ? "" : schema.error().ToString());
  return *schema;
}

TEST(ProtobufMapping, MapsEveryKind) {
  iceberg::Schema s = MustTable(Writer());
  auto type = [&](const char* name) { return s.FindFieldByName(name)->type->ToString(); };
  EXPECT_EQ(type("i"), "int");
  EXPECT_EQ(type("u"), "long");
  EXPECT_EQ(type("f"), "long");
  EXPECT_EQ(type("color"), "string");
  EXPECT_EQ(type("ts"), "timestamptz");
  EXPECT_EQ(type("w"), "long");
  EXPECT_EQ(type("raw"), "binary");
  EXPECT_EQ(type("labels").substr(0, 15), "map<string, str");
  EXPECT_TRUE(s.FindFieldByName("i")->required);      // proto3 scalar: default when absent.
  EXPECT_FALSE(s.FindFieldByName("flag")->required);  // proto3 optional.
  EXPECT_FALSE(s.FindFieldByName("a")->required);     // oneof member.
  EXPECT_FALSE(s.FindFieldByName("point")->required);
  EXPECT_FALSE(s.FindFieldByName("w")->required);
}

TEST(ProtobufMapping, MessageIndexesAndErrors) {
  iceberg::Schema inner = MustTable(Writer(), {1, 0});
  EXPECT_NE(inner.FindFieldByName("z"), nullptr);
  auto bad = ProtobufToIcebergSchema(Writer(), {7});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), StatusCode::kNotFound);
  auto missing_ref =
      ProtobufToIcebergSchema(WriterSchema{WriterSchemaType::kProtobuf, kMain, {}}, {0});
  ASSERT_FALSE(missing_ref.has_value());
  EXPECT_NE(missing_ref.error().message().find("c/common.proto"), std::string::npos);
  auto syntax = ProtobufToIcebergSchema(
      WriterSchema{WriterSchemaType::kProtobuf, "syntax = \"proto3\"; message {", {}}, {0});
  ASSERT_FALSE(syntax.has_value());
  EXPECT_EQ(syntax.error().code(), StatusCode::kInvalidArgument);
  auto recursive = ProtobufToIcebergSchema(
      WriterSchema{WriterSchemaType::kProtobuf,
                   "syntax = \"proto3\"; message N { N next = 1; int32 v = 2; }",
                   {}},
      {0});
  EXPECT_FALSE(recursive.has_value());
}

TEST(ProtobufEvolution, WidensAndAddsRefusesNarrowing) {
  const char* v1 = "syntax = \"proto3\"; message E { int32 q = 1; string s = 2; }";
  const char* v2 = "syntax = \"proto3\"; message E { int64 q = 1; string s = 2; float x = 3; }";
  const char* v3 = "syntax = \"proto3\"; message E { int64 q = 1; int32 s = 2; }";
  iceberg::Schema table = MustTable(WriterSchema{WriterSchemaType::kProtobuf, v1, {}});
  auto evolved = EvolveForProtobuf(table, WriterSchema{WriterSchemaType::kProtobuf, v2, {}}, {0});
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  EXPECT_TRUE(evolved->changed);
  EXPECT_EQ(evolved->schema.FindFieldByName("q")->type->ToString(), "long");
  EXPECT_EQ(evolved->schema.FindFieldByName("q")->id, table.FindFieldByName("q")->id);
  EXPECT_NE(evolved->schema.FindFieldByName("x"), nullptr);
  auto bad =
      EvolveForProtobuf(evolved->schema, WriterSchema{WriterSchemaType::kProtobuf, v3, {}}, {0});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), StatusCode::kFailedPrecondition);
}

// Shreds payloads straight into buffers, to check values column by column.
class ProtoShred {
 public:
  explicit ProtoShred(const WriterSchema& w, std::vector<int32_t> indexes = {0})
      : table_(MustTable(w, indexes)) {
    auto parquet = iceberg::ToParquetSchema(table_);
    EXPECT_TRUE(parquet.has_value());
    parquet_ = std::make_unique<parquet::Schema>(std::move(*parquet));
    auto plan = MakeShredPlan(table_, *parquet_);
    EXPECT_TRUE(plan.has_value()) << (plan ? "" : plan.error().ToString());
    plan_ = std::make_unique<ShredPlan>(std::move(*plan));
    auto proto = ParseProtoSchema(w, indexes);
    EXPECT_TRUE(proto.has_value());
    auto compiled = CompileProtoPlan(std::move(*proto), *plan_);
    EXPECT_TRUE(compiled.has_value()) << (compiled ? "" : compiled.error().ToString());
    proto_ = std::make_unique<ProtoPlan>(std::move(*compiled));
    buffers_ = std::make_unique<ColumnBuffers>(*parquet_);
    shredder_ = std::make_unique<ProtobufShredder>(*plan_, 0);
  }

  // "ok" or the error code (the message in last_message).
  std::string Shred(const std::string& payload) {
    RecordError error;
    std::vector<ColumnMark> marks;
    buffers_->Mark(&marks);
    if (!shredder_->Shred(*proto_, payload, *buffers_, &error)) {
      buffers_->Truncate(marks);
      last_message = error.message;
      return error.code;
    }
    buffers_->AddRow();
    return "ok";
  }

  ColumnBuffer& Column(const std::string& top, int child = -1) {
    const ShredNode& node = plan_->root.children[plan_->root.FindChild(top)];
    const ShredNode& leaf = child < 0 ? node : node.children[child];
    return buffers_->column(leaf.column >= 0 ? leaf.column : leaf.first_column);
  }
  static std::string Text(const ColumnBuffer& c, size_t i) {
    const uint32_t start = i == 0 ? 0 : c.ends[i - 1];
    return c.arena.substr(start, c.ends[i] - start);
  }

  std::string last_message;

 private:
  iceberg::Schema table_;
  std::unique_ptr<parquet::Schema> parquet_;
  std::unique_ptr<ShredPlan> plan_;
  std::unique_ptr<ProtoPlan> proto_;
  std::unique_ptr<ColumnBuffers> buffers_;
  std::unique_ptr<ProtobufShredder> shredder_;
};

TEST(ProtobufShredder, DecodesEveryKindInAnyOrder) {
  ProtoShred p(Writer());
  const std::string point1 = V(1, 3);
  const std::string point2 = V(2, 4);
  std::string msg;
  msg += V(2, 4294967295u);                      // u: uint32 max → long.
  msg += V(1, static_cast<uint64_t>(-5));        // i: negative int32 (10-byte varint).
  msg += V(1, 7);                                // i again: the last wins.
  msg += V(3, 3);                                // s: zigzag 3 → -2.
  msg += F64(4, ~uint64_t{0});                   // f: fixed64 max wraps to -1.
  msg += L(6, "h\xc3\xa9");                      // name
  msg += V(7, 9);                                // color: unknown number → "9".
  msg += L(8, point1) + L(8, point2);            // point: merged {3, 4}.
  msg += L(9, Varint(1) + Varint(2)) + V(9, 3);  // nums: packed then unpacked.
  msg += L(10, V(1, 1)) + L(10, "");             // points: {1,0}, {0,0}.
  msg += L(11, V(1, 5) + L(2, "a")) + L(11, V(1, 5) + L(2, "b")) + L(11, L(2, "z"));
  msg += V(13, 42);  // b (oneof)
  msg += L(14, V(1, 1700000000) + V(2, 123456789));
  msg += L(15, "");  // w present without value → 0.
  msg += V(99, 1) + F64(98, 0) + L(97, "skip") + Tag(96, 3) + V(1, 1) + Tag(96, 4);  // unknown
  ASSERT_EQ(p.Shred(msg), "ok") << p.last_message;
  EXPECT_EQ(p.Column("i").i32, (std::vector<int32_t>{7}));
  EXPECT_EQ(p.Column("u").i64, (std::vector<int64_t>{4294967295}));
  EXPECT_EQ(p.Column("s").i64, (std::vector<int64_t>{-2}));
  EXPECT_EQ(p.Column("f").i64, (std::vector<int64_t>{-1}));
  EXPECT_EQ(p.Column("d").f64, (std::vector<double>{0.0}));  // Absent proto3 scalar: default.
  EXPECT_EQ(ProtoShred::Text(p.Column("name"), 0), "h\xc3\xa9");
  EXPECT_EQ(ProtoShred::Text(p.Column("color"), 0), "9");
  EXPECT_EQ(p.Column("point", 0).i32, (std::vector<int32_t>{3}));
  EXPECT_EQ(p.Column("point", 1).i32, (std::vector<int32_t>{4}));
  EXPECT_EQ(p.Column("nums").i32, (std::vector<int32_t>{1, 2, 3}));
  const ShredNode* unused = nullptr;
  (void)unused;
  ColumnBuffer& keys = p.Column("labels", 0);
  ASSERT_EQ(keys.ends.size(), 2u);  // Key 5 twice: the last entry wins.
  EXPECT_EQ(ProtoShred::Text(keys, 0), "5");
  EXPECT_EQ(ProtoShred::Text(keys, 1), "0");  // Missing key → the default.
  EXPECT_EQ(ProtoShred::Text(p.Column("labels", 1), 0), "b");
  EXPECT_EQ(p.Column("b").i64, (std::vector<int64_t>{42}));
  EXPECT_TRUE(p.Column("a").arena.empty());  // The other oneof member: null.
  EXPECT_EQ(p.Column("ts").i64, (std::vector<int64_t>{int64_t{1700000000} * 1000000 + 123456}));
  EXPECT_EQ(p.Column("w").i64, (std::vector<int64_t>{0}));
  EXPECT_TRUE(p.Column("flag").bools.empty());  // Optional, absent: null.
  EXPECT_EQ(p.Column("flag").def, (std::vector<int16_t>{0}));

  // An empty message: every default, nulls for presence fields, empty lists.
  ASSERT_EQ(p.Shred(""), "ok");
  EXPECT_EQ(p.Column("i").i32, (std::vector<int32_t>{7, 0}));
  EXPECT_EQ(ProtoShred::Text(p.Column("color"), 1), "RED");
}

TEST(ProtobufShredder, LargeMapsKeepTheLastEntryPerKey) {
  ProtoShred p(Writer());
  std::string msg;
  for (int i = 0; i < 40; ++i) {
    msg += L(11, V(1, static_cast<uint64_t>(i % 10)) + L(2, "v" + std::to_string(i)));
  }
  ASSERT_EQ(p.Shred(msg), "ok") << p.last_message;
  ColumnBuffer& keys = p.Column("labels", 0);
  ColumnBuffer& values = p.Column("labels", 1);
  ASSERT_EQ(keys.ends.size(), 10u);
  for (int k = 0; k < 10; ++k) {
    EXPECT_EQ(ProtoShred::Text(keys, k), std::to_string(k));
    EXPECT_EQ(ProtoShred::Text(values, k), "v" + std::to_string(30 + k));
  }
  // A map value with the wrong wire type rejects the record and leaves nothing.
  EXPECT_EQ(p.Shred(L(11, V(1, 1) + V(2, 5))), kMalformedProtobuf);
  ASSERT_EQ(p.Shred(L(11, V(1, 1) + L(2, "x"))), "ok");
  EXPECT_EQ(keys.ends.size(), 11u);
}

TEST(ProtobufShredder, Proto2FieldsWithoutValueAreNull) {
  const WriterSchema w{WriterSchemaType::kProtobuf,
                       "syntax = \"proto2\"; message P { optional int32 a = 1; "
                       "required string b = 2; repeated int64 c = 3 [packed = true]; "
                       "optional E e = 4; enum E { X = 1; Y = 2; } }",
                       {}};
  ProtoShred p(w);
  ASSERT_EQ(p.Shred(L(2, "b") + L(3, Varint(7) + Varint(8)) + V(4, 2)), "ok") << p.last_message;
  ASSERT_EQ(p.Shred(""), "ok");
  EXPECT_EQ(p.Column("a").def, (std::vector<int16_t>{0, 0}));  // Absent both times: null.
  EXPECT_TRUE(p.Column("a").i32.empty());
  EXPECT_EQ(p.Column("b").def, (std::vector<int16_t>{1, 0}));  // proto2 required: optional column.
  EXPECT_EQ(p.Column("c").i64, (std::vector<int64_t>{7, 8}));
  EXPECT_EQ(ProtoShred::Text(p.Column("e"), 0), "Y");
  EXPECT_EQ(p.Column("e").def, (std::vector<int16_t>{1, 0}));
}

TEST(ProtobufShredder, HostileInput) {
  ProtoShred p(Writer());
  EXPECT_EQ(p.Shred(Tag(1, 0) + std::string(11, '\xff')), kMalformedProtobuf);  // Overlong.
  EXPECT_NE(p.last_message.find("offset"), std::string::npos);
  EXPECT_EQ(p.Shred(Tag(1, 0)), kMalformedProtobuf);  // Ends in a varint.
  EXPECT_EQ(p.Shred(Tag(6, 2) + Varint(uint64_t{1} << 62) + "x"), kMalformedProtobuf);  // Huge.
  EXPECT_EQ(p.Shred(L(1, "A")), kMalformedProtobuf);  // Wire type mismatch.
  EXPECT_NE(p.last_message.find("field 1"), std::string::npos) << p.last_message;
  EXPECT_NE(p.last_message.find("wire type"), std::string::npos);
  EXPECT_EQ(p.Shred(Tag(4, 1) + "abc"), kMalformedProtobuf);          // Truncated fixed64.
  EXPECT_EQ(p.Shred(V(0, 1)), kMalformedProtobuf);                    // Field number 0.
  EXPECT_EQ(p.Shred(Tag(1, 7) + "x"), kMalformedProtobuf);            // Wire type 7.
  EXPECT_EQ(p.Shred(L(6, "\xc3\x28")), kMalformedProtobuf);           // Bad UTF-8.
  EXPECT_EQ(p.Shred(Tag(1, 4)), kMalformedProtobuf);                  // Stray end-group.
  EXPECT_EQ(p.Shred(L(8, V(1, 1) + Tag(2, 0))), kMalformedProtobuf);  // Nested truncation.
  std::string deep;  // Unknown groups nested far deeper than the limit.
  for (int i = 0; i < 500; ++i) deep += Tag(50, 3);
  EXPECT_EQ(p.Shred(deep), kNestingTooDeep);
  std::string unclosed = Tag(50, 3) + V(1, 1);
  EXPECT_EQ(p.Shred(unclosed), kMalformedProtobuf);
  EXPECT_EQ(p.Shred(L(14, V(1, uint64_t{1} << 62))), kTypeMismatch);  // Timestamp past µs range.
  // Nothing of the rejected records stayed in the buffers.
  EXPECT_TRUE(p.Column("i").i32.empty());
}

TEST(ProtobufShredder, DeepMessagesAreBounded) {
  // 70 nested message types: the plan itself stops at the nesting limit or
  // the Iceberg mapping does; either way nothing recurses without bound.
  std::string text = "syntax = \"proto3\";\n";
  for (int i = 0; i < 70; ++i) {
    text += "message M" + std::to_string(i) + " { M" + std::to_string(i + 1) + " n = 1; }\n";
  }
  text += "message M70 { int32 v = 1; }\n";
  auto mapped = ProtobufToIcebergSchema(WriterSchema{WriterSchemaType::kProtobuf, text, {}}, {0});
  ASSERT_FALSE(mapped.has_value());
  EXPECT_NE(mapped.error().message().find("nests deeper than 64"), std::string::npos)
      << mapped.error().message();
  // A chain far longer than any stack allows is refused the same way.
  std::string chain = "syntax = \"proto3\";\n";
  for (int i = 0; i < 20000; ++i) {
    chain += "message C" + std::to_string(i) + " { C" + std::to_string(i + 1) + " n = 1; }\n";
  }
  chain += "message C20000 { }\n";
  EXPECT_FALSE(ProtobufToIcebergSchema(WriterSchema{WriterSchemaType::kProtobuf, chain, {}}, {0})
                   .has_value());
  // Definitions nested inside each other (the parser's own recursion).
  std::string nested = "syntax = \"proto3\";\n";
  for (int i = 0; i < 5000; ++i) nested += "message N" + std::to_string(i) + " { ";
  nested += std::string(5000, '}');
  EXPECT_FALSE(ProtobufToIcebergSchema(WriterSchema{WriterSchemaType::kProtobuf, nested, {}}, {0})
                   .has_value());
}

class ProtobufWriterTest : public DecodingFixture {};

TEST_F(ProtobufWriterTest, FramingAndRegistryCodes) {
  const WriterSchema w = Writer();
  auto options = Options(ValueFormat::kProtobufConfluent, MustTable(w));
  options.writer_schemas = [w](int32_t id) -> Result<WriterSchema> {
    if (id == 1) return w;
    if (id == 2) return WriterSchema{WriterSchemaType::kAvro, "\"int\"", {}};
    return Err(NotFound("no schema"));
  };
  auto writer = MustWriter(std::move(options));
  ASSERT_NE(writer, nullptr);
  const std::string header("\0\0\0\0\1", 5);
  auto code = [&](const std::string& value) {
    auto e = AddValue(*writer, value);
    return e ? e->code : std::string("ok");
  };
  EXPECT_EQ(code(header + std::string(1, '\0') + V(1, 5)), "ok");
  EXPECT_EQ(code(header + std::string("\x02\x00", 2) + V(1, 6)), "ok");  // [0] spelled out.
  EXPECT_EQ(code(header + std::string("\x02\x0e", 2) + V(1, 6)), kMalformedProtobuf);  // [7]
  EXPECT_EQ(code(std::string("\0\0\0\0\3\0", 6)), kSchemaNotFound);
  EXPECT_EQ(code(std::string("\0\0\0\0\2\0", 6)), kSchemaMismatch);
  EXPECT_EQ(code(std::string("\1\0\0\0\1\0", 6)), kWrongMagicByte);
  EXPECT_EQ(code(std::string("\0\0\0", 3)), kTruncatedPayload);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 2);
}

TEST_F(ProtobufWriterTest, TypedKeysDecodeIntoKafkaKey) {
  const WriterSchema key_schema{WriterSchemaType::kProtobuf,
                                "syntax = \"proto3\"; package k;\n"
                                "message K { int64 customer = 1; string region = 2; }\n",
                                {}};
  auto table = ChannelTableSchema(ValueFormat::kByteArray, std::nullopt, true, std::nullopt,
                                  KeyFormat::kProtobufConfluent);
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  EXPECT_EQ(table->FindFieldByName("_kafka.key"), nullptr);
  auto evolved = EvolveKeyForProtobuf(*table, key_schema, {0});
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  ASSERT_TRUE(evolved->changed);
  const iceberg::NestedField* customer = evolved->schema.FindFieldByName("_kafka.key.customer");
  ASSERT_NE(customer, nullptr);
  EXPECT_EQ(customer->type->id(), iceberg::TypeId::kLong);

  auto options = Options(ValueFormat::kByteArray, evolved->schema);
  options.key_format = KeyFormat::kProtobufConfluent;
  options.writer_schemas = [key_schema](int32_t id) -> Result<WriterSchema> {
    if (id == 7) return key_schema;
    if (id == 8) return WriterSchema{WriterSchemaType::kAvro, "\"int\"", {}};
    return Err(NotFound("no schema"));
  };
  auto writer = MustWriter(std::move(options));
  ASSERT_NE(writer, nullptr);
  int64_t offset = 0;
  auto add = [&](std::optional<std::string> key) {
    KafkaRecord record;
    record.topic = "t";
    record.offset = offset++;
    record.timestamp_ms = 1;
    record.value = "v";
    if (key) record.key = *key;
    auto result = writer->Add(record);
    EXPECT_TRUE(result.has_value());
    if (result && *result) {
      EXPECT_NE((*result)->message.find("record key"), std::string::npos) << (*result)->message;
    }
    return result && *result ? (*result)->code : std::string("ok");
  };
  const std::string header("\0\0\0\0\7\0", 6);  // Id 7, message [0].
  EXPECT_EQ(add(header + V(1, 42) + L(2, "eu")), "ok");
  EXPECT_EQ(add(header), "ok");  // Every field at its proto3 default.
  EXPECT_EQ(add(std::nullopt), "ok");
  EXPECT_EQ(add(std::string("\0\0\0\0\7\x02\x0e", 7) + V(1, 1)), kMalformedProtobuf);  // [7]
  EXPECT_EQ(add(header + std::string("\xff", 1)), kMalformedProtobuf);
  EXPECT_EQ(add(std::string("\0\0\0\0\x09\0", 6)), kSchemaNotFound);
  EXPECT_EQ(add(std::string("\0\0\0\0\x08\0", 6)), kSchemaMismatch);
  EXPECT_EQ(add(std::string("\x05", 1)), kWrongMagicByte);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 3);
  EXPECT_EQ(Bound((*files)[0], customer->id, *Type::Long(), false).int64_value(), 42);
  EXPECT_EQ(Bound((*files)[0], customer->id, *Type::Long(), true).int64_value(), 0);
}

}  // namespace
}  // namespace st::decoding
