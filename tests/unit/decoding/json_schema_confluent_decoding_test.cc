// JSON_SCHEMA_CONFLUENT framing: header checks, schema lookups by id (not
// found, not a JSON Schema, not the table's), payload errors, outages.
#include <gtest/gtest.h>

#include <map>

#include "decoding/json_schema_evolution.h"
#include "decoding_test_fixture.h"

namespace st::decoding {
namespace {

constexpr int32_t kJsonSchemaId = 7;
constexpr char kJsonDefinition[] = R"({"type":"object"})";

std::string ConfluentJsonFrame(std::string_view payload, int32_t id = kJsonSchemaId) {
  const auto bits = static_cast<uint32_t>(id);
  std::string out(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(bits >> shift));
  return out + std::string(payload);
}

class JsonSchemaConfluentTest : public DecodingFixture {
 protected:
  std::unique_ptr<PartitionedFileWriter> Writer() {
    schema_ =
        MustSchema({{1, "id", true, Type::Long(), ""}, {2, "name", false, Type::String(), ""}});
    schemas_[kJsonSchemaId] = WriterSchema{WriterSchemaType::kJson, kJsonDefinition, {}};
    auto options = Options(ValueFormat::kJsonSchemaConfluent, *schema_);
    options.writer_schemas = [this](int32_t id) -> Result<WriterSchema> {
      ++lookups_;
      if (unavailable_) return Err(StatusCode::kUnavailable, "registry down");
      auto it = schemas_.find(id);
      if (it == schemas_.end()) return Err(NotFound("schema " + std::to_string(id)));
      return it->second;
    };
    options.schema_matches = [this](const WriterSchema& schema) -> Result<bool> {
      const std::string& definition = schema.text;
      ++match_calls_;
      if (definition == "broken") return Err(InvalidArgument("definition is not JSON"));
      return definition == kJsonDefinition;
    };
    return MustWriter(std::move(options));
  }

  RecordError MustReject(PartitionedFileWriter& writer, const std::string& value) {
    auto error = AddValue(writer, value);
    EXPECT_TRUE(error.has_value());
    return error.value_or(RecordError{});
  }

  std::optional<iceberg::Schema> schema_;
  std::map<int32_t, WriterSchema> schemas_;
  int lookups_ = 0;
  int match_calls_ = 0;
  bool unavailable_ = false;
};

TEST_F(JsonSchemaConfluentTest, FramedPayloadsDecode) {
  auto writer = Writer();
  EXPECT_EQ(AddValue(*writer, ConfluentJsonFrame(R"({"id": 1, "name": "a"})")), std::nullopt);
  EXPECT_EQ(AddValue(*writer, ConfluentJsonFrame(R"({"id": 2, "name": "b", "extra": [1]})")),
            std::nullopt);
  EXPECT_EQ(lookups_, 1);  // Cached per schema id.
  EXPECT_EQ(match_calls_, 1);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 2);
  EXPECT_EQ(Bound((*files)[0], 1, *Type::Long(), false), Value::Int64(2));
  EXPECT_EQ(Bound((*files)[0], 2, *Type::String(), true), Value::String("a"));
}

TEST_F(JsonSchemaConfluentTest, HighBitSchemaIdsAreReadBigEndian) {
  auto writer = Writer();
  const int32_t id = static_cast<int32_t>(0x80010203u);
  schemas_[id] = WriterSchema{WriterSchemaType::kJson, kJsonDefinition, {}};
  EXPECT_EQ(AddValue(*writer, ConfluentJsonFrame(R"({"id": 1})", id)), std::nullopt);
  const RecordError error = MustReject(*writer, ConfluentJsonFrame(R"({"name": "x"})", id));
  EXPECT_EQ(error.schema_version_id, std::to_string(id));
}

TEST_F(JsonSchemaConfluentTest, BadFramingHasItsOwnCodes) {
  auto writer = Writer();
  RecordError error = MustReject(*writer, R"({"id": 1, "name": "unframed"})");
  EXPECT_EQ(error.code, kWrongMagicByte);
  EXPECT_NE(error.message.find("0x7b"), std::string::npos) << error.message;
  // GSR framing on a Confluent channel.
  error = MustReject(*writer, std::string("\x03\x00", 2) + std::string(16, 'a') + "{}");
  EXPECT_EQ(error.code, kWrongMagicByte);
  error = MustReject(*writer, std::string("\x00\x00\x00", 3));
  EXPECT_EQ(error.code, kTruncatedPayload);
  EXPECT_NE(error.message.find("fewer than the 5-byte"), std::string::npos) << error.message;
  error = MustReject(*writer, "");
  EXPECT_EQ(error.code, kTruncatedPayload);
  EXPECT_EQ(lookups_, 0);  // Framing is checked before the registry is asked.
}

TEST_F(JsonSchemaConfluentTest, UnknownIdIsSchemaNotFoundUntilRegistered) {
  auto writer = Writer();
  RecordError error = MustReject(*writer, ConfluentJsonFrame(R"({"id": 1})", 99));
  EXPECT_EQ(error.code, kSchemaNotFound);
  EXPECT_EQ(error.schema_version_id, "99");
  EXPECT_NE(error.message.find("99"), std::string::npos);
  // NotFound is not cached: the id may be registered later.
  schemas_[99] = WriterSchema{WriterSchemaType::kJson, kJsonDefinition, {}};
  EXPECT_EQ(AddValue(*writer, ConfluentJsonFrame(R"({"id": 1})", 99)), std::nullopt);
}

TEST_F(JsonSchemaConfluentTest, AvroProtobufAndForeignSchemasAreSchemaMismatch) {
  auto writer = Writer();
  schemas_[10] = WriterSchema{WriterSchemaType::kAvro, R"({"type":"string"})", {}};
  schemas_[11] = WriterSchema{WriterSchemaType::kProtobuf, "syntax = \"proto3\";", {}};
  schemas_[12] = WriterSchema{WriterSchemaType::kJson, R"({"type":"object","properties":{}})", {}};
  schemas_[13] = WriterSchema{WriterSchemaType::kJson, "broken", {}};
  const std::pair<int32_t, std::string> cases[] = {
      {10, "is an AVRO schema"},
      {11, "is a PROTOBUF schema"},
      {12, "does not map to the table's columns"},
      {13, "definition is not JSON"},
  };
  for (const auto& [id, message] : cases) {
    for (int repeat = 0; repeat < 2; ++repeat) {
      const RecordError error = MustReject(*writer, ConfluentJsonFrame(R"({"id": 1})", id));
      EXPECT_EQ(error.code, kSchemaMismatch) << id;
      EXPECT_EQ(error.schema_version_id, std::to_string(id));
      EXPECT_NE(error.message.find(message), std::string::npos) << error.message;
    }
  }
  EXPECT_EQ(lookups_, 4);  // Refusals are cached too.
  // The type check comes first: schema_matches only sees JSON Schemas.
  EXPECT_EQ(match_calls_, 2);
}

TEST_F(JsonSchemaConfluentTest, PayloadErrorsUseTheJsonCodesAndCarryTheId) {
  auto writer = Writer();
  const std::pair<std::string, std::string_view> cases[] = {
      {R"({"name": "x"})", kMissingRequiredField},
      {R"({"id": "one"})", kTypeMismatch},
      {R"({"id": {"nested": 1}})", kTypeMismatch},
      {"{oops", kMalformedJson},
      {"", kMalformedJson},
      {R"({"id": 1, "id": 2})", kMalformedJson},
      {"\xff\xfe", kMalformedJson},
  };
  for (const auto& [payload, code] : cases) {
    const RecordError error = MustReject(*writer, ConfluentJsonFrame(payload));
    EXPECT_EQ(error.code, code) << payload;
    EXPECT_EQ(error.schema_version_id, std::to_string(kJsonSchemaId));
  }
  // Nothing of the rejected records was kept.
  EXPECT_EQ(AddValue(*writer, ConfluentJsonFrame(R"({"id": 5})")), std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 1);
}

TEST_F(JsonSchemaConfluentTest, RegistryOutageIsAStatusAndTheWriterStaysUsable) {
  auto writer = Writer();
  unavailable_ = true;
  KafkaRecord record;
  const std::string value = ConfluentJsonFrame(R"({"id": 1})");
  record.value = value;
  auto result = writer->Add(record);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code(), StatusCode::kUnavailable);
  unavailable_ = false;
  EXPECT_EQ(AddValue(*writer, value), std::nullopt);
}

TEST_F(JsonSchemaConfluentTest, NeedsAWriterSchemaLookup) {
  schema_ = MustSchema({{1, "id", true, Type::Long(), ""}});
  auto options = Options(ValueFormat::kJsonSchemaConfluent, *schema_);
  auto writer = PartitionedFileWriter::Make(std::move(options), *io_, random_);
  ASSERT_FALSE(writer.has_value());
  EXPECT_EQ(writer.error().code(), StatusCode::kInvalidArgument);
}

// Adds a record with `key` (none: key-less) at `offset`; "ok" or the error
// code, whose message must start with "record key".
std::string AddKeyed(PartitionedFileWriter& writer, int64_t offset,
                     const std::optional<std::string>& key) {
  KafkaRecord record;
  record.topic = "t";
  record.offset = offset;
  record.timestamp_ms = 1;
  record.value = "v";
  if (key) record.key = *key;
  auto result = writer.Add(record);
  EXPECT_TRUE(result.has_value());
  if (result && *result) {
    EXPECT_NE((*result)->message.find("record key"), std::string::npos) << (*result)->message;
  }
  return result && *result ? (*result)->code : std::string("ok");
}

TEST_F(DecodingFixture, JsonKeysDecodeIntoKafkaKey) {
  auto table = ChannelTableSchema(ValueFormat::kByteArray, std::nullopt, true, std::nullopt,
                                  KeyFormat::kJsonSchemaConfluent);
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  EXPECT_EQ(table->FindFieldByName("_kafka.key"), nullptr);
  const iceberg::Schema key_version =
      MustSchema({{1, "customer", true, Type::Long(), ""},
                  {2, "region", false, Type::String(), ""},
                  {3, "parts", false, Type::List(4, false, Type::Int()), ""}});
  auto evolved = EvolveKeyForJsonSchema(*table, key_version);
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  ASSERT_TRUE(evolved->changed);
  const NestedField* key = evolved->schema.FindFieldByName("_kafka.key");
  ASSERT_NE(key, nullptr);
  EXPECT_FALSE(key->required);
  EXPECT_GT(key->id, table->HighestFieldId());
  const NestedField* customer = evolved->schema.FindFieldByName("_kafka.key.customer");
  ASSERT_NE(customer, nullptr);
  EXPECT_GT(customer->id, key->id);
  // The same version again: unchanged; a new optional member: added; another
  // type: refused naming the key field.
  auto same = EvolveKeyForJsonSchema(evolved->schema, key_version);
  ASSERT_TRUE(same.has_value());
  EXPECT_FALSE(same->changed);
  auto more =
      EvolveKeyForJsonSchema(evolved->schema, MustSchema({{1, "customer", true, Type::Long(), ""},
                                                          {2, "tier", false, Type::String(), ""}}));
  ASSERT_TRUE(more.has_value()) << more.error().ToString();
  EXPECT_NE(more->schema.FindFieldByName("_kafka.key.tier"), nullptr);
  auto bad = EvolveKeyForJsonSchema(evolved->schema,
                                    MustSchema({{1, "customer", true, Type::String(), ""}}));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("_kafka.key.customer"), std::string::npos)
      << bad.error().message();

  auto options = Options(ValueFormat::kByteArray, evolved->schema);
  options.key_format = KeyFormat::kJsonSchemaConfluent;
  options.writer_schemas = [](int32_t id) -> Result<WriterSchema> {
    if (id == kJsonSchemaId) return WriterSchema{WriterSchemaType::kJson, kJsonDefinition, {}};
    if (id == 8) return WriterSchema{WriterSchemaType::kAvro, "\"long\"", {}};
    return Err(NotFound("no schema"));
  };
  auto writer = MustWriter(std::move(options));
  ASSERT_NE(writer, nullptr);
  int64_t offset = 0;
  auto add = [&](std::optional<std::string> key) { return AddKeyed(*writer, offset++, key); };
  EXPECT_EQ(add(ConfluentJsonFrame(R"({"customer": 42, "region": "eu", "parts": [1, null]})")),
            "ok");
  EXPECT_EQ(add(ConfluentJsonFrame(R"({"customer": -7})")), "ok");
  EXPECT_EQ(add(std::nullopt), "ok");
  EXPECT_EQ(add(ConfluentJsonFrame(R"({"region": "eu"})")), kMissingRequiredField);
  EXPECT_EQ(add(ConfluentJsonFrame(R"({"customer": "x"})")), kTypeMismatch);
  EXPECT_EQ(add(ConfluentJsonFrame(R"({"customer": 1)")), kMalformedJson);
  EXPECT_EQ(add(ConfluentJsonFrame("[1]")), kTypeMismatch);
  EXPECT_EQ(add(ConfluentJsonFrame(R"({"customer": 1})", 9)), kSchemaNotFound);
  EXPECT_EQ(add(ConfluentJsonFrame(R"({"customer": 1})", 8)), kSchemaMismatch);
  EXPECT_EQ(add(std::string("\x05{}", 3)), kWrongMagicByte);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 3);
  EXPECT_EQ(Bound((*files)[0], customer->id, *Type::Long(), false).int64_value(), 42);
  EXPECT_EQ(Bound((*files)[0], customer->id, *Type::Long(), true).int64_value(), -7);
}

TEST_F(DecodingFixture, JsonKeysThatAreNotObjectsDecodeIntoAPrimitiveKafkaKey) {
  auto table = ChannelTableSchema(ValueFormat::kByteArray, std::nullopt, true, std::nullopt,
                                  KeyFormat::kJsonSchemaConfluent);
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  // The mapping of {"type":"integer","minimum":0,"maximum":1000}: one field "key".
  auto evolved =
      EvolveKeyForJsonSchema(*table, MustSchema({{1, "key", true, Type::Int(), ""}}), true);
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  ASSERT_TRUE(evolved->changed);
  const NestedField* key = evolved->schema.FindFieldByName("_kafka.key");
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(key->type->ToString(), "int");
  EXPECT_FALSE(key->required);
  // int → long widens it; the same or a narrower type leaves it; a string or
  // an object is a type change naming _kafka.key.
  auto wider = EvolveKeyForJsonSchema(evolved->schema,
                                      MustSchema({{1, "key", true, Type::Long(), ""}}), true);
  ASSERT_TRUE(wider.has_value()) << wider.error().ToString();
  EXPECT_TRUE(wider->changed);
  EXPECT_EQ(wider->schema.FindFieldByName("_kafka.key")->type->ToString(), "long");
  EXPECT_EQ(wider->schema.FindFieldByName("_kafka.key")->id, key->id);
  auto same =
      EvolveKeyForJsonSchema(wider->schema, MustSchema({{1, "key", true, Type::Int(), ""}}), true);
  ASSERT_TRUE(same.has_value());
  EXPECT_FALSE(same->changed);
  auto text = EvolveKeyForJsonSchema(wider->schema,
                                     MustSchema({{1, "key", true, Type::String(), ""}}), true);
  ASSERT_FALSE(text.has_value());
  EXPECT_NE(text.error().message().find("_kafka.key is long in the table and string"),
            std::string::npos)
      << text.error().message();
  auto object =
      EvolveKeyForJsonSchema(wider->schema, MustSchema({{1, "customer", true, Type::Long(), ""}}));
  ASSERT_FALSE(object.has_value());
  EXPECT_NE(object.error().message().find("an object in the version"), std::string::npos);

  auto options = Options(ValueFormat::kByteArray, wider->schema);
  options.key_format = KeyFormat::kJsonSchemaConfluent;
  options.writer_schemas = [](int32_t id) -> Result<WriterSchema> {
    if (id == kJsonSchemaId) return WriterSchema{WriterSchemaType::kJson, kJsonDefinition, {}};
    return Err(NotFound("no schema"));
  };
  auto writer = MustWriter(std::move(options));
  ASSERT_NE(writer, nullptr);
  int64_t offset = 0;
  auto add = [&](std::optional<std::string> key) { return AddKeyed(*writer, offset++, key); };
  EXPECT_EQ(add(ConfluentJsonFrame("42")), "ok");
  EXPECT_EQ(add(ConfluentJsonFrame(" -9000000000 \n")), "ok");
  EXPECT_EQ(add(ConfluentJsonFrame("null")), "ok");
  EXPECT_EQ(add(std::nullopt), "ok");
  EXPECT_EQ(add(ConfluentJsonFrame("\"x\"")), kTypeMismatch);
  EXPECT_EQ(add(ConfluentJsonFrame("1.5")), kTypeMismatch);
  EXPECT_EQ(add(ConfluentJsonFrame("{\"a\": 1}")), kTypeMismatch);
  // Nothing may escape the wrapper: a second value, a closing brace, an
  // extra member, an unterminated string, nothing at all.
  for (const char* bad : {"1 2", "1}", "1,\"key\":2", "1, \"other\": 2", "\"a", "", "  ", "[1",
                          "1]", "\"a\"\"b\"", "{\"a\":1}}"}) {
    EXPECT_EQ(add(ConfluentJsonFrame(bad)), kMalformedJson) << bad;
  }
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 4);
  EXPECT_EQ(Bound((*files)[0], key->id, *Type::Long(), false).int64_value(), 42);
  EXPECT_EQ(Bound((*files)[0], key->id, *Type::Long(), true).int64_value(), -9000000000);
}

}  // namespace
}  // namespace st::decoding
