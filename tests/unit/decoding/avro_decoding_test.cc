// Avro decoding: Confluent framing, schema resolution, hostile payloads, and
// the Avro → Iceberg mapping and evolution rules.
#include <gtest/gtest.h>

#include <limits>

#include "avro/encoding.h"
#include "decoding/avro_schema_mapping.h"
#include "decoding/confluent_framing_internal.h"
#include "decoding_test_fixture.h"

namespace st::decoding {
namespace {

constexpr const char* kWriterV1 = R"({"type":"record","name":"E","fields":[
  {"name":"id","type":"long"},
  {"name":"name","type":["null","string"],"default":null},
  {"name":"n","type":"int"},
  {"name":"tags","type":{"type":"array","items":"string"}},
  {"name":"props","type":{"type":"map","values":"int"}},
  {"name":"kind","type":{"type":"enum","name":"K","symbols":["A","B"]}},
  {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}}]})";

avro::Schema MustAvro(const char* text) {
  auto schema = avro::Schema::Parse(text);
  EXPECT_TRUE(schema.has_value()) << (schema ? "" : schema.error().ToString());
  return *schema;
}

std::string Framed(int32_t id, const std::string& payload) {
  std::string out(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((id >> shift) & 0xff));
  return out + payload;
}

std::string EncodeV1(int64_t id, std::optional<std::string> name, int32_t n) {
  avro::Schema schema = MustAvro(kWriterV1);
  std::vector<Value> fields = {Value::Int64(id),
                               name ? Value::String(*name) : Value(),
                               Value::Int32(n),
                               Value::MakeList({Value::String("x"), Value::String("")}),
                               Value::MakeMap({{Value::String("k"), Value::Int32(1)}}),
                               Value::String("B"),
                               Value::Int64(1740832496789)};
  std::string out;
  EXPECT_TRUE(avro::Encode(schema, Value::MakeStruct(fields), &out).ok());
  return out;
}

TEST(AvroMapping, MapsEveryKindWithFreshIds) {
  auto schema = AvroToIcebergSchema(MustAvro(kWriterV1));
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  EXPECT_EQ(schema->fields().size(), 7u);
  EXPECT_TRUE(schema->fields()[0].required);
  EXPECT_FALSE(schema->fields()[1].required);
  EXPECT_EQ(schema->fields()[3].type->ToString().substr(0, 4), "list");
  EXPECT_EQ(schema->fields()[5].type->id(), iceberg::TypeId::kString);
  EXPECT_EQ(schema->fields()[6].type->id(), iceberg::TypeId::kTimestampTz);
  EXPECT_EQ(schema->fields()[0].id, 1);
  EXPECT_EQ(schema->fields()[6].id, 7);
  EXPECT_EQ(schema->HighestFieldId(), 10);  // list element, map key + value.
}

TEST(AvroMapping, RefusesRecursiveRecords) {
  auto schema = AvroToIcebergSchema(
      MustAvro(R"({"type":"record","name":"N","fields":[{"name":"next","type":["null","N"]}]})"));
  ASSERT_FALSE(schema.has_value());
  EXPECT_NE(schema.error().message().find("contains itself"), std::string::npos);
}

TEST(AvroEvolution, AddsOptionalFieldsAndWidens) {
  auto table = AvroToIcebergSchema(MustAvro(kWriterV1));
  ASSERT_TRUE(table.has_value());
  auto v2 = MustAvro(R"({"type":"record","name":"E","fields":[
    {"name":"id","type":"long"},{"name":"name","type":["null","string"]},
    {"name":"n","type":["null","long"]},
    {"name":"tags","type":{"type":"array","items":"string"}},
    {"name":"props","type":{"type":"map","values":"int"}},
    {"name":"kind","type":{"type":"enum","name":"K","symbols":["A","B"]}},
    {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
    {"name":"extra","type":{"type":"record","name":"X","fields":[{"name":"a","type":"int"}]}}]})");
  auto evolved = EvolveForAvro(*table, v2);
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  EXPECT_TRUE(evolved->changed);
  EXPECT_EQ(evolved->schema.schema_id(), 1);
  const auto* n = evolved->schema.FindFieldByName("n");
  EXPECT_EQ(n->type->id(), iceberg::TypeId::kLong);
  EXPECT_FALSE(n->required);
  const auto* extra = evolved->schema.FindFieldByName("extra");
  ASSERT_NE(extra, nullptr);
  EXPECT_FALSE(extra->required);
  EXPECT_GT(extra->id, table->HighestFieldId());
  // The same writer again changes nothing.
  auto again = EvolveForAvro(evolved->schema, v2);
  ASSERT_TRUE(again.has_value());
  EXPECT_FALSE(again->changed);
}

TEST(AvroEvolution, IncompatibleNamesFieldAndTypes) {
  auto table = AvroToIcebergSchema(MustAvro(kWriterV1));
  auto bad = MustAvro(R"({"type":"record","name":"E","fields":[
    {"name":"id","type":"string"},{"name":"n","type":"int"},
    {"name":"tags","type":{"type":"array","items":"string"}},
    {"name":"props","type":{"type":"map","values":"int"}},
    {"name":"kind","type":"string"},
    {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}}]})");
  auto evolved = EvolveForAvro(*table, bad);
  ASSERT_FALSE(evolved.has_value());
  const std::string& m = evolved.error().message();
  EXPECT_NE(m.find("field id"), std::string::npos) << m;
  EXPECT_NE(m.find("long"), std::string::npos) << m;
  EXPECT_NE(m.find("string"), std::string::npos) << m;
}

TEST(ConfluentFraming, MagicLengthAndProtobufIndexes) {
  ConfluentFrame frame;
  RecordError error;
  EXPECT_FALSE(ParseConfluentFrame(std::string("\x01\0\0\0\1", 5), false, &frame, &error));
  EXPECT_EQ(error.code, kWrongMagicByte);
  EXPECT_FALSE(ParseConfluentFrame(std::string("\0\0\0", 3), false, &frame, &error));
  EXPECT_EQ(error.code, kTruncatedPayload);
  // frame.payload points into the value, so each value outlives its checks.
  const std::string plain("\0\0\0\1\x02\x00X", 7);
  ASSERT_TRUE(ParseConfluentFrame(plain, false, &frame, &error));
  EXPECT_EQ(frame.schema_id, 258);
  EXPECT_EQ(frame.payload, std::string("\x00X", 2));
  const std::string indexed("\0\0\0\0\1\x04\x02\x06Y", 9);
  ASSERT_TRUE(ParseConfluentFrame(indexed, true, &frame, &error));
  EXPECT_EQ(frame.message_indexes, (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(frame.payload, "Y");
  const std::string first_message("\0\0\0\0\1\0Z", 7);
  ASSERT_TRUE(ParseConfluentFrame(first_message, true, &frame, &error));
  EXPECT_EQ(frame.message_indexes, (std::vector<int32_t>{0}));
}

class AvroWriterTest : public DecodingFixture {
 protected:
  std::unique_ptr<PartitionedFileWriter> AvroWriter(const iceberg::Schema& table) {
    auto options = Options(ValueFormat::kAvroConfluent, table);
    options.writer_schemas = [this](int32_t id) -> Result<WriterSchema> {
      auto it = registry_.find(id);
      if (it == registry_.end()) return Err(NotFound("no schema " + std::to_string(id)));
      return WriterSchema{WriterSchemaType::kAvro, it->second};
    };
    return MustWriter(std::move(options));
  }
  std::map<int32_t, std::string> registry_;
};

TEST_F(AvroWriterTest, DecodesResolvesAndRejects) {
  registry_[1] = kWriterV1;
  // The table: n widened to long, name dropped, an extra optional column.
  iceberg::Schema table = MustSchema({{1, "id", true, Type::Long(), ""},
                                      {2, "n", false, Type::Double(), ""},
                                      {3, "tags", false, Type::List(4, false, Type::String()), ""},
                                      {5, "kind", false, Type::String(), ""},
                                      {6, "ts", false, Type::TimestampTz(), ""},
                                      {7, "missing", false, Type::Int(), ""}});
  auto writer = AvroWriter(table);
  ASSERT_NE(writer, nullptr);
  EXPECT_EQ(AddValue(*writer, Framed(1, EncodeV1(std::numeric_limits<int64_t>::min(), "é", -1))),
            std::nullopt);
  EXPECT_EQ(AddValue(*writer, Framed(1, EncodeV1(7, std::nullopt, 5))), std::nullopt);

  const std::string good = EncodeV1(1, "x", 2);
  auto code = [&](const std::string& value) {
    auto e = AddValue(*writer, value);
    return e ? e->code : std::string("ok");
  };
  EXPECT_EQ(code(Framed(9, good)), kSchemaNotFound);
  EXPECT_EQ(code(std::string("\x07", 1) + good), kWrongMagicByte);
  EXPECT_EQ(code(Framed(1, good + "x")), kMalformedAvro);  // Trailing byte.
  EXPECT_EQ(code(Framed(1, good.substr(0, good.size() - 1))), kTruncatedPayload);
  EXPECT_EQ(code(Framed(1, std::string("\x02\x06", 2))), kMalformedAvro);      // Union index 3.
  EXPECT_EQ(code(Framed(1, std::string("\x02\x02\x7e", 3))), kMalformedAvro);  // Length past end.
  EXPECT_EQ(code(Framed(1, std::string("\x02\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12))),
            kMalformedAvro);  // Overlong varint.
  EXPECT_EQ(code(Framed(1, std::string("\x02\x02\x04\xc3\x28", 5))), kMalformedAvro);  // Bad UTF-8.

  registry_[2] = R"({"type":"record","name":"E","fields":[{"name":"n","type":"int"}]})";
  EXPECT_EQ(code(Framed(2, std::string("\x02", 1))), kSchemaIncompatible);  // id is required.

  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 2);
  EXPECT_EQ(Bound((*files)[0], 1, *Type::Long(), true).int64_value(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Bound((*files)[0], 2, *Type::Double(), false).double_value(), 5.0);
  EXPECT_EQ(Bound((*files)[0], 6, *Type::TimestampTz(), true).int64_value(),
            int64_t{1740832496789} * 1000);
}

TEST_F(AvroWriterTest, HostileDepthAndCounts) {
  registry_[3] = R"({"type":"record","name":"N","fields":[
    {"name":"v","type":"int"},{"name":"next","type":["null","N"]}]})";
  iceberg::Schema table = MustSchema({{1, "v", false, Type::Int(), ""}});
  auto writer = AvroWriter(table);
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += std::string("\x02\x02", 2);  // v=1, branch N.
  deep += std::string("\x02\x00", 2);
  auto e = AddValue(*writer, Framed(3, deep));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->code, kNestingTooDeep);
  // An array count far beyond the bytes left allocates nothing.
  registry_[4] =
      R"({"type":"record","name":"A","fields":[{"name":"a","type":{"type":"array","items":"long"}}]})";
  auto e2 = AddValue(*writer, Framed(4, std::string("\xfe\xff\xff\xff\x0f", 5)));
  ASSERT_TRUE(e2.has_value());
  EXPECT_EQ(e2->code, kMalformedAvro);
}

class OneSchemaGsr : public GsrSchemaLookup {
 public:
  Result<std::string> Definition(const std::string& id) override {
    if (id != "00000000-0000-0000-0000-000000000001") return Err(NotFound(id));
    return std::string(kWriterV1);
  }
  Result<WriterSchema> Version(const std::string& id) override {
    ST_ASSIGN_OR_RETURN(std::string definition, Definition(id));
    return WriterSchema{WriterSchemaType::kAvro, std::move(definition)};
  }
};

TEST_F(AvroWriterTest, GlueFramedAvro) {
  OneSchemaGsr gsr;
  iceberg::Schema table =
      MustSchema({{1, "id", true, Type::Long(), ""},
                  {2, "props", false, Type::Map(3, Type::String(), 4, false, Type::Long()), ""}});
  auto options = Options(ValueFormat::kAvroGsr, table);
  options.gsr = &gsr;
  auto writer = MustWriter(std::move(options));
  std::string header("\x03\x00", 2);
  std::string id(16, '\0');
  id[15] = 1;
  EXPECT_EQ(AddValue(*writer, header + id + EncodeV1(5, "a", 1)), std::nullopt);
  id[15] = 2;
  auto missing = AddValue(*writer, header + id + EncodeV1(5, "a", 1));
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->code, kSchemaNotFound);
  EXPECT_EQ(missing->schema_version_id, "00000000-0000-0000-0000-000000000002");
  auto short_header = AddValue(*writer, std::string("\x03", 1));
  ASSERT_TRUE(short_header.has_value());
  EXPECT_EQ(short_header->code, kMissingGsrHeader);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  EXPECT_EQ((*files)[0].record_count, 1);
}

TEST(AvroEvolution, NestedMembersInListsAndMaps) {
  auto table = AvroToIcebergSchema(MustAvro(R"({"type":"record","name":"R","fields":[
    {"name":"l","type":{"type":"array","items":{"type":"record","name":"I","fields":[
      {"name":"a","type":"int"}]}}},
    {"name":"m","type":{"type":"map","values":{"type":"record","name":"V","fields":[
      {"name":"b","type":"float"}]}}}]})"));
  ASSERT_TRUE(table.has_value());
  auto evolved = EvolveForAvro(*table, MustAvro(R"({"type":"record","name":"R","fields":[
    {"name":"l","type":{"type":"array","items":{"type":"record","name":"I","fields":[
      {"name":"a","type":"int"},{"name":"a2","type":"string"}]}}},
    {"name":"m","type":{"type":"map","values":{"type":"record","name":"V","fields":[
      {"name":"b","type":"double"},{"name":"c","type":{"type":"bytes","logicalType":"decimal",
       "precision":10,"scale":2}}]}}}]})"));
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  EXPECT_NE(evolved->schema.FindFieldByName("l.element.a2"), nullptr);
  EXPECT_EQ(evolved->schema.FindFieldByName("m.value.b")->type->id(), iceberg::TypeId::kDouble);
  EXPECT_FALSE(evolved->schema.FindFieldByName("m.value.c")->required);
}

constexpr const char* kKeyV1 = R"({"type":"record","name":"K","fields":[
  {"name":"customer","type":"long"},{"name":"region","type":"string"}]})";
constexpr const char* kKeyV2 = R"({"type":"record","name":"K","fields":[
  {"name":"customer","type":"long"},{"name":"region","type":"string"},
  {"name":"tier","type":["null","string"],"default":null}]})";

std::string EncodeKey(int64_t customer, const std::string& region) {
  std::string out;
  EXPECT_TRUE(avro::Encode(MustAvro(kKeyV1),
                           Value::MakeStruct({Value::Int64(customer), Value::String(region)}), &out)
                  .ok());
  return out;
}

iceberg::Schema TypedKeyTable() {
  auto value = AvroToIcebergSchema(MustAvro(kWriterV1));
  EXPECT_TRUE(value.has_value());
  auto table = ChannelTableSchema(ValueFormat::kAvroConfluent, *value, true, std::nullopt,
                                  KeyFormat::kAvroConfluent);
  EXPECT_TRUE(table.has_value()) << (table ? "" : table.error().ToString());
  return *table;
}

TEST(AvroKeyEvolution, TheFirstKeyAddsKafkaKeyAndLaterVersionsEvolveIt) {
  const iceberg::Schema table = TypedKeyTable();
  EXPECT_EQ(table.FindFieldByName("_kafka.key"), nullptr);  // Until the first keyed record.
  auto v1 = EvolveKeyForAvro(table, MustAvro(kKeyV1));
  ASSERT_TRUE(v1.has_value()) << v1.error().ToString();
  ASSERT_TRUE(v1->changed);
  EXPECT_EQ(v1->schema.schema_id(), table.schema_id() + 1);
  const NestedField* key = v1->schema.FindFieldByName("_kafka.key");
  ASSERT_NE(key, nullptr);
  EXPECT_FALSE(key->required);
  EXPECT_GT(key->id, table.HighestFieldId());
  EXPECT_EQ(v1->schema.FindFieldByName("_kafka.key.customer")->type->id(), iceberg::TypeId::kLong);
  // `key` sits before `headers`, as with the other key converters.
  const auto& members = v1->schema.FindFieldByName("_kafka")->type->fields();
  EXPECT_EQ(members[3].name, "key");
  EXPECT_EQ(members[4].name, "headers");

  auto same = EvolveKeyForAvro(v1->schema, MustAvro(kKeyV1));
  ASSERT_TRUE(same.has_value());
  EXPECT_FALSE(same->changed);
  auto v2 = EvolveKeyForAvro(v1->schema, MustAvro(kKeyV2));
  ASSERT_TRUE(v2.has_value()) << v2.error().ToString();
  ASSERT_TRUE(v2->changed);
  const NestedField* tier = v2->schema.FindFieldByName("_kafka.key.tier");
  ASSERT_NE(tier, nullptr);
  EXPECT_GT(tier->id, v1->schema.HighestFieldId());

  auto bad = EvolveKeyForAvro(v2->schema, MustAvro(R"({"type":"record","name":"K","fields":[
    {"name":"customer","type":"string"},{"name":"region","type":"string"}]})"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(bad.error().message().find("_kafka.key.customer"), std::string::npos)
      << bad.error().message();

  // A primitive key is that primitive; int → long widens it.
  auto as_int = EvolveKeyForAvro(table, MustAvro(R"("int")"));
  ASSERT_TRUE(as_int.has_value());
  EXPECT_EQ(as_int->schema.FindFieldByName("_kafka.key")->type->id(), iceberg::TypeId::kInt);
  auto as_long = EvolveKeyForAvro(as_int->schema, MustAvro(R"("long")"));
  ASSERT_TRUE(as_long.has_value());
  EXPECT_TRUE(as_long->changed);
  EXPECT_EQ(as_long->schema.FindFieldByName("_kafka.key")->type->id(), iceberg::TypeId::kLong);
}

TEST_F(AvroWriterTest, TypedKeysDecodeIntoKafkaKeyAndBadKeysAreRefused) {
  registry_[1] = kWriterV1;
  registry_[5] = kKeyV1;
  registry_[6] = R"("string")";
  auto evolved = EvolveKeyForAvro(TypedKeyTable(), MustAvro(kKeyV1));
  ASSERT_TRUE(evolved.has_value());
  auto options = Options(ValueFormat::kAvroConfluent, evolved->schema);
  options.key_format = KeyFormat::kAvroConfluent;
  options.writer_schemas = [this](int32_t id) -> Result<WriterSchema> {
    auto it = registry_.find(id);
    if (it == registry_.end()) return Err(NotFound("no schema " + std::to_string(id)));
    return WriterSchema{WriterSchemaType::kAvro, it->second};
  };
  auto writer = MustWriter(std::move(options));
  ASSERT_NE(writer, nullptr);
  const std::string value = Framed(1, EncodeV1(1, "x", 2));
  int64_t offset = 0;
  auto add = [&](std::optional<std::string> key) -> std::optional<RecordError> {
    KafkaRecord record;
    record.topic = "t";
    record.offset = offset++;
    record.timestamp_ms = 1;
    record.value = value;
    if (key) record.key = *key;
    auto result = writer->Add(record);
    EXPECT_TRUE(result.has_value());
    return result ? *result : std::nullopt;
  };
  EXPECT_EQ(add(Framed(5, EncodeKey(std::numeric_limits<int64_t>::min(), "eu"))), std::nullopt);
  EXPECT_EQ(add(Framed(5, EncodeKey(42, "r\xc3\xa9gion"))), std::nullopt);
  EXPECT_EQ(add(std::nullopt), std::nullopt);  // No key: `_kafka.key` is null.

  auto refused = [&](const std::string& key) {
    auto e = add(key);
    EXPECT_TRUE(e.has_value());
    if (e) {
      EXPECT_NE(e->message.find("record key"), std::string::npos) << e->message;
    }
    return e ? e->code : std::string("ok");
  };
  const std::string good = EncodeKey(1, "x");
  EXPECT_EQ(refused(std::string("\x09", 1) + good), kWrongMagicByte);
  EXPECT_EQ(refused(std::string("\0\0", 2)), kTruncatedPayload);
  EXPECT_EQ(refused(Framed(77, good)), kSchemaNotFound);
  EXPECT_EQ(refused(Framed(5, good + "z")), kMalformedAvro);
  EXPECT_EQ(refused(Framed(5, good.substr(0, 1))), kTruncatedPayload);          // No region.
  EXPECT_EQ(refused(Framed(6, std::string("\x02x", 2))), kSchemaIncompatible);  // Not a struct.

  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 3);  // The refused keys left nothing behind.
  const int32_t customer = evolved->schema.FindFieldByName("_kafka.key.customer")->id;
  EXPECT_EQ(Bound((*files)[0], customer, *Type::Long(), true).int64_value(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Bound((*files)[0], customer, *Type::Long(), false).int64_value(), 42);
}

}  // namespace
}  // namespace st::decoding
