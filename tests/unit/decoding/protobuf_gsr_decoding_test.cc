// PROTOBUF_GSR: the Glue Schema Registry message-index rule (every message
// type of the file, nested and map-entry ones included, sorted by full name),
// the framing (header, zlib, index varint) and the writer's codes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <map>

#include "common/uuid.h"
#include "decoding/protobuf_schema.h"
#include "decoding_test_fixture.h"
#include "protobuf_wire_builder.h"

namespace st::decoding {
namespace {

constexpr char kV1[] = "0f8a9c52-7d3b-4c1e-9a6f-2b5d8e4c7a10";
constexpr char kAvroVersion[] = "0f8a9c52-7d3b-4c1e-9a6f-2b5d8e4c7a11";
constexpr char kUnknown[] = "0f8a9c52-7d3b-4c1e-9a6f-2b5d8e4c7a12";

// Rec sorts after Alpha, and Rec's nested types are declared in the other
// order than their names sort (the map entry TagsEntry is nested_type 0).
constexpr char kSchema[] = R"(syntax = "proto3";
package gsr;
message Rec {
  int64 id = 1;
  string name = 2;
  map<string, int32> tags = 3;
  message Inner { int32 v = 1; }
  Inner inner = 4;
}
message Alpha { int32 z = 1; }
)";

WriterSchema Proto(const char* text) { return WriterSchema{WriterSchemaType::kProtobuf, text, {}}; }

using wire_builder::L;
using wire_builder::V;
using wire_builder::Varint;

// 0x03, compression, the version UUID, then the payload (zlib'd when asked).
std::string Frame(std::string_view payload, bool zlib = false, std::string_view id = kV1) {
  auto uuid = Uuid::Parse(id);
  EXPECT_TRUE(uuid.has_value());
  std::string out("\x03", 1);
  out.push_back(zlib ? '\x05' : '\x00');
  out.append(reinterpret_cast<const char*>(uuid->bytes.data()), 16);
  if (!zlib) return out + std::string(payload);
  uLongf size = compressBound(payload.size());
  std::string compressed(size, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(compressed.data()), &size,
                      reinterpret_cast<const Bytef*>(payload.data()), payload.size(), 6),
            Z_OK);
  compressed.resize(size);
  return out + compressed;
}

std::vector<int32_t> MustPath(const WriterSchema& w, uint32_t index) {
  auto path = GsrProtobufMessagePath(w, index);
  EXPECT_TRUE(path.has_value()) << (path ? "" : path.error().ToString());
  return path ? *path : std::vector<int32_t>{-1};
}

TEST(GsrProtobufMessageIndex, AwsDocumentedExample) {
  // AWS's MessageIndexFinder example: B = 0, B.A = 1, B.A.D = 2, B.C = 3.
  for (const char* text : {"syntax = \"proto3\"; message B { message C {} "
                           "message A { message D {} } }",
                           "syntax = \"proto3\"; package p.q; message B { message C {} "
                           "message A { message D {} } }"}) {
    const WriterSchema w = Proto(text);
    EXPECT_EQ(MustPath(w, 0), (std::vector<int32_t>{0}));        // B
    EXPECT_EQ(MustPath(w, 1), (std::vector<int32_t>{0, 1}));     // B.A
    EXPECT_EQ(MustPath(w, 2), (std::vector<int32_t>{0, 1, 0}));  // B.A.D
    EXPECT_EQ(MustPath(w, 3), (std::vector<int32_t>{0, 0}));     // B.C
    auto past = GsrProtobufMessagePath(w, 4);
    ASSERT_FALSE(past.has_value());
    EXPECT_EQ(past.error().code(), StatusCode::kNotFound);
    EXPECT_NE(past.error().message().find("has 4"), std::string::npos) << past.error().message();
  }
}

TEST(GsrProtobufMessageIndex, MapEntriesCountAndFullNamesSortByteWise) {
  const WriterSchema w = Proto(kSchema);
  // gsr.Alpha, gsr.Rec, gsr.Rec.Inner, gsr.Rec.TagsEntry.
  EXPECT_EQ(MustPath(w, 0), (std::vector<int32_t>{1}));
  EXPECT_EQ(MustPath(w, 1), (std::vector<int32_t>{0}));
  EXPECT_EQ(MustPath(w, 2), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(MustPath(w, 3), (std::vector<int32_t>{0, 0}));  // The map entry.
  EXPECT_FALSE(GsrProtobufMessagePath(w, 4).has_value());
  // Upper case sorts before lower case, '.' before letters (UTF-16 order
  // for ASCII names): Z, a, a.B, aB.
  const WriterSchema cased =
      Proto("syntax = \"proto3\"; message aB {} message a { message B {} } message Z {}");
  EXPECT_EQ(MustPath(cased, 0), (std::vector<int32_t>{2}));     // Z
  EXPECT_EQ(MustPath(cased, 1), (std::vector<int32_t>{1}));     // a
  EXPECT_EQ(MustPath(cased, 2), (std::vector<int32_t>{1, 0}));  // a.B
  EXPECT_EQ(MustPath(cased, 3), (std::vector<int32_t>{0}));     // aB
  auto broken = GsrProtobufMessagePath(Proto("syntax = \"proto3\"; message {"), 0);
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().code(), StatusCode::kInvalidArgument);
}

TEST(GsrProtobufMessageIndex, WellKnownImportsResolve) {
  const WriterSchema w = Proto(
      "syntax = \"proto3\"; package t; import \"google/protobuf/timestamp.proto\";\n"
      "message E { google.protobuf.Timestamp at = 1; }");
  EXPECT_EQ(MustPath(w, 0), (std::vector<int32_t>{0}));
  auto table = ProtobufToIcebergSchema(w, MustPath(w, 0));
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  EXPECT_EQ(table->FindFieldByName("at")->type->ToString(), "timestamptz");
}

TEST(GsrProtobufHeader, ReadsTheIndexPlainAndZlib) {
  GsrProtobufHeader header;
  RecordError error;
  ASSERT_TRUE(ReadGsrProtobufHeader(Frame(Varint(3) + V(1, 5)), &header, &error));
  EXPECT_EQ(header.schema_version_id, kV1);
  EXPECT_EQ(header.message_index, 3u);
  // Inside a zlib stream, and a multi-byte index.
  ASSERT_TRUE(
      ReadGsrProtobufHeader(Frame(Varint(300) + std::string(5000, 'x'), true), &header, &error));
  EXPECT_EQ(header.message_index, 300u);
  ASSERT_TRUE(ReadGsrProtobufHeader(Frame(Varint(0xFFFFFFFFu)), &header, &error));
  EXPECT_EQ(header.message_index, 0xFFFFFFFFu);

  auto code = [&](const std::string& value) {
    GsrProtobufHeader h;
    RecordError e;
    return ReadGsrProtobufHeader(value, &h, &e) ? std::string("ok") : e.code;
  };
  EXPECT_EQ(code(std::string("\x00\x00", 2) + std::string(16, '\0')), kMissingGsrHeader);
  EXPECT_EQ(code(std::string("\x03\x00", 2)), kMissingGsrHeader);
  EXPECT_EQ(code(Frame("")), kTruncatedPayload);                           // No index at all.
  EXPECT_EQ(code(Frame("\x80")), kTruncatedPayload);                       // Ends inside it.
  EXPECT_EQ(code(Frame(Varint(1ULL << 32))), kMalformedProtobuf);          // Above uint32.
  EXPECT_EQ(code(Frame("\x80\x80\x80\x80\x80\x01")), kMalformedProtobuf);  // Over 5 bytes.
  EXPECT_EQ(code(Frame("", true)), kTruncatedPayload);
  std::string corrupt = Frame(Varint(1) + V(1, 5), true);
  corrupt.resize(20);  // The zlib header only.
  EXPECT_EQ(code(corrupt), kMalformedProtobuf);
}

class FakeGlue : public GsrSchemaLookup {
 public:
  Result<std::string> Definition(const std::string& id) override {
    ST_ASSIGN_OR_RETURN(WriterSchema schema, Version(id));
    return schema.text;
  }
  Result<WriterSchema> Version(const std::string& id) override {
    ++lookups;
    if (unavailable) return Err(StatusCode::kUnavailable, "registry down");
    if (id == kV1) return Proto(kSchema);
    if (id == kAvroVersion) return WriterSchema{WriterSchemaType::kAvro, "\"int\"", {}};
    return Err(NotFound("schema version " + id));
  }
  int lookups = 0;
  bool unavailable = false;
};

class ProtobufGsrWriterTest : public DecodingFixture {};

TEST_F(ProtobufGsrWriterTest, DecodesTheIndexedMessageAndReportsEveryCode) {
  FakeGlue glue;
  auto table = ProtobufToIcebergSchema(Proto(kSchema), {0});  // gsr.Rec: GSR index 1.
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  auto options = Options(ValueFormat::kProtobufGsr, *table);
  options.gsr = &glue;
  auto writer = MustWriter(std::move(options));
  ASSERT_NE(writer, nullptr);
  auto code = [&](const std::string& value) {
    auto e = AddValue(*writer, value);
    return e ? e->code : std::string("ok");
  };
  const std::string rec = V(1, 42) + L(2, "x") + L(3, L(1, "k") + V(2, 7)) + L(4, V(1, 9));
  EXPECT_EQ(code(Frame(Varint(1) + rec)), "ok");
  EXPECT_EQ(code(Frame(Varint(1) + rec, true)), "ok");
  EXPECT_EQ(code(Frame(Varint(1))), "ok");  // Every field at its default.
  EXPECT_EQ(glue.lookups, 1);               // One plan per (version, index).

  auto bad_index = AddValue(*writer, Frame(Varint(4) + rec));
  ASSERT_TRUE(bad_index.has_value());
  EXPECT_EQ(bad_index->code, kMalformedProtobuf);
  EXPECT_EQ(bad_index->schema_version_id, kV1);
  EXPECT_NE(bad_index->message.find("message index 4"), std::string::npos) << bad_index->message;
  // gsr.Alpha lacks the table's required id: not this table's message.
  EXPECT_EQ(code(Frame(Varint(0) + V(1, 1))), kSchemaIncompatible);
  EXPECT_EQ(code(Frame(Varint(1) + V(1, 42) + std::string("\x12\x05x", 3))),
            kMalformedProtobuf);  // The name's length runs past the end.
  EXPECT_EQ(code(Frame(Varint(1) + rec, false, kUnknown)), kSchemaNotFound);
  auto avro = AddValue(*writer, Frame(Varint(1) + rec, false, kAvroVersion));
  ASSERT_TRUE(avro.has_value());
  EXPECT_EQ(avro->code, kSchemaMismatch);
  EXPECT_NE(avro->message.find("AVRO"), std::string::npos) << avro->message;
  EXPECT_EQ(code(std::string("\x00\x00", 2) + std::string(16, '\0') + rec), kMissingGsrHeader);
  EXPECT_EQ(code(Frame("")), kTruncatedPayload);
  std::string corrupt = Frame(Varint(1) + rec, true);
  corrupt.resize(corrupt.size() - 6);
  EXPECT_EQ(code(corrupt), kMalformedProtobuf);

  // A registry outage is not the record's fault: an error, nothing buffered.
  glue.unavailable = true;
  KafkaRecord record;
  record.topic = "t";
  const std::string value = Frame(Varint(2) + V(1, 1));
  record.value = value;
  auto outage = writer->Add(record);
  ASSERT_FALSE(outage.has_value());
  EXPECT_EQ(outage.error().code(), StatusCode::kUnavailable);

  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 3);
  const int32_t id_field = table->FindFieldByName("id")->id;
  EXPECT_EQ(Bound((*files)[0], id_field, *Type::Long(), true).int64_value(), 0);
  EXPECT_EQ(Bound((*files)[0], id_field, *Type::Long(), false).int64_value(), 42);
}

TEST_F(ProtobufGsrWriterTest, NeedsAGsrLookup) {
  auto table = ProtobufToIcebergSchema(Proto(kSchema), {0});
  ASSERT_TRUE(table.has_value());
  auto made =
      PartitionedFileWriter::Make(Options(ValueFormat::kProtobufGsr, *table), *io_, random_);
  ASSERT_FALSE(made.has_value());
  EXPECT_NE(made.error().message().find("GsrSchemaLookup"), std::string::npos);
}

}  // namespace
}  // namespace st::decoding
