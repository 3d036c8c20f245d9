#include "catalog/channel_model.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/field_update.h"

namespace st::catalog {
namespace {

using nlohmann::json;

json Body() {
  return json::parse(R"({
    "channelName": "orders-channel",
    "topicConfigurationList": [{"topicArn": "arn:aws:kafka:us-east-1:123456789012:topic/c/u/orders",
      "recordConverter": {"valueConverter": "JSON"},
      "recordSchema": {"gsrArn": "arn:aws:glue:us-east-1:123456789012:schema/reg/orders"}}],
    "icebergDestinationConfiguration": {"appendOnly": true,
      "serviceExecutionRoleArn": "arn:aws:iam::123456789012:role/R",
      "dataFreshnessInSeconds": 300,
      "catalog": {"warehouseLocation": "arn:aws:s3tables:us-east-1:123456789012:bucket/tables"},
      "deadLetterQueueS3": {"bucketArn": "arn:aws:s3:::dlq", "errorOutputPrefix": "err/"},
      "destinationTableList": [{"destinationDatabaseName": "ns", "destinationTableName": "orders",
        "partitionSpec": {"partitionStrategy": "TIME_HOUR", "sourceList": [{"sourceName": "event_time"}]}}],
      "schemaEvolution": {"enableSchemaEvolution": false},
      "tableCreation": {"enableTableCreation": true}, "compressionType": "ZSTD"}})");
}

}  // namespace

// A CreateChannel body refused as InvalidArgument naming `member` (and
// saying `needle`). Shared with external_schema_registry_test.cc.
void ExpectInvalidMember(const json& body, const std::string& member,
                         const std::string& needle = "") {
  std::string invalid;
  auto request = ParseCreateChannelRequest(body.dump(), &invalid);
  ASSERT_FALSE(request.has_value()) << member;
  EXPECT_EQ(request.error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(invalid, member) << request.error().message();
  EXPECT_NE(request.error().message().find(needle), std::string::npos) << request.error().message();
}

namespace {

Result<ChannelConfig> Stored(const json& body) {
  return ParseChannelConfig(body.dump(), ChannelDocument::kStored);
}

TEST(ChannelModelTest, ParsesTheCreateChannelBody) {
  auto config = Stored(Body());
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->channel_name, "orders-channel");
  EXPECT_EQ(config->topic.topic, "orders");
  EXPECT_EQ(config->topic.cluster.cluster_arn, "arn:aws:kafka:us-east-1:123456789012:cluster/c/u");
  EXPECT_EQ(config->value_converter, ValueConverter::kJson);
  EXPECT_EQ(config->gsr_arn, "arn:aws:glue:us-east-1:123456789012:schema/reg/orders");
  EXPECT_EQ(config->service_execution_role.arn, "arn:aws:iam::123456789012:role/R");
  EXPECT_EQ(config->service_execution_role.account_id, "123456789012");
  EXPECT_EQ(config->service_execution_role.role_name, "R");
  EXPECT_EQ(config->data_freshness, std::chrono::seconds(300));
  EXPECT_EQ(config->dlq_bucket_name, "dlq");
  EXPECT_EQ(config->dlq_prefix(), "err/");
  EXPECT_FALSE(config->dlq_topic.has_value());
  EXPECT_TRUE(config->include_kafka_metadata);
  EXPECT_EQ(config->table_bucket_arn, "arn:aws:s3tables:us-east-1:123456789012:bucket/tables");
  EXPECT_EQ(config->table_bucket.bucket_name, "tables");
  EXPECT_EQ(config->namespace_name, "ns");
  EXPECT_EQ(config->table_name, "orders");
  EXPECT_EQ(config->partition_strategy, PartitionStrategy::kTimeHour);
  EXPECT_EQ(config->partition_source, "event_time");
  EXPECT_EQ(config->compression, IcebergCompression::kZstd);
}

TEST(ChannelModelTest, ExtensionsAndDefaults) {
  json body = Body();
  auto& iceberg = body["icebergDestinationConfiguration"];
  iceberg.erase("dataFreshnessInSeconds");
  iceberg.erase("compressionType");
  iceberg["deadLetterTopic"] = {{"topicName", "orders-dlq"}};
  iceberg["includeKafkaMetadata"] = false;
  iceberg["destinationTableList"][0]["partitionSpec"] = {{"partitionStrategy", "TIME_DAY"}};
  body["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "BYTE_ARRAY";
  body["topicConfigurationList"][0].erase("recordSchema");
  auto config = Stored(body);
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->data_freshness, kDefaultDataFreshness);
  EXPECT_EQ(config->data_freshness, std::chrono::seconds(600));
  EXPECT_EQ(config->compression, IcebergCompression::kZstd);
  EXPECT_EQ(config->dlq_topic, "orders-dlq");
  EXPECT_FALSE(config->include_kafka_metadata);
  EXPECT_EQ(config->partition_strategy, PartitionStrategy::kTimeDay);
  EXPECT_FALSE(config->partition_source.has_value());
  EXPECT_EQ(config->value_converter, ValueConverter::kByteArray);
  EXPECT_FALSE(config->gsr_arn.has_value());

  // On the wire, no source column needs the Kafka metadata.
  std::string member;
  auto request = ParseCreateChannelRequest(body.dump(), &member);
  ASSERT_FALSE(request.has_value());
  EXPECT_EQ(member, "sourceList");
}

TEST(ChannelModelTest, ErrorsNameTheField) {
  auto expect_error = [](json body, const std::string& needle) {
    auto config = Stored(body);
    ASSERT_FALSE(config.has_value()) << needle;
    EXPECT_EQ(config.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(config.error().message().find(needle), std::string::npos) << config.error().message();
  };
  json body = Body();
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
  EXPECT_FALSE(ParseChannelConfig("not json", ChannelDocument::kStored).has_value());
  EXPECT_FALSE(ParseChannelConfig("[1]", ChannelDocument::kStored).has_value());
}

TEST(ChannelModelTest, RoundTripsThroughTheStoredDocument) {
  json body = Body();
  body["icebergDestinationConfiguration"]["deadLetterQueueS3"]["expectedBucketOwner"] =
      "123456789012";
  body["icebergDestinationConfiguration"]["catalog"]["catalogArn"] =
      "arn:aws:glue:us-east-1:123456789012:catalog/s3tablescatalog/tables";
  body["icebergDestinationConfiguration"]["deadLetterTopic"] = {{"topicName", "orders-dlq"}};
  body["icebergDestinationConfiguration"]["compressionType"] = "SNAPPY";
  body["encryptionConfiguration"] = {{"kmsKeyArn", "arn:aws:kms:us-east-1:123456789012:key/k"}};
  body["loggingInfo"] = {{"cloudWatchLogs", {{"enabled", true}, {"logGroup", "lg"}}}};
  auto config = ParseChannelConfig(body.dump(), ChannelDocument::kCreateRequest);
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->kms_key_arn, "arn:aws:kms:us-east-1:123456789012:key/k");

  const std::string stored = SerializeChannelConfig(*config);
  json document = json::parse(stored);
  // The stored document is the body with defaults filled.
  json expected = body;
  expected["icebergDestinationConfiguration"]["includeKafkaMetadata"] = true;
  EXPECT_EQ(document, expected) << document.dump(2);

  auto again = ParseChannelConfig(stored, ChannelDocument::kStored);
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(SerializeChannelConfig(*again), stored);
  EXPECT_EQ(again->compression, IcebergCompression::kSnappy);
  EXPECT_EQ(again->dlq_expected_bucket_owner, "123456789012");
  EXPECT_EQ(again->logging_info_json, config->logging_info_json);
}

// Extension: recordConverter.keyConverter, stored and echoed only when it is
// not the default; a typed key needs the _kafka column it lands in.
TEST(ChannelModelTest, KeyConverter) {
  json body = Body();
  auto config = ParseChannelConfig(body.dump(), ChannelDocument::kCreateRequest);
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->key_converter, KeyConverter::kByteArray);
  EXPECT_FALSE(
      json::parse(SerializeChannelConfig(*config))["topicConfigurationList"][0]["recordConverter"]
          .contains("keyConverter"));

  body["topicConfigurationList"][0]["recordConverter"]["keyConverter"] = "STRING";
  config = ParseChannelConfig(body.dump(), ChannelDocument::kCreateRequest);
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->key_converter, KeyConverter::kString);
  const std::string stored = SerializeChannelConfig(*config);
  EXPECT_EQ(json::parse(stored)["topicConfigurationList"][0]["recordConverter"]["keyConverter"],
            "STRING");
  auto again = ParseChannelConfig(stored, ChannelDocument::kStored);
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(again->key_converter, KeyConverter::kString);

  json bad = Body();
  bad["topicConfigurationList"][0]["recordConverter"]["keyConverter"] = "AVRO";
  ExpectInvalidMember(
      bad, "keyConverter",
      "use BYTE_ARRAY, STRING, AVRO_CONFLUENT, PROTOBUF_CONFLUENT or JSON_SCHEMA_CONFLUENT");
  // Typed keys go with any value converter (JSON here): their ids resolve
  // in the account's built-in Confluent-compatible registry.
  for (const char* typed : {"AVRO_CONFLUENT", "PROTOBUF_CONFLUENT", "JSON_SCHEMA_CONFLUENT"}) {
    json with_typed_key = Body();
    with_typed_key["topicConfigurationList"][0]["recordConverter"]["keyConverter"] = typed;
    auto typed_config = ParseChannelConfig(with_typed_key.dump(), ChannelDocument::kCreateRequest);
    ASSERT_TRUE(typed_config.has_value()) << typed << ": " << typed_config.error().ToString();
    EXPECT_EQ(KeyConverterName(typed_config->key_converter), typed);
  }
  bad = Body();
  bad["topicConfigurationList"][0]["recordConverter"]["keyConverter"] = 7;
  ExpectInvalidMember(bad, "keyConverter");
  bad = Body();
  bad["topicConfigurationList"][0]["recordConverter"]["keyConverter"] = "STRING";
  bad["icebergDestinationConfiguration"]["includeKafkaMetadata"] = false;
  ExpectInvalidMember(bad, "keyConverter", "needs includeKafkaMetadata true");
}

TEST(ChannelModelTest, StoredDocumentsOfEarlierReleasesParse) {
  // As the API stored it before the model: the client's members verbatim
  // (unknown ones too), defaults filled, no tags. A stored document may also
  // lack the wire-only constants (appendOnly, schemaEvolution, tableCreation).
  json old = Body();
  old["icebergDestinationConfiguration"]["includeKafkaMetadata"] = true;
  old["icebergDestinationConfiguration"]["somethingNew"] = {{"x", 1}};
  old["topicConfigurationList"][0]["extra"] = "kept by the old API";
  auto config = Stored(old);
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  json minimal = Body();
  minimal["icebergDestinationConfiguration"].erase("appendOnly");
  minimal["icebergDestinationConfiguration"].erase("schemaEvolution");
  minimal["icebergDestinationConfiguration"].erase("tableCreation");
  EXPECT_TRUE(Stored(minimal).has_value());
  std::string member;
  EXPECT_FALSE(
      ParseChannelConfig(minimal.dump(), ChannelDocument::kCreateRequest, &member).has_value());
  EXPECT_EQ(member, "appendOnly");
}

TEST(ChannelModelTest, RequestsNameTheInvalidMember) {
  struct Case {
    std::function<void(json&)> edit;
    std::string member;
  };
  const std::vector<Case> cases = {
      {[](json& b) { b.erase("channelName"); }, "channelName"},
      {[](json& b) {
         b["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "AVRO";
       },
       "valueConverter"},
      {[](json& b) { b["icebergDestinationConfiguration"]["appendOnly"] = false; }, "appendOnly"},
      {[](json& b) { b["icebergDestinationConfiguration"]["compressionType"] = "LZ4"; },
       "compressionType"},
      {[](json& b) {
         b["icebergDestinationConfiguration"]["destinationTableList"][0]["partitionSpec"]
          ["partitionStrategy"] = "TIME_MINUTE";
       },
       "partitionStrategy"},
      {[](json& b) { b["icebergDestinationConfiguration"]["dataFreshnessInSeconds"] = 901; },
       "dataFreshnessInSeconds"},
      {[](json& b) { b["icebergDestinationConfiguration"]["dataFreshnessInSeconds"] = "300"; },
       "dataFreshnessInSeconds"},
      {[](json& b) { b["icebergDestinationConfiguration"]["serviceExecutionRoleArn"] = "role"; },
       "serviceExecutionRoleArn"},
      {[](json& b) { b["s3DestinationConfiguration"] = json::object(); },
       "s3DestinationConfiguration"},
      {[](json& b) {
         b["encryptionConfiguration"] = {{"kmsKeyArn", "k"}};
       },
       "kmsKeyArn"},
      {[](json& b) {
         b["tags"] = {{"aws:x", "y"}};
       },
       "tags"},
  };
  for (const Case& c : cases) {
    json body = Body();
    c.edit(body);
    ExpectInvalidMember(body, c.member);
  }
  std::string member = "unset";
  EXPECT_FALSE(ParseCreateChannelRequest("[]", &member).has_value());
  EXPECT_EQ(member, "");

  json tagged = Body();
  tagged["tags"] = {{"team", "data"}};
  auto request = ParseCreateChannelRequest(tagged.dump());
  ASSERT_TRUE(request.has_value()) << request.error().ToString();
  EXPECT_EQ(request->tags.at("team"), "data");
  EXPECT_EQ(json::parse(SerializeChannelConfig(request->config)).count("tags"), 0u);
}

TEST(ChannelModelTest, UpdateRequests) {
  auto freshness =
      ParseUpdateChannelRequest(R"({"icebergDestinationUpdate":{"dataFreshnessInSeconds":900}})");
  ASSERT_TRUE(freshness.has_value()) << freshness.error().ToString();
  EXPECT_EQ(freshness->data_freshness, kMaxDataFreshness);
  EXPECT_FALSE(freshness->external_registry.has_value());
  // Our extension: the external registry alone (or with the freshness).
  auto registry = ParseUpdateChannelRequest(
      R"({"externalSchemaRegistryUpdate":{"url":"https://r.example:8081",
          "basicAuth":{"key":"k2","secret":"s2"}}})");
  ASSERT_TRUE(registry.has_value()) << registry.error().ToString();
  EXPECT_FALSE(registry->data_freshness.has_value());
  ASSERT_TRUE(registry->external_registry.has_value());
  EXPECT_EQ(registry->external_registry->url, "https://r.example:8081");
  EXPECT_EQ(registry->external_registry->basic_auth_key, "k2");
  EXPECT_EQ(registry->external_registry->basic_auth_secret, "s2");
  std::string member;
  EXPECT_FALSE(ParseUpdateChannelRequest(
      R"({"externalSchemaRegistryUpdate":{"url":"ftp://r.example"}})", &member));
  EXPECT_EQ(member, "url");
  EXPECT_FALSE(ParseUpdateChannelRequest(
      R"({"externalSchemaRegistryUpdate":{"url":"http://r","basicAuth":{"key":"k","sealedSecret":"x"}}})",
      &member));
  EXPECT_EQ(member, "sealedSecret");
  EXPECT_FALSE(ParseUpdateChannelRequest(R"({"icebergDestinationUpdate":{}})", &member));
  EXPECT_EQ(member, "dataFreshnessInSeconds");
  EXPECT_FALSE(ParseUpdateChannelRequest(R"({"s3DestinationUpdate":{}})", &member));
  EXPECT_EQ(member, "s3DestinationUpdate");
  EXPECT_FALSE(ParseUpdateChannelRequest(R"({})", &member));
  EXPECT_EQ(member, "icebergDestinationUpdate");
}

TEST(ChannelModelTest, FreshnessBounds) {
  EXPECT_EQ(kMinDataFreshness, std::chrono::seconds(1));
  EXPECT_EQ(kMaxDataFreshness, std::chrono::seconds(900));
  EXPECT_EQ(DataFreshnessFromSeconds(1).value(), kMinDataFreshness);
  EXPECT_EQ(DataFreshnessFromSeconds(900).value(), kMaxDataFreshness);
  for (int64_t bad : {int64_t{0}, int64_t{-1}, int64_t{901}, int64_t{1} << 40}) {
    auto refused = DataFreshnessFromSeconds(bad);
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_EQ(refused.error().message(),
              "dataFreshnessInSeconds must be between 1 and 900 (default 600).");
  }
  json huge = Body();
  huge["icebergDestinationConfiguration"]["dataFreshnessInSeconds"] = uint64_t{1} << 63;
  EXPECT_FALSE(Stored(huge).has_value());
}

TEST(ChannelModelTest, EveryEnumHasItsWireString) {
  const std::vector<std::pair<ValueConverter, std::string>> converters = {
      {ValueConverter::kJson, "JSON"},
      {ValueConverter::kJsonSchemaGsr, "JSON_SCHEMA_GSR"},
      {ValueConverter::kByteArray, "BYTE_ARRAY"},
      {ValueConverter::kString, "STRING"},
      {ValueConverter::kAvroGsr, "AVRO_GSR"},
      {ValueConverter::kAvroConfluent, "AVRO_CONFLUENT"},
      {ValueConverter::kProtobufConfluent, "PROTOBUF_CONFLUENT"},
      {ValueConverter::kJsonSchemaConfluent, "JSON_SCHEMA_CONFLUENT"},
      {ValueConverter::kProtobufGsr, "PROTOBUF_GSR"}};
  for (const auto& [value, name] : converters) {
    EXPECT_EQ(ValueConverterName(value), name);
    EXPECT_EQ(ParseValueConverter(name).value(), value);
  }
  const std::vector<std::tuple<IcebergCompression, std::string, std::string>> codecs = {
      {IcebergCompression::kZstd, "ZSTD", "zstd"},
      {IcebergCompression::kSnappy, "SNAPPY", "snappy"}};
  for (const auto& [value, name, codec] : codecs) {
    EXPECT_EQ(IcebergCompressionName(value), name);
    EXPECT_EQ(IcebergCompressionCodec(value), codec);
    EXPECT_EQ(ParseIcebergCompression(name).value(), value);
  }
  EXPECT_EQ(KeyConverterName(KeyConverter::kByteArray), "BYTE_ARRAY");
  EXPECT_EQ(KeyConverterName(KeyConverter::kString), "STRING");
  EXPECT_EQ(ParseKeyConverter("STRING").value(), KeyConverter::kString);
  EXPECT_EQ(PartitionStrategyName(PartitionStrategy::kTimeHour), "TIME_HOUR");
  EXPECT_EQ(PartitionStrategyName(PartitionStrategy::kTimeDay), "TIME_DAY");
  EXPECT_EQ(ParsePartitionStrategy("TIME_DAY").value(), PartitionStrategy::kTimeDay);
  const std::vector<std::pair<ChannelStateCode, std::string>> codes = {
      {ChannelStateCode::kAccessDenied, "ACCESS_DENIED"},
      {ChannelStateCode::kClusterNotFound, "CLUSTER_NOT_FOUND"},
      {ChannelStateCode::kDeliveryStalled, "DELIVERY_STALLED"},
      {ChannelStateCode::kDlqBucketNotFound, "DLQ_BUCKET_NOT_FOUND"},
      {ChannelStateCode::kInvalidClientProperty, "INVALID_CLIENT_PROPERTY"},
      {ChannelStateCode::kInvalidConfiguration, "INVALID_CONFIGURATION"},
      {ChannelStateCode::kInvalidSchema, "INVALID_SCHEMA"},
      {ChannelStateCode::kPaused, "PAUSED"},
      {ChannelStateCode::kSchemaNotFound, "SCHEMA_NOT_FOUND"},
      {ChannelStateCode::kTableAlreadyExists, "TABLE_ALREADY_EXISTS"},
      {ChannelStateCode::kTableBucketNotFound, "TABLE_BUCKET_NOT_FOUND"},
      {ChannelStateCode::kTableDeleted, "TABLE_DELETED"},
      {ChannelStateCode::kTopicNotFound, "TOPIC_NOT_FOUND"}};
  for (const auto& [value, name] : codes) {
    EXPECT_EQ(ChannelStateCodeName(value), name);
    EXPECT_EQ(ParseChannelStateCode(name).value(), value);
    ChannelStateInfo info = MakeStateInfo(value, "why");
    EXPECT_EQ(info, (ChannelStateInfo{name, "why"}));
    EXPECT_TRUE(HasStateCode(info, value));
  }
  EXPECT_FALSE(HasStateCode(std::nullopt, ChannelStateCode::kPaused));
}

TEST(ChannelModelTest, UnknownWireStringsAreClearErrors) {
  EXPECT_EQ(ParseValueConverter("AVRO").error().message(),
            "The valueConverter 'AVRO' is not valid: use JSON, JSON_SCHEMA_GSR, BYTE_ARRAY, "
            "STRING, AVRO_GSR, AVRO_CONFLUENT, PROTOBUF_CONFLUENT, JSON_SCHEMA_CONFLUENT or "
            "PROTOBUF_GSR.");
  EXPECT_EQ(ParseIcebergCompression("zstd").error().message(),
            "The compressionType 'zstd' is not valid: use ZSTD or SNAPPY.");
  EXPECT_EQ(ParsePartitionStrategy("TIME_MINUTE").error().message(),
            "The partitionStrategy 'TIME_MINUTE' is not valid: use TIME_HOUR or TIME_DAY.");
  auto code = ParseChannelStateCode("NOPE");
  ASSERT_FALSE(code.has_value());
  EXPECT_EQ(code.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(code.error().message().find("ACCESS_DENIED"), std::string::npos);
}

TEST(FieldUpdateTest, LeaveClearSet) {
  std::optional<std::string> field = "old";
  FieldUpdate<std::string> leave;
  EXPECT_TRUE(leave.is_leave());
  leave.ApplyTo(field);
  EXPECT_EQ(field, "old");
  FieldUpdate<std::string> set = std::string("new");
  EXPECT_TRUE(set.is_set());
  set.ApplyTo(field);
  EXPECT_EQ(field, "new");
  FieldUpdate<std::string> clear = std::nullopt;
  EXPECT_TRUE(clear.is_clear());
  EXPECT_FALSE(clear.is_set());
  clear.ApplyTo(field);
  EXPECT_FALSE(field.has_value());
  EXPECT_TRUE(FieldUpdate<int>::Clear().has_value());
  EXPECT_FALSE(FieldUpdate<int>::Clear()->has_value());
  EXPECT_EQ(**FieldUpdate<int>::Set(3), 3);
}

TEST(ArnsTest, IamRoleAndGenericArns) {
  auto role = ParseIamRoleArn("arn:aws:iam::123456789012:role/path/R");
  ASSERT_TRUE(role.has_value());
  EXPECT_EQ(role->account_id, "123456789012");
  EXPECT_EQ(role->role_name, "path/R");
  EXPECT_EQ(ParseIamRoleArn("arn:aws:iam:::role/R")->account_id, "");
  for (const char* bad : {"role", "arn:aws:iam::1:user/u", "arn:aws:iam::1:role/",
                          "arn:aws:s3:::role/x", "urn:aws:iam::1:role/R"}) {
    EXPECT_FALSE(ParseIamRoleArn(bad).has_value()) << bad;
  }
  auto kms = ParseArn("arn:aws-cn:kms:cn-north-1:123456789012:key/a:b");
  ASSERT_TRUE(kms.has_value());
  EXPECT_EQ(kms->partition, "aws-cn");
  EXPECT_EQ(kms->service, "kms");
  EXPECT_EQ(kms->resource, "key/a:b");
  EXPECT_FALSE(ParseArn("arn:aws:kms").has_value());
}

}  // namespace
}  // namespace st::catalog
