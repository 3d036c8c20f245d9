// CreateTable's metadata.iceberg → the initial metadata the engine writes.
#include <gtest/gtest.h>

#include "api/s3tables/initial_metadata_internal.h"
#include "api/s3tables/wire_json_internal.h"

namespace st::api::s3tables {
namespace {

Result<catalog::InitialMetadata> Parse(const char* json) {
  return ParseInitialMetadata(nlohmann::json::parse(json));
}

TEST(InitialMetadataTest, SimpleSchemaAssignsMissingIdsAroundGivenOnes) {
  auto parsed = Parse(R"j({"iceberg":{"schema":{"fields":[
      {"name":"a","type":"long","required":true},
      {"id":1,"name":"b","type":"string"},
      {"name":"c","type":"decimal(10, 2)"}]
}
}
})j");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  const auto& fields = parsed->schema.fields();
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[0].id, 2);
  EXPECT_TRUE(fields[0].required);
  EXPECT_EQ(fields[1].id, 1);
  EXPECT_FALSE(fields[1].required);
  EXPECT_EQ(fields[2].id, 3);
  EXPECT_TRUE(parsed->spec.unpartitioned());
  EXPECT_EQ(parsed->sort_order, iceberg::SortOrder::Unsorted());
}

TEST(InitialMetadataTest, SchemaV2WithSpecOrderAndProperties) {
  auto parsed = Parse(R"({"iceberg":{
      "schemaV2":{"type":"struct","fields":[{"id":1,"name":"ts","type":"timestamptz","required":false}]},
      "partitionSpec":{"fields":[{"source-id":1,"transform":"hour","name":"ts_hour"}]},
      "writeOrder":{"order-id":1,"fields":[{"source-id":1,"transform":"identity",
                                           "direction":"desc","null-order":"nulls-last"}]},
      "properties":{"k":"v"}}})");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  ASSERT_EQ(parsed->spec.fields().size(), 1u);
  EXPECT_EQ(parsed->spec.fields()[0].name, "ts_hour");
  ASSERT_EQ(parsed->sort_order.fields.size(), 1u);
  EXPECT_EQ(parsed->sort_order.fields[0].direction, iceberg::SortDirection::kDesc);
  EXPECT_EQ(parsed->properties.at("k"), "v");
}

TEST(InitialMetadataTest, RefusesMalformedInputNamingTheMember) {
  struct Case {
    const char* json;
    const char* fragment;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"delta":{}})", "'delta'"},
           {R"({})", "exactly one of: iceberg"},
           {R"({"iceberg":{}})", "exactly one of 'schema' and 'schemaV2'"},
           {R"({"iceberg":{"schema":{"fields":[]},"schemaV2":{"type":"struct","fields":[]}}})",
            "exactly one"},
           {R"({"iceberg":{"schema":{"fields":[{"name":"a","type":"list<int>"}]}}})", "schemaV2"},
           {R"({"iceberg":{"schema":{"fields":[{"name":5,"type":"int"}]}}})", "must be a string"},
           {R"({"iceberg":{"schema":{"fields":[{"name":"a","type":"int","required":"yes"}]}}})",
            "must be a boolean"},
           {R"({"iceberg":{"schema":{"fields":[{"id":1,"name":"a","type":"int"},)"
            R"({"id":1,"name":"b","type":"int"}]}}})",
            "metadata.iceberg.schema"},
           {R"({"iceberg":{"schema":{"fields":{}}}})", "must be a list"},
           {R"({"iceberg":{"schema":{"fields":[]},"properties":{"k":1}}})", "properties.k"},
       }) {
    auto parsed = Parse(c.json);
    ASSERT_FALSE(parsed.has_value()) << c.json;
    EXPECT_EQ(parsed.error().code(), StatusCode::kInvalidArgument) << c.json;
    EXPECT_NE(parsed.error().message().find(c.fragment), std::string::npos)
        << c.json << " → " << parsed.error().message();
  }
}

}  // namespace
}  // namespace st::api::s3tables
