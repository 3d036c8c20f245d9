#include "avro/container.h"

#include <gtest/gtest.h>

#include "golden_data.h"

namespace st::avro {
namespace {

Schema Everything() {
  auto schema = Schema::Parse(testing::EverythingSchemaJson());
  EXPECT_TRUE(schema.has_value());
  return *schema;
}

std::string WriteFile(const Schema& schema, const std::vector<Value>& records, Codec codec,
                      size_t block_bytes = 1024, uint64_t seed = 1) {
  DefaultRandom random(seed);
  ContainerWriterOptions options;
  options.codec = codec;
  options.block_target_bytes = block_bytes;
  options.metadata = {{"format-version", "2"}, {"snapshot-id", "123"}, {"schema", "{}"}};
  options.random = &random;
  MemoryOutputStream out;
  auto writer = ContainerWriter::Make(schema, options, &out);
  EXPECT_TRUE(writer.has_value()) << writer.error().ToString();
  for (const Value& r : records) EXPECT_TRUE((*writer)->Append(r).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->records_written(), static_cast<int64_t>(records.size()));
  return out.Release();
}

void ExpectSameRecords(const std::vector<Value>& got, const std::vector<Value>& want,
                       const Schema& schema) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(testing::ValueToJson(schema.root(), got[i]),
              testing::ValueToJson(schema.root(), want[i]))
        << "record " << i;
  }
}

class ContainerRoundTrip : public ::testing::TestWithParam<Codec> {};

TEST_P(ContainerRoundTrip, WritesAndReadsBack) {
  Schema schema = Everything();
  std::vector<Value> records = testing::EverythingRecords(200);
  std::string file = WriteFile(schema, records, GetParam());
  ASSERT_EQ(file.substr(0, 4), std::string("Obj\x01", 4));
  auto reader = ContainerReader::Open(file);
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  EXPECT_EQ((*reader)->codec(), GetParam());
  EXPECT_EQ((*reader)->FindMetadata("avro.codec"), CodecName(GetParam()));
  EXPECT_EQ((*reader)->FindMetadata("format-version"), "2");
  EXPECT_EQ((*reader)->FindMetadata("snapshot-id"), "123");
  EXPECT_EQ((*reader)->FindMetadata("schema"), "{}");
  EXPECT_EQ((*reader)->FindMetadata("missing"), std::nullopt);
  EXPECT_EQ((*reader)->schema().ToJson(), schema.ToJson());
  auto got = (*reader)->ReadAll();
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  ExpectSameRecords(*got, records, schema);
  // Reading past the end stays at the end.
  Value v;
  EXPECT_EQ((*reader)->Next(&v), false);
}

INSTANTIATE_TEST_SUITE_P(Codecs, ContainerRoundTrip,
                         ::testing::Values(Codec::kNull, Codec::kDeflate));

TEST(ContainerTest, SyncMarkerComesFromTheInjectedRandom) {
  Schema schema = Everything();
  std::vector<Value> records = testing::EverythingRecords(5);
  EXPECT_EQ(WriteFile(schema, records, Codec::kDeflate, 1024, 7),
            WriteFile(schema, records, Codec::kDeflate, 1024, 7));
  EXPECT_NE(WriteFile(schema, records, Codec::kDeflate, 1024, 7),
            WriteFile(schema, records, Codec::kDeflate, 1024, 8));
}

TEST(ContainerTest, DeflateCompresses) {
  Schema schema = Everything();
  std::vector<Value> records = testing::EverythingRecords(500);
  EXPECT_LT(WriteFile(schema, records, Codec::kDeflate, 64 * 1024).size(),
            WriteFile(schema, records, Codec::kNull, 64 * 1024).size() * 3 / 4);
}

TEST(ContainerTest, EmptyFileHasNoRecords) {
  std::string file = WriteFile(Everything(), {}, Codec::kDeflate);
  auto reader = ContainerReader::Open(file);
  ASSERT_TRUE(reader.has_value());
  auto got = (*reader)->ReadAll();
  ASSERT_TRUE(got.has_value());
  EXPECT_TRUE(got->empty());
}

TEST(ContainerTest, WriterErrorsAreSticky) {
  MemoryOutputStream out;
  auto schema =
      Schema::Parse(R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"}]})");
  auto writer = ContainerWriter::Make(*schema, {}, &out);
  ASSERT_TRUE(writer.has_value());
  Status bad = (*writer)->Append(Value::MakeStruct({Value::String("no")}));
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("record 0"), std::string::npos) << bad.message();
  EXPECT_EQ((*writer)->Append(Value::MakeStruct({Value::Int32(1)})), bad);
  EXPECT_EQ((*writer)->Close(), bad);
}

class FailingStream final : public OutputStream {
 public:
  using OutputStream::Write;
  Status Write(const void*, size_t) override { return IoError("disk full"); }
  int64_t Position() const override { return 0; }
};

TEST(ContainerTest, StreamErrorsSurface) {
  FailingStream out;
  auto writer = ContainerWriter::Make(Schema(), {}, &out);
  ASSERT_FALSE(writer.has_value());
  EXPECT_EQ(writer.error().code(), StatusCode::kIo);
}

TEST(ContainerTest, RejectsBadOptions) {
  MemoryOutputStream out;
  ContainerWriterOptions options;
  options.metadata = {{"avro.schema", "x"}};
  EXPECT_EQ(ContainerWriter::Make(Schema(), options, &out).error().code(),
            StatusCode::kInvalidArgument);
  options.metadata = {};
  options.deflate_level = 11;
  EXPECT_EQ(ContainerWriter::Make(Schema(), options, &out).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(ContainerWriter::Make(Schema(), {}, nullptr).has_value());
}

TEST(ContainerTest, AppendAfterCloseFails) {
  MemoryOutputStream out;
  auto writer = ContainerWriter::Make(Schema(), {}, &out);
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_TRUE((*writer)->Close().ok());
  EXPECT_EQ((*writer)->Append(Value()).code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace st::avro
