// JSON_SCHEMA_GSR framing: header checks, zlib payloads, schema lookups.
#include <gtest/gtest.h>
#include <zlib.h>

#include <map>

#include "common/uuid.h"
#include "decoding_test_fixture.h"

namespace st::decoding {
namespace {

constexpr char kVersionId[] = "0f8a9c52-7d3b-4c1e-9a6f-2b5d8e4c7a10";

class FakeRegistry : public GsrSchemaLookup {
 public:
  Result<std::string> Definition(const std::string& id) override {
    ++lookups;
    if (unavailable) return Err(StatusCode::kUnavailable, "registry down");
    auto it = definitions.find(id);
    if (it == definitions.end()) return Err(NotFound("schema version " + id));
    return it->second;
  }
  Result<WriterSchema> Version(const std::string& id) override {
    ST_ASSIGN_OR_RETURN(std::string definition, Definition(id));
    return WriterSchema{WriterSchemaType::kJson, std::move(definition)};
  }
  std::map<std::string, std::string> definitions;
  int lookups = 0;
  bool unavailable = false;
};

std::string Frame(std::string_view payload, bool compress = false,
                  std::string_view id = kVersionId) {
  auto uuid = Uuid::Parse(id);
  EXPECT_TRUE(uuid.has_value());
  std::string out;
  out.push_back('\x03');
  out.push_back(compress ? '\x05' : '\x00');
  out.append(reinterpret_cast<const char*>(uuid->bytes.data()), 16);
  if (!compress) return out + std::string(payload);
  uLongf size = compressBound(payload.size());
  std::string compressed(size, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(compressed.data()), &size,
                      reinterpret_cast<const Bytef*>(payload.data()), payload.size(), 6),
            Z_OK);
  compressed.resize(size);
  return out + compressed;
}

class GsrDecodingTest : public DecodingFixture {
 protected:
  std::unique_ptr<PartitionedFileWriter> Writer() {
    schema_ =
        MustSchema({{1, "id", true, Type::Long(), ""}, {2, "name", false, Type::String(), ""}});
    registry_.definitions[kVersionId] = R"({"type":"object"})";
    auto options = Options(ValueFormat::kJsonSchemaGsr, *schema_);
    options.gsr = &registry_;
    options.schema_matches = [this](const WriterSchema& schema) -> Result<bool> {
      const std::string& definition = schema.text;
      ++match_calls_;
      if (definition == "broken") return Err(InvalidArgument("definition is not JSON"));
      return definition == R"({"type":"object"})";
    };
    return MustWriter(std::move(options));
  }
  std::optional<iceberg::Schema> schema_;
  FakeRegistry registry_;
  int match_calls_ = 0;
};

TEST_F(GsrDecodingTest, PlainAndZlibPayloadsDecode) {
  auto writer = Writer();
  EXPECT_EQ(AddValue(*writer, Frame(R"({"id": 1, "name": "a"})")), std::nullopt);
  EXPECT_EQ(AddValue(*writer, Frame(R"({"id": 2, "name": "b"})", true)), std::nullopt);
  EXPECT_EQ(registry_.lookups, 1);  // Cached per version id.
  EXPECT_EQ(match_calls_, 1);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 2);
  EXPECT_EQ(Bound((*files)[0], 1, *Type::Long(), false), Value::Int64(2));
  EXPECT_EQ(Bound((*files)[0], 2, *Type::String(), true), Value::String("a"));
}

TEST_F(GsrDecodingTest, BadFramingIsMissingGsrHeader) {
  auto writer = Writer();
  const std::pair<std::string, std::string> cases[] = {
      {R"({"id": 1, "name": "abcdefghijkl"})", "not the Glue Schema Registry header version 0x03"},
      {std::string("\x03\x00\x01", 3), "fewer than the 18-byte"},
      {std::string("\x00\x00\x00\x00\x01", 5) + R"({"id": 1, "name": "abcdefghijkl"})",
       "0x00, not the Glue"},  // Confluent framing.
      {"\x03\x07" + Frame("{}").substr(2), "compression byte 0x07"},
  };
  for (const auto& [value, message] : cases) {
    auto error = AddValue(*writer, value);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, kMissingGsrHeader);
    EXPECT_NE(error->message.find(message), std::string::npos) << error->message;
  }
}

TEST_F(GsrDecodingTest, UnknownVersionIsSchemaNotFound) {
  auto writer = Writer();
  const std::string other = "11111111-2222-3333-4444-555555555555";
  auto error = AddValue(*writer, Frame(R"({"id": 1})", false, other));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kSchemaNotFound);
  EXPECT_EQ(error->schema_version_id, other);
  EXPECT_NE(error->message.find(other), std::string::npos);
  // Registered later: found then (NotFound is not cached).
  registry_.definitions[other] = R"({"type":"object"})";
  EXPECT_EQ(AddValue(*writer, Frame(R"({"id": 1})", false, other)), std::nullopt);
}

TEST_F(GsrDecodingTest, MismatchingVersionIsSchemaMismatch) {
  auto writer = Writer();
  const std::string other = "11111111-2222-3333-4444-555555555555";
  const std::string broken = "21111111-2222-3333-4444-555555555555";
  registry_.definitions[other] = R"({"type":"object","properties":{}})";
  registry_.definitions[broken] = "broken";
  auto error = AddValue(*writer, Frame(R"({"id": 1})", false, other));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kSchemaMismatch);
  EXPECT_EQ(error->schema_version_id, other);
  EXPECT_NE(error->message.find("does not map to the table's columns"), std::string::npos);
  error = AddValue(*writer, Frame(R"({"id": 1})", false, broken));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kSchemaMismatch);
  EXPECT_NE(error->message.find("definition is not JSON"), std::string::npos);
}

TEST_F(GsrDecodingTest, PayloadErrorsCarryTheVersionId) {
  auto writer = Writer();
  auto error = AddValue(*writer, Frame(R"({"name": "x"})"));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kMissingRequiredField);
  EXPECT_EQ(error->schema_version_id, kVersionId);
  error = AddValue(*writer, Frame("{oops"));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kMalformedJson);
  error = AddValue(*writer, Frame("{}", true).substr(0, 18) + "\x78\x9c\x01\x02");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kMalformedJson);
  EXPECT_NE(error->message.find("zlib"), std::string::npos);
}

TEST_F(GsrDecodingTest, InflationIsCapped) {
  schema_ = MustSchema({{1, "id", true, Type::Long(), ""}, {2, "name", false, Type::String(), ""}});
  registry_.definitions[kVersionId] = "{}";
  auto options = Options(ValueFormat::kJsonSchemaGsr, *schema_);
  options.gsr = &registry_;
  options.max_record_bytes = 100000;
  auto writer = MustWriter(std::move(options));
  const std::string payload = R"({"id": 1, "name": ")" + std::string(500000, 'a') + "\"}";
  const std::string framed = Frame(payload, true);
  ASSERT_LT(framed.size(), 100000u);
  auto error = AddValue(*writer, framed);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kRecordTooLarge);
}

TEST_F(GsrDecodingTest, RegistryOutageIsAStatusAndTheWriterStaysUsable) {
  auto writer = Writer();
  registry_.unavailable = true;
  KafkaRecord record;
  const std::string value = Frame(R"({"id": 1})");
  record.value = value;
  auto result = writer->Add(record);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code(), StatusCode::kUnavailable);
  registry_.unavailable = false;
  EXPECT_EQ(AddValue(*writer, value), std::nullopt);
}

}  // namespace
}  // namespace st::decoding
