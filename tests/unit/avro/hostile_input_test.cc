// Hostile and damaged input: every error is a Status, never a crash or an
// outsized allocation. Run under ASan/UBSan (ST_SANITIZE=ON) to mean much.
#include <gtest/gtest.h>

#include <random>

#include "avro/binary_reader_internal.h"
#include "avro/container.h"
#include "avro/deflate_internal.h"
#include "avro/encoding.h"
#include "golden_data.h"

namespace st::avro {
namespace {

using testing::Bytes;

std::string ValidFile(Codec codec, int generated) {
  auto schema = Schema::Parse(testing::EverythingSchemaJson());
  DefaultRandom random(3);
  ContainerWriterOptions options;
  options.codec = codec;
  options.block_target_bytes = 300;
  options.random = &random;
  options.metadata = {{"k", "v"}};
  MemoryOutputStream out;
  auto writer = ContainerWriter::Make(*schema, options, &out);
  for (const Value& r : testing::EverythingRecords(generated))
    EXPECT_TRUE((*writer)->Append(r).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return out.Release();
}

// Reads everything; returns the records read before the first error (if any).
std::vector<std::string> ReadPrefix(std::string_view file, Status* status) {
  std::vector<std::string> out;
  auto reader = ContainerReader::Open(file);
  if (!reader) {
    *status = reader.error();
    return out;
  }
  Value v;
  while (true) {
    auto more = (*reader)->Next(&v);
    if (!more) {
      *status = more.error();
      // Errors are sticky.
      EXPECT_EQ((*reader)->Next(&v).error(), more.error());
      return out;
    }
    if (!*more) break;
    out.push_back(testing::ValueToJson((*reader)->schema().root(), v));
  }
  *status = Status::OK();
  return out;
}

class Truncation : public ::testing::TestWithParam<Codec> {};

TEST_P(Truncation, EveryPrefixYieldsAnErrorOrAValidPrefix) {
  std::string file = ValidFile(GetParam(), 6);
  Status status;
  std::vector<std::string> all = ReadPrefix(file, &status);
  ASSERT_TRUE(status.ok()) << status.ToString();
  for (size_t cut = 0; cut < file.size(); ++cut) {
    std::vector<std::string> got = ReadPrefix(std::string_view(file).substr(0, cut), &status);
    ASSERT_LE(got.size(), all.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], all[i]) << "cut " << cut;
    if (status.ok()) {
      // Only a cut exactly between blocks can read cleanly.
      EXPECT_LT(got.size(), all.size() + 1);
    } else {
      EXPECT_TRUE(status.code() == StatusCode::kCorruption) << status.ToString();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, Truncation, ::testing::Values(Codec::kNull, Codec::kDeflate));

TEST(HostileInputTest, RandomBitFlipsNeverCrash) {
  std::mt19937_64 rng(99);
  for (Codec codec : {Codec::kNull, Codec::kDeflate}) {
    std::string file = ValidFile(codec, 10);
    int errors = 0;
    for (int iter = 0; iter < 1500; ++iter) {
      std::string damaged = file;
      int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) {
        size_t pos = rng() % damaged.size();
        damaged[pos] = static_cast<char>(damaged[pos] ^ (1 << (rng() % 8)));
      }
      Status status;
      ReadPrefix(damaged, &status);
      if (!status.ok()) {
        ++errors;
        EXPECT_FALSE(status.message().empty());
      }
    }
    EXPECT_GT(errors, 0);
  }
}

struct BadValue {
  const char* schema;
  std::string bytes;
  const char* message_part;
};

TEST(HostileInputTest, MalformedValuesAreCorruptionWithOffsets) {
  const BadValue cases[] = {
      {R"("long")", "", "input ends inside long"},
      {R"("long")", Bytes({0x80, 0x80}), "input ends inside long"},
      {R"("long")", Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}),
       "overflows 64 bits"},
      {R"("long")", Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
       "overflows 64 bits"},
      {R"("int")", Bytes({0xff, 0xff, 0xff, 0xff, 0x1f}), "does not fit an int"},
      {R"("boolean")", Bytes({2}), "neither 0 nor 1"},
      {R"("double")", Bytes({1, 2, 3}), "double of 8 bytes runs past the end"},
      {R"("string")", Bytes({0xfe, 0xff, 0xff, 0xff, 0x0f}), "exceeds the 0 bytes left"},
      {R"("bytes")", Bytes({0x01}), "negative length"},
      {R"({"type":"fixed","name":"f","size":4})", Bytes({1, 2}), "fixed of 4 bytes"},
      {R"(["null","int"])", Bytes({4}), "union branch index 2 out of range"},
      {R"(["null","int"])", Bytes({1}), "union branch index -1 out of range"},
      {R"({"type":"enum","name":"e","symbols":["A"]})", Bytes({2}), "enum index 1 out of range"},
      {R"({"type":"array","items":"long"})", Bytes({0xfe, 0xff, 0xff, 0xff, 0x0f, 2}),
       "array block count"},
      {R"({"type":"array","items":"null"})",
       Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), "zero-width"},
      {R"({"type":"array","items":"int"})", Bytes({3, 0x7e, 2, 4, 0}), "block byte size 63"},
      {R"({"type":"array","items":"int"})",
       Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
       "invalid array block count"},
      {R"({"type":"map","values":"null"})", Bytes({0x0e, 0}), "map block count 7"},
      {R"({"type":"array","items":"int"})", Bytes({2, 2}), "input ends inside array block count"},
  };
  for (const BadValue& c : cases) {
    auto schema = Schema::Parse(c.schema);
    ASSERT_TRUE(schema.has_value()) << c.schema;
    size_t offset = 0;
    auto value = Decode(*schema, c.bytes, &offset);
    ASSERT_FALSE(value.has_value()) << c.schema;
    EXPECT_EQ(value.error().code(), StatusCode::kCorruption);
    EXPECT_NE(value.error().message().find(c.message_part), std::string::npos)
        << c.schema << " -> " << value.error().message();
    EXPECT_NE(value.error().message().find("at byte offset"), std::string::npos);
  }
}

TEST(HostileInputTest, DeepRecursionIsBounded) {
  auto schema = Schema::Parse(
      R"({"type":"record","name":"n","fields":[{"name":"next","type":["null","n"]}]})");
  ASSERT_TRUE(schema.has_value());
  std::string bytes(100000, '\x02');  // Always the "n" branch.
  size_t offset = 0;
  auto value = Decode(*schema, bytes, &offset);
  ASSERT_FALSE(value.has_value());
  EXPECT_NE(value.error().message().find("nested deeper"), std::string::npos);
}

// Builds a container header by hand, for codec and schema errors.
std::string Header(const std::string& schema_json, const std::string& codec) {
  std::string out("Obj\x01", 4);
  internal::AppendLong(codec.empty() ? 1 : 2, &out);
  for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
           {"avro.schema", schema_json}, {"avro.codec", codec}}) {
    if (v.empty()) continue;
    internal::AppendLong(static_cast<int64_t>(k.size()), &out);
    out += k;
    internal::AppendLong(static_cast<int64_t>(v.size()), &out);
    out += v;
  }
  out.push_back(0);
  out += std::string(16, 'S');
  return out;
}

TEST(HostileInputTest, ContainerHeaderAndBlockErrors) {
  struct Case {
    std::string file;
    StatusCode code;
    const char* message_part;
  };
  std::string good = Header(R"("long")", "null");
  std::string block = Bytes({2, 2, 2}) + std::string(16, 'S');
  const Case cases[] = {
      {"", StatusCode::kCorruption, "bad magic"},
      {"Obj\x02", StatusCode::kCorruption, "bad magic"},
      {Header(R"("long")", "snappy"), StatusCode::kUnsupported, "snappy"},
      {Header(R"("long")", "lzma9000"), StatusCode::kCorruption, "unknown codec"},
      {Header(R"({"type":"nope"})", "null"), StatusCode::kCorruption, "avro.schema is invalid"},
      {Header("", "null").replace(4, 1, Bytes({2})), StatusCode::kCorruption, "no avro.schema"},
      {good.substr(0, good.size() - 3), StatusCode::kCorruption, "header sync marker"},
      {good + Bytes({2, 2, 2}) + std::string(16, 'X'), StatusCode::kCorruption,
       "sync marker mismatch"},
      {good + Bytes({2, 0x7e, 2}), StatusCode::kCorruption, "truncated block"},
      {good + Bytes({0xfe, 0xff, 0xff, 0x0f, 2, 2}) + std::string(16, 'S'), StatusCode::kCorruption,
       "claims"},
      {good + Bytes({1, 2, 2}) + std::string(16, 'S'), StatusCode::kCorruption,
       "negative block record count"},
      {good + Bytes({2, 4, 2, 2}) + std::string(16, 'S'), StatusCode::kCorruption,
       "after its last record"},
      {good + Bytes({4, 2, 2}) + std::string(16, 'S'), StatusCode::kCorruption,
       "claims 2 records in 1 bytes"},
      {good + Bytes({2, 2, 0x80}) + std::string(16, 'S'), StatusCode::kCorruption,
       "input ends inside long at byte offset 60"},
      {Header(R"("long")", "deflate") + block, StatusCode::kCorruption, "deflate"},
      {good.substr(0, 4) + Bytes({0xfe, 0xff, 0xff, 0xff, 0x0f}), StatusCode::kCorruption,
       "header metadata count"},
  };
  for (const Case& c : cases) {
    Status status;
    ReadPrefix(c.file, &status);
    EXPECT_EQ(status.code(), c.code) << c.message_part << ": " << status.ToString();
    EXPECT_NE(status.message().find(c.message_part), std::string::npos)
        << c.message_part << ": " << status.ToString();
  }
  // The well-formed block reads.
  Status status;
  EXPECT_EQ(ReadPrefix(good + block, &status).size(), 1u);
  EXPECT_TRUE(status.ok()) << status.ToString();
}

TEST(HostileInputTest, InflatedBlockSizeIsCapped) {
  auto schema =
      Schema::Parse(R"({"type":"record","name":"r","fields":[{"name":"s","type":"string"}]})");
  DefaultRandom random(1);
  ContainerWriterOptions options;
  options.random = &random;
  options.block_target_bytes = size_t{4} << 20;
  MemoryOutputStream out;
  auto writer = ContainerWriter::Make(*schema, options, &out);
  ASSERT_TRUE(
      (*writer)->Append(Value::MakeStruct({Value::String(std::string(2 << 20, 'a'))})).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_LT(out.buffer().size(), 10000u);
  ContainerReaderOptions small;
  small.max_block_bytes = 1 << 20;
  auto reader = ContainerReader::Open(out.buffer(), small);
  ASSERT_TRUE(reader.has_value());
  Value v;
  auto next = (*reader)->Next(&v);
  ASSERT_FALSE(next.has_value());
  EXPECT_NE(next.error().message().find("inflates to more than"), std::string::npos);
  auto ok_reader = ContainerReader::Open(out.buffer());
  EXPECT_EQ((*ok_reader)->Next(&v), true);
}

}  // namespace
}  // namespace st::avro

namespace st::avro {
namespace {

// fastavro leaves 3 bytes of zlib's Adler-32 trailer after each deflate
// stream; Java ignores them and so must we.
TEST(HostileInputTest, DeflateBlockMayCarryTrailingBytes) {
  std::string records;
  internal::AppendLong(-11, &records);
  std::string compressed;
  ASSERT_TRUE(internal::DeflateRaw(records, 6, &compressed).ok());
  compressed += "\x01\x02\x03";
  std::string file = Header(R"("long")", "deflate");
  internal::AppendLong(1, &file);
  internal::AppendLong(static_cast<int64_t>(compressed.size()), &file);
  file += compressed + std::string(16, 'S');
  auto reader = ContainerReader::Open(file);
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  auto all = (*reader)->ReadAll();
  ASSERT_TRUE(all.has_value()) << all.error().ToString();
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0], Value::Int64(-11));
}

}  // namespace
}  // namespace st::avro
