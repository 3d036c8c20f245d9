#include "delivery/channel_config.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace st::delivery {
namespace {

nlohmann::json Body() {
  return nlohmann::json::parse(R"({
    "channelName": "orders-channel",
    "topicConfigurationList": [{"topicArn": "arn:aws:kafka:us-east-1:123456789012:topic/c/u/orders",
      "recordConverter": {"valueConverter": "JSON"},
      "recordSchema": {"gsrArn": "arn:aws:glue:us-east-1:123456789012:schema/reg/orders"}}],
    "icebergDestinationConfiguration": {"appendOnly": true,
      "serviceExecutionRoleArn": "arn:aws:iam::123456789012:role/R",
      "dataFreshnessInSeconds": 300,
      "catalog": {"warehouseLocation": "arn:aws:s3tables:us-east-1:123456789012:bucket/b"},
      "deadLetterQueueS3": {"bucketArn": "arn:aws:s3:::dlq", "errorOutputPrefix": "err/"},
      "destinationTableList": [{"destinationDatabaseName": "ns", "destinationTableName": "orders",
        "partitionSpec": {"partitionStrategy": "TIME_HOUR", "sourceList": [{"sourceName": "event_time"}]}}],
      "schemaEvolution": {"enableSchemaEvolution": false},
      "tableCreation": {"enableTableCreation": true}, "compressionType": "ZSTD"}})");
}

TEST(ChannelConfigTest, ParsesTheCreateChannelBody) {
  auto config = ParseChannelConfig(Body().dump());
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->value_converter, ValueConverter::kJson);
  EXPECT_EQ(config->gsr_arn, "arn:aws:glue:us-east-1:123456789012:schema/reg/orders");
  EXPECT_EQ(config->service_role_arn, "arn:aws:iam::123456789012:role/R");
  EXPECT_EQ(config->role_account_id, "123456789012");
  EXPECT_EQ(config->data_freshness, std::chrono::seconds(300));
  EXPECT_EQ(config->dlq_bucket_name, "dlq");
  EXPECT_EQ(config->dlq_prefix, "err/");
  EXPECT_FALSE(config->dlq_topic.has_value());
  EXPECT_TRUE(config->include_kafka_metadata);
  EXPECT_EQ(config->table_bucket_arn, "arn:aws:s3tables:us-east-1:123456789012:bucket/b");
  EXPECT_EQ(config->namespace_name, "ns");
  EXPECT_EQ(config->table_name, "orders");
  EXPECT_FALSE(config->daily);
  EXPECT_EQ(config->partition_source, "event_time");
}

TEST(ChannelConfigTest, ExtensionsAndDefaults) {
  nlohmann::json body = Body();
  auto& iceberg = body["icebergDestinationConfiguration"];
  iceberg.erase("dataFreshnessInSeconds");
  iceberg["deadLetterTopic"] = {{"topicName", "orders-dlq"}};
  iceberg["includeKafkaMetadata"] = false;
  iceberg["destinationTableList"][0]["partitionSpec"] = {{"partitionStrategy", "TIME_DAY"}};
  body["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "BYTE_ARRAY";
  auto config = ParseChannelConfig(body.dump());
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->data_freshness, std::chrono::seconds(600));
  EXPECT_EQ(config->dlq_topic, "orders-dlq");
  EXPECT_FALSE(config->include_kafka_metadata);
  EXPECT_TRUE(config->daily);
  EXPECT_FALSE(config->partition_source.has_value());
  EXPECT_EQ(config->value_converter, ValueConverter::kByteArray);
}

TEST(ChannelConfigTest, ErrorsNameTheField) {
  auto expect_error = [](nlohmann::json body, const std::string& needle) {
    auto config = ParseChannelConfig(body.dump());
    ASSERT_FALSE(config.has_value()) << needle;
    EXPECT_EQ(config.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(config.error().message().find(needle), std::string::npos) << config.error().message();
  };
  nlohmann::json body = Body();
  body["icebergDestinationConfiguration"].erase("catalog");
  expect_error(body, "warehouseLocation");
  body = Body();
  body["topicConfigurationList"][0].erase("recordSchema");
  expect_error(body, "gsrArn");
  body = Body();
  body["icebergDestinationConfiguration"]["deadLetterQueueS3"]["bucketArn"] = "dlq";
  expect_error(body, "bucketArn");
  body = Body();
  body["icebergDestinationConfiguration"]["dataFreshnessInSeconds"] = 0;
  expect_error(body, "dataFreshnessInSeconds");
  EXPECT_FALSE(ParseChannelConfig("not json").has_value());
}

}  // namespace
}  // namespace st::delivery
