// The Avro channel formats of NewDecodingRecordFormat (issue 14 items 3-4):
// AVRO_CONFLUENT writer schemas come from the injected lookup (account,
// schema id); the table is created from the first record's writer schema; a
// compatible new version evolves the writer's schema (reported for the
// commit) while older versions keep decoding; an incompatible one is
// SCHEMA_INCOMPATIBLE; framing errors keep their own codes. PROTOBUF_CONFLUENT
// channels follow the same path (version = schema id + message indexes).
// JSON_SCHEMA_CONFLUENT channels take their table from the first record's
// JSON Schema and evolve it only for new optional fields; JSON_SCHEMA_GSR
// channels evolve by the same rule and quarantine the other changes
// (SCHEMA_INCOMPATIBLE) as the Avro channels do.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <zlib.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "common/clock.h"
#include "common/random.h"
#include "common/uuid.h"
#include "decoding/record.h"
#include "delivery/record_format.h"
#include "iceberg/table_update.h"
#include "registry/schema_registry.h"
#include "storage/local_object_store.h"

namespace st::delivery {
namespace {

constexpr const char* kOwnerAccount = "111122223333";

// Avro binary: zig-zag varints and length-prefixed strings.
std::string Long(int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  std::string out;
  while (z >= 0x80) {
    out += static_cast<char>((z & 0x7f) | 0x80);
    z >>= 7;
  }
  out += static_cast<char>(z);
  return out;
}
std::string Str(const std::string& s) { return Long(static_cast<int64_t>(s.size())) + s; }

std::string Confluent(int32_t id, const std::string& payload) {
  std::string out(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((id >> shift) & 0xff);
  return out + payload;
}

const char* kV1 = R"({"type":"record","name":"Order","fields":[{"name":"id","type":"int"},)"
                  R"({"name":"name","type":"string"}]})";
const char* kV2 =
    R"({"type":"record","name":"Order","fields":[{"name":"id","type":"int"},)"
    R"({"name":"name","type":"string"},{"name":"note","type":["null","string"],"default":null}]})";
const char* kV3 =  // name: string → int, which Iceberg cannot promote.
    R"({"type":"record","name":"Order","fields":[{"name":"id","type":"int"},)"
    R"({"name":"name","type":"int"}]})";

// `after` is `before` plus the optional `field` with a fresh id; the other
// fields keep their ids.
void ExpectOptionalFieldAdded(const iceberg::Schema& before, const iceberg::Schema& after,
                              const std::string& field, int32_t schema_id) {
  ASSERT_NE(after.FindFieldByName(field), nullptr) << field;
  EXPECT_FALSE(after.FindFieldByName(field)->required);
  EXPECT_GT(after.FindFieldByName(field)->id, before.HighestFieldId());
  for (const iceberg::NestedField& f : before.fields()) {
    ASSERT_NE(after.FindFieldByName(f.name), nullptr) << f.name;
    EXPECT_EQ(after.FindFieldByName(f.name)->id, f.id) << f.name;
  }
  EXPECT_EQ(after.schema_id(), schema_id);
}

class AvroRecordFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-avrofmt-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto registry =
        registry::OpenSqliteSchemaRegistry(dir_ + "/registry.db", "us-east-1", clock_, random_);
    ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
    registry_ = *std::move(registry);
    std::filesystem::create_directories(dir_ + "/objects");
    auto objects = storage::OpenLocalObjectStore(dir_ + "/objects");
    ASSERT_TRUE(objects.has_value());
    objects_ = *std::move(objects);
    io_ = std::make_unique<iceberg::FileIO>(*objects_, "s3://wh/", "wh/");
    config_ = Config("AVRO_CONFLUENT");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  catalog::ChannelConfig Config(const std::string& converter,
                                const std::string& role = "arn:aws:iam::111122223333:role/r") {
    nlohmann::json body = {
        {"channelName", "ch"},
        {"topicConfigurationList",
         {{{"topicArn", "arn:aws:kafka:us-east-1:111122223333:topic/local/u/orders"},
           {"recordConverter", {{"valueConverter", converter}}}}}},
        {"icebergDestinationConfiguration",
         {{"appendOnly", true},
          {"serviceExecutionRoleArn", role},
          {"dataFreshnessInSeconds", 1},
          {"catalog",
           {{"warehouseLocation", "arn:aws:s3tables:us-east-1:111122223333:bucket/bucket1"}}},
          {"deadLetterQueueS3", {{"bucketArn", "arn:aws:s3:::dlq"}}},
          {"destinationTableList",
           {{{"destinationDatabaseName", "events"},
             {"destinationTableName", "orders"},
             {"partitionSpec", {{"partitionStrategy", "TIME_HOUR"}}}}}},
          {"compressionType", "ZSTD"}}}};
    auto parsed = catalog::ParseChannelConfig(body.dump(), catalog::ChannelDocument::kStored);
    EXPECT_TRUE(parsed.has_value()) << parsed.error().ToString();
    return *parsed;
  }

  ConsumedRecord Record(std::string value, int64_t offset = 0) {
    ConsumedRecord r;
    r.topic = "orders";
    r.partition = 0;
    r.offset = offset;
    r.timestamp_ms = 1764489600000;
    r.value = std::move(value);
    return r;
  }

  std::unique_ptr<RecordFormat> Format() {
    return NewDecodingRecordFormat(
        *registry_,
        [this](const ConfluentSource& source, int32_t id) -> Result<decoding::WriterSchema> {
          const std::string& account = source.account_id;
          lookups_.push_back((source.external ? source.external->url + "|" : "") + account + "/" +
                             std::to_string(id));
          if (auto pb = proto_schemas_.find(id);
              account == kOwnerAccount && pb != proto_schemas_.end()) {
            return decoding::WriterSchema{decoding::WriterSchemaType::kProtobuf, pb->second, {}};
          }
          if (auto js = json_schemas_.find(id);
              account == kOwnerAccount && js != json_schemas_.end()) {
            return decoding::WriterSchema{decoding::WriterSchemaType::kJson, js->second, {}};
          }
          auto it = schemas_.find(id);
          if (account != kOwnerAccount || it == schemas_.end()) {
            return Err(NotFound("no schema " + std::to_string(id)));
          }
          return decoding::WriterSchema{decoding::WriterSchemaType::kAvro, it->second, {}};
        });
  }

  iceberg::TableMetadata Metadata(const TableLayout& layout) {
    auto metadata =
        iceberg::NewTableMetadata(layout.schema, layout.spec, iceberg::SortOrder::Unsorted(),
                                  "s3://wh/t", {}, "9a1f1a8e-1d4b-4c55-9b9e-0e6f3c4b2a10", 0);
    EXPECT_TRUE(metadata.has_value()) << metadata.error().ToString();
    return *metadata;
  }

  // The table's writer, nullptr (and a failed test) when none is made.
  std::unique_ptr<BatchWriter> WriterFor(RecordFormat& format, const catalog::ChannelConfig& config,
                                         const iceberg::TableMetadata& metadata) {
    auto made = format.NewWriter(config, metadata, "s3://wh/t/data", *io_, random_);
    EXPECT_TRUE(made.has_value()) << made.error().ToString();
    return made.has_value() ? *std::move(made) : nullptr;
  }
  // The record's failure, nullopt when it was buffered (an error fails the test).
  std::optional<RecordFailure> AddRecord(BatchWriter& writer, std::string value, int64_t offset) {
    auto added = writer.Add(Record(std::move(value), offset));
    EXPECT_TRUE(added.has_value()) << added.error().ToString();
    return added.has_value() ? *added : std::nullopt;
  }
  // "ok", or the failure's code and schema version id (readable expectations).
  std::string Code(BatchWriter& writer, std::string value, int64_t offset) {
    std::optional<RecordFailure> failure = AddRecord(writer, std::move(value), offset);
    return failure ? failure->code + " " + failure->schema_version_id : std::string("ok");
  }

  std::string dir_;
  SystemClock clock_;
  DefaultRandom random_{11};
  std::unique_ptr<registry::SchemaRegistry> registry_;
  std::unique_ptr<storage::ObjectStore> objects_;
  std::unique_ptr<iceberg::FileIO> io_;
  catalog::ChannelConfig config_;
  std::map<int32_t, std::string> schemas_{{7, kV1}, {8, kV2}, {9, kV3}};
  // PROTOBUF_CONFLUENT: v1, v2 (id int32 → int64, a new optional field), v3
  // (name string → int32: incompatible).
  std::map<int32_t, std::string> proto_schemas_{
      {20,
       "syntax = \"proto3\"; message Order { int32 id = 1; string name = 2; } "
       "message Other { string z = 1; }"},
      {21,
       "syntax = \"proto3\"; message Order { int64 id = 1; string name = 2; "
       "optional string note = 3; }"},
      {22, "syntax = \"proto3\"; message Order { int32 id = 1; int32 name = 2; }"}};
  // JSON_SCHEMA_CONFLUENT: v1; the same columns in other text; one more
  // optional field; a schema that does not map to Iceberg; name an integer.
  std::map<int32_t, std::string> json_schemas_{
      {30, R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},)"
           R"("required":["id"]})"},
      {31, R"({"title":"Order","type":"object","required":["id"],)"
           R"("properties":{"id":{"type":"integer"},"name":{"type":"string"}}})"},
      {32, R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},)"
           R"("note":{"type":"string"}},"required":["id"]})"},
      {33, R"({"type":"string"})"},
      {34, R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"integer"}},)"
           R"("required":["id"]})"}};
  std::vector<std::string> lookups_;
};

TEST_F(AvroRecordFormatTest, ConfluentTableComesFromTheFirstWriterSchemaAndEvolves) {
  auto format = Format();
  ASSERT_TRUE(format->Validate(config_).ok());
  auto layout = format->Layout(config_, Record(Confluent(7, Long(1) + Str("a"))));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->layout.has_value());
  const iceberg::Schema& schema = layout->layout->schema;
  ASSERT_NE(schema.FindFieldByName("id"), nullptr);
  ASSERT_NE(schema.FindFieldByName("name"), nullptr);
  EXPECT_EQ(schema.FindFieldByName("note"), nullptr);
  EXPECT_NE(schema.FindFieldByName("_kafka"), nullptr);
  EXPECT_EQ(lookups_.front(), std::string(kOwnerAccount) + "/7");

  iceberg::TableMetadata metadata = Metadata(*layout->layout);
  auto made = format->NewWriter(config_, metadata, "s3://wh/t/data", *io_, random_);
  ASSERT_TRUE(made.has_value()) << made.error().ToString();
  BatchWriter& writer = **made;

  auto add = [&](std::string value, int64_t offset) -> std::optional<RecordFailure> {
    auto added = writer.Add(Record(std::move(value), offset));
    EXPECT_TRUE(added.has_value()) << added.error().ToString();
    return added.has_value() ? *added : std::nullopt;
  };
  // nullopt, or the failure's code (for readable expectations).
  auto ok = [&](std::string value, int64_t offset) {
    std::optional<RecordFailure> failure = add(std::move(value), offset);
    return failure ? failure->code + ": " + failure->message : std::string("ok");
  };
  EXPECT_EQ(ok(Confluent(7, Long(1) + Str("a")), 0), "ok");
  EXPECT_TRUE(writer.SchemaChanges().empty());
  // v2 adds an optional field: a schema change, and v1 keeps decoding.
  EXPECT_EQ(ok(Confluent(8, Long(2) + Str("b") + Long(1) + Str("n")), 1), "ok");
  ASSERT_EQ(writer.SchemaChanges().size(), 1u);
  const iceberg::Schema evolved = writer.SchemaChanges()[0];
  ASSERT_NE(evolved.FindFieldByName("note"), nullptr);
  EXPECT_FALSE(evolved.FindFieldByName("note")->required);
  EXPECT_GT(evolved.FindFieldByName("note")->id, schema.HighestFieldId());
  EXPECT_EQ(evolved.FindFieldByName("id")->id, schema.FindFieldByName("id")->id);
  EXPECT_EQ(ok(Confluent(7, Long(3) + Str("c")), 2), "ok");
  // v3 cannot evolve the table: its records are quarantined, others flow.
  auto incompatible = add(Confluent(9, Long(4) + Long(5)), 3);
  ASSERT_TRUE(incompatible.has_value());
  EXPECT_EQ(incompatible->code, decoding::kSchemaIncompatible);
  EXPECT_EQ(incompatible->schema_version_id, "9");
  EXPECT_NE(incompatible->message.find("name"), std::string::npos) << incompatible->message;
  EXPECT_NE(incompatible->message.find("string"), std::string::npos) << incompatible->message;
  EXPECT_NE(incompatible->message.find("int"), std::string::npos) << incompatible->message;
  EXPECT_EQ(ok(Confluent(8, Long(6) + Str("d") + Long(0)), 4), "ok");
  EXPECT_EQ(writer.SchemaChanges().size(), 1u);  // Decided once per version.

  // Framing and registry errors keep their codes.
  auto unknown = add(Confluent(99, Long(1) + Str("a")), 5);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_EQ(unknown->code, decoding::kSchemaNotFound);
  auto magic = add("\x01" + Confluent(7, Long(1) + Str("a")).substr(1), 6);
  ASSERT_TRUE(magic.has_value());
  EXPECT_EQ(magic->code, decoding::kWrongMagicByte);
  auto truncated = add(std::string("\0\0\0", 3), 7);
  ASSERT_TRUE(truncated.has_value());
  EXPECT_EQ(truncated->code, decoding::kTruncatedPayload);
  // A string length past the end is malformed; a varint cut short truncated.
  auto inside = add(Confluent(7, Long(1) + Long(10) + "ab"), 8);
  ASSERT_TRUE(inside.has_value());
  EXPECT_EQ(inside->code, decoding::kMalformedAvro);
  auto cut = add(Confluent(7, Long(1) + "\x80"), 8);
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->code, decoding::kTruncatedPayload);
  auto trailing = add(Confluent(7, Long(1) + Str("a") + "zz"), 9);
  ASSERT_TRUE(trailing.has_value());
  EXPECT_EQ(trailing->code, decoding::kMalformedAvro);

  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  int64_t rows = 0;
  for (const iceberg::DataFile& f : *files) rows += f.record_count;
  EXPECT_EQ(rows, 4);
  EXPECT_GE(files->size(), 2u);  // One closed under v1's schema, one under v2's.
  writer.SchemaChangesCommitted();
  EXPECT_TRUE(writer.SchemaChanges().empty());

  // The change applies as the delivery commit applies it.
  auto applied = iceberg::ApplyUpdates(
      metadata, {iceberg::AddSchema{evolved, std::nullopt}, iceberg::SetCurrentSchema{}}, 1);
  ASSERT_TRUE(applied.has_value()) << applied.error().ToString();
  EXPECT_EQ(applied->current_schema_id, 1);
}

TEST_F(AvroRecordFormatTest, WithoutAConfluentRegistryRecordsAreSchemaNotFound) {
  auto format = NewDecodingRecordFormat(*registry_);
  auto layout = format->Layout(config_, Record(Confluent(7, Long(1) + Str("a"))));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->failure.has_value());
  EXPECT_EQ(layout->failure->code, decoding::kSchemaNotFound);
  EXPECT_EQ(layout->failure->schema_version_id, "7");
  auto magic = format->Layout(config_, Record("\x05xyz"));
  ASSERT_TRUE(magic.has_value());
  ASSERT_TRUE(magic->failure.has_value());
  EXPECT_EQ(magic->failure->code, decoding::kWrongMagicByte);
}

TEST_F(AvroRecordFormatTest, AChannelWithAnExternalRegistryAsksItWithItsSealedSecret) {
  catalog::ChannelConfig config = Config("AVRO_CONFLUENT");
  auto registry = catalog::ParseExternalRegistryUrl("http://registry.example:8081/sr");
  ASSERT_TRUE(registry.has_value());
  registry->basic_auth_key = "KEY";
  registry->sealed_basic_auth_secret = "c2VhbGVk";
  config.external_registry = *registry;
  auto format = Format();
  auto layout = format->Layout(config, Record(Confluent(7, Long(1) + Str("a"))));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->layout.has_value());
  EXPECT_EQ(lookups_, std::vector<std::string>{"http://registry.example:8081/sr|" +
                                               std::string(kOwnerAccount) + "/7"});
  const ConfluentSource source = ConfluentSourceOf(config);
  ASSERT_TRUE(source.external.has_value());
  EXPECT_EQ(source.external->sealed_basic_auth_secret, "c2VhbGVk");
  EXPECT_EQ(source.seal_context, catalog::ExternalRegistrySealContextOf(config));
  EXPECT_FALSE(source.seal_context.empty());
  EXPECT_TRUE(ConfluentSourceOf(config_).seal_context.empty());

  // An id the external registry does not know names that registry.
  auto missing = format->Layout(config, Record(Confluent(4242, Long(1) + Str("a"))));
  ASSERT_TRUE(missing.has_value());
  ASSERT_TRUE(missing->failure.has_value());
  EXPECT_EQ(missing->failure->code, decoding::kSchemaNotFound);
  EXPECT_NE(missing->failure->message.find("external schema registry http://registry.example"),
            std::string::npos)
      << missing->failure->message;
}

TEST_F(AvroRecordFormatTest, AGsrChannelReadsItsWriterSchemaFromTheGlueRegistry) {
  registry::NewSchema request;
  request.schema = {kOwnerAccount, "default-registry", "orders"};
  request.data_format = "AVRO";
  request.compatibility = "NONE";
  request.definition = kV1;
  auto created = registry_->CreateSchema(request);
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  ASSERT_TRUE(created->first_version.has_value());
  auto uuid = Uuid::Parse(created->first_version->schema_version_id);
  ASSERT_TRUE(uuid.has_value());
  const std::string framed = std::string("\x03\x00", 2) +
                             std::string(uuid->bytes.begin(), uuid->bytes.end()) + Long(1) +
                             Str("a");

  catalog::ChannelConfig config = Config("AVRO_GSR");
  auto format = NewDecodingRecordFormat(*registry_);
  auto layout = format->Layout(config, Record(framed));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->layout.has_value())
      << (layout->failure ? layout->failure->message : std::string());
  iceberg::TableMetadata metadata = Metadata(*layout->layout);
  auto writer = format->NewWriter(config, metadata, "s3://wh/t/data", *io_, random_);
  ASSERT_TRUE(writer.has_value()) << writer.error().ToString();
  auto added = (*writer)->Add(Record(framed));
  ASSERT_TRUE(added.has_value());
  EXPECT_FALSE(added->has_value()) << (*added)->code << ": " << (*added)->message;
  // Another account's channel does not see the version.
  auto other =
      format->Layout(Config("AVRO_GSR", "arn:aws:iam::444455556666:role/r"), Record(framed));
  ASSERT_TRUE(other.has_value() && other->failure.has_value());
  EXPECT_EQ(other->failure->code, decoding::kSchemaNotFound);
  auto missing = format->Layout(config, Record("{\"id\":1}"));
  ASSERT_TRUE(missing.has_value() && missing->failure.has_value());
  EXPECT_EQ(missing->failure->code, decoding::kMissingGsrHeader);
}

// Protobuf wire format: a varint field, a length-delimited field; the
// Confluent header with one message index.
std::string PbVarint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}
std::string PbInt(int n, uint64_t v) {
  return PbVarint(static_cast<uint64_t>(n) << 3) + PbVarint(v);
}
std::string PbStr(int n, const std::string& s) {
  return PbVarint((static_cast<uint64_t>(n) << 3) | 2) + PbVarint(s.size()) + s;
}
std::string PbFramed(int32_t id, int32_t index, const std::string& payload) {
  const std::string indexes =
      index == 0 ? std::string(1, '\0') : PbVarint(2) + PbVarint(static_cast<uint64_t>(index) * 2);
  return Confluent(id, indexes + payload);
}

TEST_F(AvroRecordFormatTest, ProtobufConfluentLayoutEvolutionAndFraming) {
  const catalog::ChannelConfig config = Config("PROTOBUF_CONFLUENT");
  auto format = Format();
  ASSERT_TRUE(format->Validate(config).ok());
  // A first record whose message index names no message cannot define the table.
  auto bad_index = format->Layout(config, Record(PbFramed(20, 5, PbInt(1, 1))));
  ASSERT_TRUE(bad_index.has_value()) << bad_index.error().ToString();
  ASSERT_TRUE(bad_index->failure.has_value());
  EXPECT_EQ(bad_index->failure->code, decoding::kMalformedProtobuf);
  auto magic = format->Layout(config, Record(std::string("\x02", 1) + "xyzabc"));
  ASSERT_TRUE(magic.has_value() && magic->failure.has_value());
  EXPECT_EQ(magic->failure->code, decoding::kWrongMagicByte);

  auto layout = format->Layout(config, Record(PbFramed(20, 0, PbInt(1, 1) + PbStr(2, "a"))));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->layout.has_value());
  const iceberg::Schema& schema = layout->layout->schema;
  ASSERT_NE(schema.FindFieldByName("id"), nullptr);
  EXPECT_EQ(schema.FindFieldByName("id")->type->ToString(), "int");
  EXPECT_EQ(schema.FindFieldByName("z"), nullptr);  // Index [0]: Order, not Other.

  iceberg::TableMetadata metadata = Metadata(*layout->layout);
  auto made = format->NewWriter(config, metadata, "s3://wh/t/data", *io_, random_);
  ASSERT_TRUE(made.has_value()) << made.error().ToString();
  BatchWriter& writer = **made;
  auto code = [&](std::string value, int64_t offset) {
    return Code(writer, std::move(value), offset);
  };
  EXPECT_EQ(code(PbFramed(20, 0, PbInt(1, 1) + PbStr(2, "a")), 0), "ok");
  EXPECT_EQ(code(PbFramed(21, 0, PbInt(1, uint64_t{1} << 40) + PbStr(3, "n")), 1), "ok");
  ASSERT_EQ(writer.SchemaChanges().size(), 1u);
  const iceberg::Schema evolved = writer.SchemaChanges()[0];
  EXPECT_EQ(evolved.FindFieldByName("id")->type->ToString(), "long");
  EXPECT_EQ(evolved.FindFieldByName("id")->id, schema.FindFieldByName("id")->id);
  ASSERT_NE(evolved.FindFieldByName("note"), nullptr);
  EXPECT_EQ(code(PbFramed(20, 0, PbInt(1, 3)), 2), "ok");  // v1 keeps decoding.
  EXPECT_EQ(code(PbFramed(22, 0, PbInt(1, 4) + PbInt(2, 5)), 3),
            std::string(decoding::kSchemaIncompatible) + " 22");
  EXPECT_EQ(code(PbFramed(20, 7, PbInt(1, 1)), 4),
            std::string(decoding::kMalformedProtobuf) + " 20");
  EXPECT_EQ(code(PbFramed(20, 0, PbStr(1, "x")), 5),
            std::string(decoding::kMalformedProtobuf) + " 20");
  EXPECT_EQ(code(PbFramed(99, 0, PbInt(1, 1)), 6), std::string(decoding::kSchemaNotFound) + " 99");
  EXPECT_EQ(code(PbFramed(7, 0, PbInt(1, 1)), 7), std::string(decoding::kSchemaMismatch) + " 7");
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  int64_t rows = 0;
  for (const iceberg::DataFile& f : *files) rows += f.record_count;
  EXPECT_EQ(rows, 3);
}

// The GSR Protobuf framing: header, then (deflated when `zlib`) the message
// index varint and the message.
std::string PbGsrFramed(const std::string& version_id, uint32_t index, const std::string& payload,
                        bool zlib = false) {
  auto uuid = Uuid::Parse(version_id);
  EXPECT_TRUE(uuid.has_value());
  std::string body = PbVarint(index) + payload;
  if (zlib) {
    uLongf size = compressBound(body.size());
    std::string compressed(size, '\0');
    EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(compressed.data()), &size,
                        reinterpret_cast<const Bytef*>(body.data()), body.size(), 6),
              Z_OK);
    compressed.resize(size);
    body = compressed;
  }
  return std::string("\x03", 1) + (zlib ? '\x05' : '\x00') +
         std::string(uuid->bytes.begin(), uuid->bytes.end()) + body;
}

TEST_F(AvroRecordFormatTest, ProtobufGsrLayoutEvolutionAndFraming) {
  // v1, v2 (id int32 → int64, a new optional field), v3 (name string →
  // int32: incompatible); Order sorts after Aux: GSR message index 1.
  const char* definitions[] = {
      "syntax = \"proto3\"; message Order { int32 id = 1; string name = 2; } "
      "message Aux { string z = 1; }",
      "syntax = \"proto3\"; message Order { int64 id = 1; string name = 2; "
      "optional string note = 3; } message Aux { string z = 1; }",
      "syntax = \"proto3\"; message Order { int32 id = 1; int32 name = 2; } "
      "message Aux { string z = 1; }"};
  registry::NewSchema request;
  request.schema = {kOwnerAccount, "default-registry", "orders-pb"};
  request.data_format = "PROTOBUF";
  request.compatibility = "NONE";
  request.definition = definitions[0];
  auto created = registry_->CreateSchema(request);
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  std::vector<std::string> ids{created->first_version->schema_version_id};
  for (int i = 1; i < 3; ++i) {
    auto version = registry_->RegisterSchemaVersion(request.schema, definitions[i]);
    ASSERT_TRUE(version.has_value()) << version.error().ToString();
    ids.push_back(version->schema_version_id);
  }
  registry::NewSchema avro = request;
  avro.schema.schema_name = "orders-avro";
  avro.data_format = "AVRO";
  avro.definition = kV1;
  auto avro_created = registry_->CreateSchema(avro);
  ASSERT_TRUE(avro_created.has_value()) << avro_created.error().ToString();
  const std::string avro_id = avro_created->first_version->schema_version_id;
  const std::string unknown = "0f8a9c52-7d3b-4c1e-9a6f-2b5d8e4c7a10";

  const catalog::ChannelConfig config = Config("PROTOBUF_GSR");
  auto format = NewDecodingRecordFormat(*registry_);
  ASSERT_TRUE(format->Validate(config).ok());
  auto first_failure = [&](const std::string& value) {
    auto layout = format->Layout(config, Record(value));
    EXPECT_TRUE(layout.has_value()) << layout.error().ToString();
    return layout.has_value() && layout->failure ? layout->failure->code : std::string("ok");
  };
  EXPECT_EQ(first_failure(PbGsrFramed(ids[0], 5, PbInt(1, 1))), decoding::kMalformedProtobuf);
  EXPECT_EQ(first_failure(PbGsrFramed(unknown, 1, PbInt(1, 1))), decoding::kSchemaNotFound);
  EXPECT_EQ(first_failure(PbGsrFramed(avro_id, 1, PbInt(1, 1))), decoding::kSchemaMismatch);
  EXPECT_EQ(first_failure(PbGsrFramed(ids[0], 1, "").substr(0, 18)), decoding::kTruncatedPayload);
  EXPECT_EQ(first_failure("\x02xyz"), decoding::kMissingGsrHeader);

  auto layout = format->Layout(config, Record(PbGsrFramed(ids[0], 1, PbInt(1, 1), true)));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->layout.has_value())
      << (layout->failure ? layout->failure->message : std::string());
  const iceberg::Schema& schema = layout->layout->schema;
  ASSERT_NE(schema.FindFieldByName("id"), nullptr);
  EXPECT_EQ(schema.FindFieldByName("id")->type->ToString(), "int");
  EXPECT_EQ(schema.FindFieldByName("z"), nullptr);  // Index 1: Order, not Aux.

  iceberg::TableMetadata metadata = Metadata(*layout->layout);
  auto made = format->NewWriter(config, metadata, "s3://wh/t/data", *io_, random_);
  ASSERT_TRUE(made.has_value()) << made.error().ToString();
  BatchWriter& writer = **made;
  auto code = [&](std::string value, int64_t offset) {
    return Code(writer, std::move(value), offset);
  };
  EXPECT_EQ(code(PbGsrFramed(ids[0], 1, PbInt(1, 1) + PbStr(2, "a")), 0), "ok");
  EXPECT_EQ(code(PbGsrFramed(ids[1], 1, PbInt(1, uint64_t{1} << 40) + PbStr(3, "n"), true), 1),
            "ok");
  ASSERT_EQ(writer.SchemaChanges().size(), 1u);
  const iceberg::Schema evolved = writer.SchemaChanges()[0];
  EXPECT_EQ(evolved.FindFieldByName("id")->type->ToString(), "long");
  EXPECT_EQ(evolved.FindFieldByName("id")->id, schema.FindFieldByName("id")->id);
  ASSERT_NE(evolved.FindFieldByName("note"), nullptr);
  EXPECT_EQ(code(PbGsrFramed(ids[0], 1, PbInt(1, 3), true), 2), "ok");  // v1 keeps decoding.
  EXPECT_EQ(code(PbGsrFramed(ids[2], 1, PbInt(1, 4) + PbInt(2, 5)), 3),
            std::string(decoding::kSchemaIncompatible) + " " + ids[2]);
  EXPECT_EQ(code(PbGsrFramed(ids[0], 7, PbInt(1, 1)), 4),
            std::string(decoding::kMalformedProtobuf) + " " + ids[0]);
  EXPECT_EQ(code(PbGsrFramed(ids[0], 1, PbStr(1, "x")), 5),
            std::string(decoding::kMalformedProtobuf) + " " + ids[0]);
  EXPECT_EQ(code(PbGsrFramed(unknown, 1, PbInt(1, 1)), 6),
            std::string(decoding::kSchemaNotFound) + " " + unknown);
  EXPECT_EQ(code(PbGsrFramed(avro_id, 1, PbInt(1, 1)), 7),
            std::string(decoding::kSchemaMismatch) + " " + avro_id);
  EXPECT_EQ(code(std::string("\x03\x07", 2) + std::string(16, '\0'), 8),
            std::string(decoding::kMissingGsrHeader) + " ");
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  int64_t rows = 0;
  for (const iceberg::DataFile& f : *files) rows += f.record_count;
  EXPECT_EQ(rows, 3);
}

TEST_F(AvroRecordFormatTest, JsonSchemaConfluentLayoutAndFraming) {
  const catalog::ChannelConfig config = Config("JSON_SCHEMA_CONFLUENT");
  auto format = Format();
  ASSERT_TRUE(format->Validate(config).ok());
  // Records that cannot define the table, each with its code.
  const std::pair<std::string, std::string> refused[] = {
      {R"({"id":1})", std::string(decoding::kWrongMagicByte) + " "},
      {std::string("\0\0\0", 3), std::string(decoding::kTruncatedPayload) + " "},
      {Confluent(99, R"({"id":1})"), std::string(decoding::kSchemaNotFound) + " 99"},
      {Confluent(7, R"({"id":1})"), std::string(decoding::kSchemaMismatch) + " 7"},    // Avro.
      {Confluent(20, R"({"id":1})"), std::string(decoding::kSchemaMismatch) + " 20"},  // Protobuf.
      {Confluent(33, R"({"id":1})"), std::string(decoding::kSchemaMismatch) + " 33"},
  };
  for (const auto& [value, want] : refused) {
    auto layout = format->Layout(config, Record(value));
    ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
    ASSERT_TRUE(layout->failure.has_value()) << want;
    EXPECT_EQ(layout->failure->code + " " + layout->failure->schema_version_id, want)
        << layout->failure->message;
  }
  // Another account's channel does not see the owner's ids.
  auto other = format->Layout(Config("JSON_SCHEMA_CONFLUENT", "arn:aws:iam::444455556666:role/r"),
                              Record(Confluent(30, R"({"id":1})")));
  ASSERT_TRUE(other.has_value() && other->failure.has_value());
  EXPECT_EQ(other->failure->code, decoding::kSchemaNotFound);

  auto layout = format->Layout(config, Record(Confluent(30, R"({"id":1})")));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->layout.has_value());
  const iceberg::Schema& schema = layout->layout->schema;
  ASSERT_NE(schema.FindFieldByName("id"), nullptr);
  EXPECT_EQ(schema.FindFieldByName("id")->type->ToString(), "long");
  EXPECT_TRUE(schema.FindFieldByName("id")->required);
  ASSERT_NE(schema.FindFieldByName("name"), nullptr);
  EXPECT_NE(schema.FindFieldByName("_kafka"), nullptr);

  iceberg::TableMetadata metadata = Metadata(*layout->layout);
  auto made = format->NewWriter(config, metadata, "s3://wh/t/data", *io_, random_);
  ASSERT_TRUE(made.has_value()) << made.error().ToString();
  BatchWriter& writer = **made;
  auto code = [&](std::string value, int64_t offset) {
    return Code(writer, std::move(value), offset);
  };
  EXPECT_EQ(code(Confluent(30, R"({"id":1,"name":"a"})"), 0), "ok");
  EXPECT_EQ(code(Confluent(31, R"({"id":2})"), 1), "ok");  // The same columns.
  EXPECT_TRUE(writer.SchemaChanges().empty());
  // One more optional field evolves the table; v1 keeps decoding.
  EXPECT_EQ(code(Confluent(32, R"({"id":3,"note":"n"})"), 2), "ok");
  ASSERT_EQ(writer.SchemaChanges().size(), 1u);
  const iceberg::Schema evolved = writer.SchemaChanges()[0];
  ExpectOptionalFieldAdded(schema, evolved, "note", 1);
  EXPECT_EQ(code(Confluent(30, R"({"id":4,"name":"b"})"), 3), "ok");
  // Any other change quarantines the version (SCHEMA_INCOMPATIBLE), naming
  // the field and both types.
  auto retyped = writer.Add(Record(Confluent(34, R"({"id":5,"name":5})"), 3));
  ASSERT_TRUE(retyped.has_value() && retyped->has_value());
  EXPECT_EQ((*retyped)->code, decoding::kSchemaIncompatible);
  EXPECT_NE((*retyped)->message.find("field name is string in the table and long"),
            std::string::npos)
      << (*retyped)->message;
  EXPECT_EQ(code(Confluent(7, R"({"id":4})"), 3), std::string(decoding::kSchemaMismatch) + " 7");
  EXPECT_EQ(code(Confluent(99, R"({"id":5})"), 4), std::string(decoding::kSchemaNotFound) + " 99");
  EXPECT_EQ(code(Confluent(30, R"({"name":"x"})"), 5),
            std::string(decoding::kMissingRequiredField) + " 30");
  EXPECT_EQ(code(Confluent(30, R"({"id":)"), 6), std::string(decoding::kMalformedJson) + " 30");
  EXPECT_EQ(code(Confluent(30, R"({"id":"six"})"), 7),
            std::string(decoding::kTypeMismatch) + " 30");
  EXPECT_EQ(code("\x01" + Confluent(30, "{}").substr(1), 8),
            std::string(decoding::kWrongMagicByte) + " ");
  EXPECT_EQ(code(std::string("\0\0", 2), 9), std::string(decoding::kTruncatedPayload) + " ");
  EXPECT_EQ(code(Confluent(30, R"({"id":10})"), 10), "ok");
  EXPECT_EQ(writer.SchemaChanges().size(), 1u);  // Decided once per version.
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  int64_t rows = 0;
  for (const iceberg::DataFile& f : *files) rows += f.record_count;
  EXPECT_EQ(rows, 5);
  EXPECT_GE(files->size(), 2u);  // One closed under v1's schema, one under the evolved one.
}

// JSON behind the Glue Schema Registry header (compression 0x00).
std::string GsrJson(const std::string& version_id, const std::string& json) {
  auto uuid = Uuid::Parse(version_id);
  EXPECT_TRUE(uuid.has_value()) << version_id;
  if (!uuid.has_value()) return "";
  return std::string("\x03\x00", 2) + std::string(uuid->bytes.begin(), uuid->bytes.end()) + json;
}

TEST_F(AvroRecordFormatTest, JsonSchemaGsrEvolvesForNewOptionalFieldsAndQuarantinesOtherChanges) {
  // v1; v2 adds optional `note`; v3 makes `name` an object; v4 adds optional
  // `tag` (and `note`); v5 lacks the optional `name`.
  const std::string definitions[] = {
      R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},)"
      R"("required":["id"]})",
      R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},)"
      R"("note":{"type":"string"}},"required":["id"]})",
      R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"object",)"
      R"("properties":{"first":{"type":"string"}}}},"required":["id"]})",
      R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},)"
      R"("note":{"type":"string"},"tag":{"type":"string"}},"required":["id"]})",
      R"({"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]})"};
  registry::NewSchema request;
  request.schema = {kOwnerAccount, "default-registry", "orders-json"};
  request.data_format = "JSON";
  request.compatibility = "NONE";
  request.definition = definitions[0];
  auto created = registry_->CreateSchema(request);
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  ASSERT_TRUE(created->first_version.has_value());
  std::vector<std::string> ids{created->first_version->schema_version_id};
  for (size_t i = 1; i < std::size(definitions); ++i) {
    auto version = registry_->RegisterSchemaVersion(request.schema, definitions[i]);
    ASSERT_TRUE(version.has_value()) << version.error().ToString();
    ids.push_back(version->schema_version_id);
  }
  // An AVRO version: a JSON_SCHEMA_GSR channel cannot read it.
  registry::NewSchema avro = request;
  avro.schema.schema_name = "orders-avro";
  avro.data_format = "AVRO";
  avro.definition = kV1;
  auto avro_created = registry_->CreateSchema(avro);
  ASSERT_TRUE(avro_created.has_value()) << avro_created.error().ToString();
  const std::string avro_id = avro_created->first_version->schema_version_id;

  const catalog::ChannelConfig config = Config("JSON_SCHEMA_GSR");
  auto format = NewDecodingRecordFormat(*registry_);
  auto layout = format->Layout(config, Record(GsrJson(ids[0], R"({"id":1})")));
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  ASSERT_TRUE(layout->layout.has_value())
      << (layout->failure ? layout->failure->message : std::string());
  const iceberg::Schema& schema = layout->layout->schema;
  EXPECT_EQ(schema.FindFieldByName("note"), nullptr);
  iceberg::TableMetadata metadata = Metadata(*layout->layout);
  std::unique_ptr<BatchWriter> made = WriterFor(*format, config, metadata);
  ASSERT_NE(made, nullptr);
  BatchWriter& writer = *made;

  EXPECT_EQ(Code(writer, GsrJson(ids[0], R"({"id":1,"name":"a"})"), 0), "ok");
  EXPECT_TRUE(writer.SchemaChanges().empty());
  // v2's new optional field evolves the table; v1 keeps decoding.
  EXPECT_EQ(Code(writer, GsrJson(ids[1], R"({"id":2,"name":"b","note":"n"})"), 1), "ok");
  ASSERT_EQ(writer.SchemaChanges().size(), 1u);
  const iceberg::Schema v2 = writer.SchemaChanges()[0];
  ExpectOptionalFieldAdded(schema, v2, "note", 1);
  EXPECT_EQ(Code(writer, GsrJson(ids[0], R"({"id":3})"), 2), "ok");
  // v3 retypes `name`: quarantined, naming the field and both types.
  std::optional<RecordFailure> retyped =
      AddRecord(writer, GsrJson(ids[2], R"({"id":4,"name":{"first":"x"}})"), 3);
  ASSERT_TRUE(retyped.has_value());
  EXPECT_EQ(retyped->code, decoding::kSchemaIncompatible);
  EXPECT_EQ(retyped->schema_version_id, ids[2]);
  EXPECT_NE(retyped->message.find("field name is string in the table and struct"),
            std::string::npos)
      << retyped->message;
  // v4 evolves again, from the evolved table: only `tag` is new.
  EXPECT_EQ(Code(writer, GsrJson(ids[3], R"({"id":5,"tag":"t"})"), 4), "ok");
  ASSERT_EQ(writer.SchemaChanges().size(), 2u);
  const iceberg::Schema v4 = writer.SchemaChanges()[1];
  ExpectOptionalFieldAdded(v2, v4, "tag", 2);
  // v3 stays quarantined; a version lacking an optional column decodes as is.
  EXPECT_EQ(Code(writer, GsrJson(ids[2], R"({"id":6})"), 5),
            std::string(decoding::kSchemaIncompatible) + " " + ids[2]);
  EXPECT_EQ(Code(writer, GsrJson(ids[4], R"({"id":7})"), 6), "ok");
  EXPECT_EQ(writer.SchemaChanges().size(), 2u);
  // The GSR codes stay.
  const std::string unknown = "0b7c3a4e-8d2f-4e6a-9c1b-5f0e2d3a4b5c";
  EXPECT_EQ(Code(writer, GsrJson(unknown, R"({"id":8})"), 7),
            std::string(decoding::kSchemaNotFound) + " " + unknown);
  EXPECT_EQ(Code(writer, R"({"id":9})", 8), std::string(decoding::kMissingGsrHeader) + " ");
  EXPECT_EQ(Code(writer, GsrJson(avro_id, R"({"id":10})"), 9),
            std::string(decoding::kSchemaMismatch) + " " + avro_id);
  EXPECT_EQ(Code(writer, GsrJson(ids[1], R"({"id":"eleven"})"), 10),
            std::string(decoding::kTypeMismatch) + " " + ids[1]);

  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  int64_t rows = 0;
  for (const iceberg::DataFile& f : *files) rows += f.record_count;
  EXPECT_EQ(rows, 5);
  EXPECT_GE(files->size(), 3u);  // Closed under schemas 0 and 1, the last under 2.
  // Both changes apply as the delivery commit applies them.
  auto applied =
      iceberg::ApplyUpdates(metadata,
                            {iceberg::AddSchema{v2, std::nullopt},
                             iceberg::AddSchema{v4, std::nullopt}, iceberg::SetCurrentSchema{}},
                            1);
  ASSERT_TRUE(applied.has_value()) << applied.error().ToString();
  EXPECT_EQ(applied->current_schema_id, 2);
}

}  // namespace
}  // namespace st::delivery
