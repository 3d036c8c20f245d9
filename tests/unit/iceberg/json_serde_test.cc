#include "iceberg/json_serde.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "iceberg/type_nesting.h"

namespace st::iceberg {
namespace {

using nlohmann::json;

TEST(JsonSerdeTest, TypesRoundTrip) {
  const char* kTypes[] = {
      R"("boolean")",
      R"j("decimal(9,2)")j",
      R"("fixed[16]")",
      R"({"type":"list","element-id":3,"element-required":false,"element":"string"})",
      R"({"type":"map","key-id":4,"key":"string","value-id":5,"value-required":true,
          "value":{"type":"struct","fields":[{"id":6,"name":"x","required":true,"type":"int",
          "doc":"the x"}]}})",
  };
  for (const char* text : kTypes) {
    const json j = json::parse(text);
    auto type = TypeFromJson(j);
    ASSERT_TRUE(type.has_value()) << text << ": " << type.error().ToString();
    EXPECT_EQ(TypeToJson(**type), j) << text;
  }
}

TEST(JsonSerdeTest, TypeErrorsNameTheProblem) {
  auto bad = TypeFromJson(json::parse(R"({"type":"list","element-id":3,"element":"int"})"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.error().message().find("'element-required'"), std::string::npos);
  auto unknown = TypeFromJson(json("varchar(3)"));
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message().find("varchar(3)"), std::string::npos);
  auto wrong = TypeFromJson(json::parse(
      R"({"type":"struct","fields":[{"id":"1","name":"a","required":true,"type":"int"}]})"));
  ASSERT_FALSE(wrong.has_value());
  EXPECT_NE(wrong.error().message().find("'id'"), std::string::npos);
}

TEST(JsonSerdeTest, SchemaRoundTripAndDuplicateIds) {
  const json j = json::parse(R"({"type":"struct","schema-id":3,"identifier-field-ids":[1],
      "fields":[{"id":1,"name":"id","required":true,"type":"long"},
                {"id":2,"name":"tags","required":false,
                 "type":{"type":"list","element-id":3,"element-required":true,"element":"string"}}]})");
  auto schema = SchemaFromJson(j);
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  EXPECT_EQ(schema->schema_id(), 3);
  EXPECT_EQ(SchemaToJson(*schema), j);

  auto dup = SchemaFromJson(json::parse(R"({"type":"struct","fields":[
      {"id":1,"name":"a","required":true,"type":"long"},
      {"id":2,"name":"l","required":false,
       "type":{"type":"list","element-id":1,"element-required":true,"element":"string"}}]})"));
  ASSERT_FALSE(dup.has_value());
  EXPECT_NE(dup.error().message().find("duplicate field id 1"), std::string::npos);
}

TEST(JsonSerdeTest, PartitionSpecAndSortOrder) {
  const json spec_json = json::parse(R"({"spec-id":2,"fields":[
      {"source-id":2,"field-id":1000,"name":"ts_day","transform":"day"},
      {"source-id":1,"field-id":1001,"name":"id_bucket","transform":"bucket[16]"}]})");
  auto spec = PartitionSpecFromJson(spec_json);
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ(spec->spec_id(), 2);
  EXPECT_EQ(spec->fields()[1].transform, Transform::Bucket(16));
  EXPECT_EQ(PartitionSpecToJson(*spec), spec_json);
  auto bad = PartitionSpecFromJson(json::parse(
      R"({"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"name":"x","transform":"zorder"}]})"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("zorder"), std::string::npos);

  const json order_json = json::parse(R"({"order-id":1,"fields":[
      {"transform":"identity","source-id":1,"direction":"desc","null-order":"nulls-last"},
      {"transform":"truncate[3]","source-id":2,"direction":"asc","null-order":"nulls-first"}]})");
  auto order = SortOrderFromJson(order_json);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(order->fields[0].direction, SortDirection::kDesc);
  EXPECT_EQ(SortOrderToJson(*order), order_json);
  EXPECT_FALSE(SortOrderFromJson(json::parse(R"({"order-id":1,"fields":[
      {"transform":"identity","source-id":1,"direction":"up","null-order":"nulls-last"}]})"))
                   .has_value());
}

TEST(JsonSerdeTest, SnapshotAndRef) {
  const json snap_json = json::parse(R"({"snapshot-id":5,"parent-snapshot-id":4,
      "sequence-number":2,"timestamp-ms":1700000000000,"manifest-list":"s3://b/m.avro",
      "summary":{"operation":"append","added-records":"3"},"schema-id":0})");
  auto snap = SnapshotFromJson(snap_json);
  ASSERT_TRUE(snap.has_value()) << snap.error().ToString();
  EXPECT_EQ(snap->parent_snapshot_id, 4);
  EXPECT_EQ(snap->operation(), "append");
  EXPECT_EQ(SnapshotToJson(*snap), snap_json);

  json numeric_summary = snap_json;
  numeric_summary["summary"]["added-records"] = 3;
  auto bad = SnapshotFromJson(numeric_summary);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("added-records"), std::string::npos);

  json no_seq = snap_json;
  no_seq.erase("sequence-number");
  EXPECT_FALSE(SnapshotFromJson(no_seq, 2).has_value());
  EXPECT_EQ(SnapshotFromJson(no_seq, 1)->sequence_number, 0);

  json inline_manifests = no_seq;
  inline_manifests.erase("manifest-list");
  inline_manifests["manifests"] = json::array({"s3://b/m1.avro"});
  auto v1 = SnapshotFromJson(inline_manifests, 1);
  ASSERT_FALSE(v1.has_value());
  EXPECT_EQ(v1.error().code(), StatusCode::kUnsupported);

  const json ref_json = json::parse(R"({"snapshot-id":5,"type":"tag","max-ref-age-ms":1000})");
  auto ref = SnapshotRefFromJson(ref_json);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->type, SnapshotRefType::kTag);
  EXPECT_EQ(SnapshotRefToJson(*ref), ref_json);
  EXPECT_FALSE(SnapshotRefFromJson(json::parse(R"({"snapshot-id":5,"type":"leaf"})")).has_value());
}

// A schema whose top-level field nests `levels` struct types, as JSON text.
std::string NestedStructSchemaJson(int levels) {
  std::string text = R"({"type":"struct","schema-id":0,"identifier-field-ids":[],"fields":[)";
  int id = 1;
  for (int i = 0; i < levels; ++i) {
    text += R"({"id":)" + std::to_string(id++) +
            R"(,"name":"s","required":false,"type":{"type":"struct","fields":[)";
  }
  text += R"({"id":)" + std::to_string(id) + R"(,"name":"leaf","required":false,"type":"int"})";
  for (int i = 0; i < levels; ++i) text += "]}}";
  return text + "]}";
}

TEST(JsonSerdeTest, SchemaNestingUpToTheLimitParsesAndOneMoreIsRefused) {
  auto at_limit = SchemaFromJson(json::parse(NestedStructSchemaJson(kMaxTypeNesting)));
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().ToString();
  EXPECT_EQ(SchemaToJson(*at_limit), json::parse(NestedStructSchemaJson(kMaxTypeNesting)));
  auto deeper = SchemaFromJson(json::parse(NestedStructSchemaJson(kMaxTypeNesting + 1)));
  ASSERT_FALSE(deeper.has_value());
  EXPECT_EQ(deeper.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(deeper.error().message().find("nested types go deeper than 100 levels"),
            std::string::npos)
      << deeper.error().message();
}

TEST(JsonSerdeTest, AnAbsurdlyDeepSchemaIsRefusedWithoutRecursingIntoIt) {
  // The review's 8,000-deep createTable schema; nlohmann parses it iteratively.
  auto deep = SchemaFromJson(json::parse(NestedStructSchemaJson(8000)));
  ASSERT_FALSE(deep.has_value());
  EXPECT_NE(deep.error().message().find("deeper than 100"), std::string::npos);
}

TEST(JsonSerdeTest, NestedListTypesAtTheLimit) {
  auto lists = [](int levels) {
    std::string text;
    for (int i = 0; i < levels; ++i) {
      text += R"({"type":"list","element-id":)" + std::to_string(i + 1) +
              R"(,"element-required":false,"element":)";
    }
    return text + "\"int\"" + std::string(static_cast<size_t>(levels), '}');
  };
  EXPECT_TRUE(TypeFromJson(json::parse(lists(kMaxTypeNesting))).has_value());
  auto deeper = TypeFromJson(json::parse(lists(kMaxTypeNesting + 1)));
  ASSERT_FALSE(deeper.has_value());
  EXPECT_NE(deeper.error().message().find("deeper than 100"), std::string::npos);
}

}  // namespace
}  // namespace st::iceberg
