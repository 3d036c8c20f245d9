#include "iceberg/table_metadata.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

namespace st::iceberg {
namespace {

using nlohmann::json;

std::string ReadGolden(const std::string& name) {
  std::ifstream in(std::string(ST_SOURCE_DIR) + "/tests/unit/iceberg/golden/" + name);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// Spec-minimal v2 document (docs/api-contract-notes.md §5.1), without a snapshot.
json MinimalV2() {
  return json::parse(R"({"format-version":2,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1",
    "location":"s3://wh/t","last-sequence-number":0,"last-updated-ms":1735689600000,
    "last-column-id":3,"current-schema-id":0,
    "schemas":[{"type":"struct","schema-id":0,"fields":[
      {"id":1,"name":"id","required":true,"type":"long"},
      {"id":2,"name":"ts","required":false,"type":"timestamptz"},
      {"id":3,"name":"payload","required":false,"type":"string"}]}],
    "default-spec-id":0,"last-partition-id":1000,
    "partition-specs":[{"spec-id":0,"fields":[
      {"source-id":2,"field-id":1000,"name":"ts_day","transform":"day"}]}],
    "default-sort-order-id":0,"sort-orders":[{"order-id":0,"fields":[]}]})");
}

TEST(TableMetadataTest, ParsesGoldenWrittenByPyIceberg) {
  const std::string text = ReadGolden("pyiceberg_v2.metadata.json");
  ASSERT_FALSE(text.empty());
  auto m = ParseTableMetadata(text);
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_EQ(m->format_version, 2);
  EXPECT_EQ(m->table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(m->last_column_id, 10);
  EXPECT_EQ(m->CurrentSchema()->FindField(4)->type->ToString(), "decimal(38,10)");
  EXPECT_EQ(m->CurrentSchema()->FindField(10)->type->id(), TypeId::kUuid);
  EXPECT_EQ(m->CurrentSchema()->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(m->DefaultSpec()->fields().size(), 3u);
  EXPECT_EQ(m->DefaultSpec()->fields()[1].transform, Transform::Bucket(16));
  EXPECT_EQ(m->last_partition_id, 1002);
  EXPECT_EQ(m->DefaultSortOrder()->fields[0].null_order, NullOrder::kNullsLast);
  ASSERT_NE(m->CurrentSnapshot(), nullptr);
  EXPECT_EQ(m->CurrentSnapshot()->summary.at("added-records"), "10");
  EXPECT_EQ(m->refs.at("main").snapshot_id, 3051729675574597004);
  EXPECT_EQ(m->snapshot_log.size(), 1u);
  EXPECT_EQ(m->properties.at("owner"), "streamtables");

  auto again = ParseTableMetadata(SerializeTableMetadata(*m));
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(*again, *m);
}

TEST(TableMetadataTest, SerializesV2KeysOnly) {
  auto m = ParseTableMetadata(MinimalV2().dump());
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_FALSE(m->current_snapshot_id.has_value());
  const json out = json::parse(SerializeTableMetadata(*m));
  EXPECT_FALSE(out.contains("schema"));
  EXPECT_FALSE(out.contains("partition-spec"));
  EXPECT_EQ(out["format-version"], 2);
  EXPECT_EQ(out["current-snapshot-id"], -1);
  EXPECT_EQ(out["refs"], json::object());
  EXPECT_EQ(out["last-partition-id"], 1000);
  EXPECT_EQ(*ParseTableMetadata(out.dump()), *m);
}

TEST(TableMetadataTest, ParsesV1) {
  // Shape written by Java 0.x for format v1: single schema and partition-spec,
  // no sequence numbers, no refs, partition field ids absent.
  const std::string v1 = R"({"format-version":1,"location":"s3://wh/v1",
    "last-updated-ms":1600000000000,"last-column-id":2,
    "schema":{"type":"struct","fields":[{"id":1,"name":"id","required":true,"type":"long"},
                                        {"id":2,"name":"d","required":false,"type":"date"}]},
    "partition-spec":[{"name":"d_month","transform":"month","source-id":2}],
    "properties":{},"current-snapshot-id":7,
    "snapshots":[{"snapshot-id":7,"timestamp-ms":1600000000000,"manifest-list":"s3://wh/v1/m.avro",
                  "summary":{"operation":"append"}}]})";
  auto m = ParseTableMetadata(v1);
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_EQ(m->format_version, 1);
  EXPECT_EQ(m->CurrentSchema()->fields().size(), 2u);
  EXPECT_EQ(m->DefaultSpec()->fields()[0].field_id, 1000);
  EXPECT_EQ(m->last_partition_id, 1000);
  EXPECT_EQ(m->DefaultSortOrder()->order_id, 0);
  EXPECT_EQ(m->refs.at("main").snapshot_id, 7);
  EXPECT_EQ(m->snapshots[0].sequence_number, 0);

  json no_snapshot = json::parse(v1);
  no_snapshot["current-snapshot-id"] = -1;
  no_snapshot.erase("snapshots");
  auto none = ParseTableMetadata(no_snapshot.dump());
  ASSERT_TRUE(none.has_value()) << none.error().ToString();
  EXPECT_FALSE(none->current_snapshot_id.has_value());
  EXPECT_TRUE(none->refs.empty());
}

// A v1 writer stamped snapshots with sequence numbers (the fuzzer's find,
// now a seed in tests/fuzz/corpus/iceberg_metadata): we write v2, so the largest one must become
// last-sequence-number or the metadata we write would not parse again.
TEST(TableMetadataTest, V1SequenceNumbersSurviveTheV2RoundTrip) {
  json v1 = json::parse(R"({"format-version":1,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1",
    "location":"s3://wh/v1","last-updated-ms":1600000000000,"last-column-id":1,
    "schema":{"type":"struct","fields":[{"id":1,"name":"id","required":true,"type":"long"}]},
    "partition-spec":[],"properties":{},"current-snapshot-id":8,
    "snapshots":[{"snapshot-id":7,"sequence-number":4,"timestamp-ms":1600000000000,
                  "manifest-list":"s3://wh/v1/m7.avro","summary":{"operation":"append"}},
                 {"snapshot-id":8,"parent-snapshot-id":7,"sequence-number":5,
                  "timestamp-ms":1600000000001,"manifest-list":"s3://wh/v1/m8.avro",
                  "summary":{"operation":"append"}}]})");
  auto m = ParseTableMetadata(v1.dump());
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_EQ(m->last_sequence_number, 5);
  auto again = ParseTableMetadata(SerializeTableMetadata(*m));
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(again->format_version, 2);
  EXPECT_EQ(again->last_sequence_number, 5);
  EXPECT_EQ(again->snapshots[1].sequence_number, 5);

  v1["last-sequence-number"] = 9;  // Written by some v1 writers too: the larger wins.
  EXPECT_EQ(ParseTableMetadata(v1.dump())->last_sequence_number, 9);
}

// A v1 snapshot may have no summary (the fuzzer's find, a seed in
// tests/fuzz/corpus/iceberg_metadata): we write v2 without one, as Iceberg's
// Java library does for upgraded tables, and read that back. A summary that
// is there must name its operation in either version, or the v2 we would
// write could not be read.
TEST(TableMetadataTest, V1SnapshotsWithoutSummarySurviveTheV2RoundTrip) {
  json v1 = json::parse(R"({"format-version":1,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1",
    "location":"s3://wh/v1","last-updated-ms":1600000000000,"last-column-id":1,
    "schema":{"type":"struct","fields":[{"id":1,"name":"id","required":true,"type":"long"}]},
    "partition-spec":[],"properties":{},"current-snapshot-id":8,
    "snapshots":[{"snapshot-id":7,"timestamp-ms":1600000000000,
                  "manifest-list":"s3://wh/v1/m7.avro"},
                 {"snapshot-id":8,"parent-snapshot-id":7,"timestamp-ms":1600000000001,
                  "manifest-list":"s3://wh/v1/m8.avro","summary":{"operation":"append"}}]})");
  auto m = ParseTableMetadata(v1.dump());
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_TRUE(m->snapshots[0].summary.empty());
  const std::string text = SerializeTableMetadata(*m);
  const json out = json::parse(text);
  EXPECT_FALSE(out["snapshots"][0].contains("summary"));
  EXPECT_EQ(out["snapshots"][1]["summary"]["operation"], "append");
  auto again = ParseTableMetadata(text);
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(again->snapshots, m->snapshots);

  v1["snapshots"][0]["summary"] = json{{"added-records", "3"}};
  auto no_operation = ParseTableMetadata(v1.dump());
  ASSERT_FALSE(no_operation.has_value());
  EXPECT_NE(no_operation.error().message().find("lacks required key 'operation'"),
            std::string::npos)
      << no_operation.error().ToString();
}

struct BadCase {
  const char* name;
  std::function<void(json&)> mutate;
  StatusCode code;
  const char* message_part;
};

TEST(TableMetadataTest, StrictErrors) {
  const BadCase kCases[] = {
      {"missing location", [](json& j) { j.erase("location"); }, StatusCode::kCorruption,
       "'location'"},
      {"missing last-sequence-number", [](json& j) { j.erase("last-sequence-number"); },
       StatusCode::kCorruption, "'last-sequence-number'"},
      {"missing sort-orders", [](json& j) { j.erase("sort-orders"); }, StatusCode::kCorruption,
       "'sort-orders'"},
      {"wrong type", [](json& j) { j["last-column-id"] = "3"; }, StatusCode::kCorruption,
       "'last-column-id'"},
      {"schema without id", [](json& j) { j["schemas"][0].erase("schema-id"); },
       StatusCode::kCorruption, "'schema-id'"},
      {"duplicate field ids", [](json& j) { j["schemas"][0]["fields"][2]["id"] = 1; },
       StatusCode::kCorruption, "duplicate field id 1"},
      {"unknown type", [](json& j) { j["schemas"][0]["fields"][2]["type"] = "varchar"; },
       StatusCode::kCorruption, "varchar"},
      {"format v3", [](json& j) { j["format-version"] = 3; }, StatusCode::kUnsupported,
       "format-version 3"},
      {"unknown current schema", [](json& j) { j["current-schema-id"] = 4; },
       StatusCode::kCorruption, "current-schema-id 4"},
      {"last-column-id too small", [](json& j) { j["last-column-id"] = 2; },
       StatusCode::kCorruption, "last-column-id"},
      {"last-partition-id too small", [](json& j) { j["last-partition-id"] = 999; },
       StatusCode::kCorruption, "last-partition-id"},
      {"unknown current snapshot", [](json& j) { j["current-snapshot-id"] = 12; },
       StatusCode::kCorruption, "current-snapshot-id 12"},
      {"main disagrees",
       [](json& j) {
         j["snapshots"] = json::parse(R"([{"snapshot-id":1,"sequence-number":1,
            "timestamp-ms":1,"manifest-list":"m","summary":{"operation":"append"}},
            {"snapshot-id":2,"sequence-number":1,"timestamp-ms":2,"manifest-list":"m2",
            "summary":{"operation":"append"}}])");
         j["last-sequence-number"] = 1;
         j["current-snapshot-id"] = 1;
         j["refs"] = json::parse(R"({"main":{"snapshot-id":2,"type":"branch"}})");
       },
       StatusCode::kCorruption, "refs.main"},
      {"snapshot sequence above last",
       [](json& j) {
         j["snapshots"] = json::parse(R"([{"snapshot-id":1,"sequence-number":5,
            "timestamp-ms":1,"manifest-list":"m","summary":{"operation":"append"}}])");
       },
       StatusCode::kCorruption, "last-sequence-number"},
      {"property not a string",
       [](json& j) {
         j["properties"] = json{{"a", 1}};
       },
       StatusCode::kCorruption, "'a'"},
  };
  for (const auto& c : kCases) {
    json doc = MinimalV2();
    c.mutate(doc);
    auto m = ParseTableMetadata(doc.dump());
    ASSERT_FALSE(m.has_value()) << c.name;
    EXPECT_EQ(m.error().code(), c.code) << c.name << ": " << m.error().ToString();
    EXPECT_NE(m.error().message().find(c.message_part), std::string::npos)
        << c.name << ": " << m.error().ToString();
  }
  EXPECT_EQ(ParseTableMetadata("{not json").error().code(), StatusCode::kCorruption);
  EXPECT_EQ(ParseTableMetadata("[]").error().code(), StatusCode::kCorruption);
}

TEST(TableMetadataTest, DeeplyNestedJsonIsCorruptionNotACrash) {
  std::string text = R"({"format-version":2,"properties":)";
  text += std::string(100000, '[') + std::string(100000, ']') + "}";
  auto parsed = ParseTableMetadata(text);
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().code(), StatusCode::kCorruption);
  EXPECT_NE(parsed.error().message().find("deeper than 512"), std::string::npos)
      << parsed.error().message();
}

}  // namespace
}  // namespace st::iceberg
