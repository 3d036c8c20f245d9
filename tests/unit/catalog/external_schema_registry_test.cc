// recordSchema.externalSchemaRegistry (issue 14 item 2): URL parsing, the
// allow-list, the create body → stored document → DescribeChannel echo, and
// which converters may name a registry.
#include "catalog/external_schema_registry.h"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "catalog/channel_model.h"

namespace st::catalog {

// channel_model_test.cc
void ExpectInvalidMember(const nlohmann::json& body, const std::string& member,
                         const std::string& needle);

namespace {

using nlohmann::json;

json ConfluentBody(const std::string& converter = "AVRO_CONFLUENT") {
  return json::parse(R"({
    "channelName": "orders-channel",
    "topicConfigurationList": [{"topicArn": "arn:aws:kafka:us-east-1:123456789012:topic/c/u/orders",
      "recordConverter": {"valueConverter": ")" +
                     converter + R"("},
      "recordSchema": {"externalSchemaRegistry": {"url": "http://Registry.Example:8081/sr/",
        "basicAuth": {"key": "SRKEY", "secret": "s3cr3t-value"}}}}],
    "icebergDestinationConfiguration": {"appendOnly": true,
      "serviceExecutionRoleArn": "arn:aws:iam::123456789012:role/R",
      "catalog": {"warehouseLocation": "arn:aws:s3tables:us-east-1:123456789012:bucket/tables"},
      "deadLetterQueueS3": {"bucketArn": "arn:aws:s3:::dlq"},
      "destinationTableList": [{"destinationDatabaseName": "ns", "destinationTableName": "orders"}],
      "schemaEvolution": {"enableSchemaEvolution": false},
      "tableCreation": {"enableTableCreation": true}}})");
}

TEST(ExternalSchemaRegistryTest, UrlsSplitIntoHostPortAndPrefix) {
  auto parsed = ParseExternalRegistryUrl("http://Registry.Example:8081/sr/");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  EXPECT_EQ(parsed->url, "http://Registry.Example:8081/sr");
  EXPECT_EQ(parsed->host, "registry.example");
  EXPECT_EQ(parsed->port, "8081");
  EXPECT_EQ(parsed->path_prefix, "/sr");
  EXPECT_EQ(parsed->host_port(), "registry.example:8081");

  auto bare = ParseExternalRegistryUrl("http://10.0.0.5");
  ASSERT_TRUE(bare.has_value());
  EXPECT_EQ(bare->port, "80");
  EXPECT_EQ(bare->path_prefix, "");
  auto v6 = ParseExternalRegistryUrl("http://[::1]:8081");
  ASSERT_TRUE(v6.has_value()) << v6.error().ToString();
  EXPECT_EQ(v6->host_port(), "[::1]:8081");
  EXPECT_FALSE(v6->tls);

  auto secure = ParseExternalRegistryUrl("HTTPS://Registry.Example/sr/");
  ASSERT_TRUE(secure.has_value()) << secure.error().ToString();
  EXPECT_TRUE(secure->tls);
  EXPECT_EQ(secure->url, "https://Registry.Example/sr");
  EXPECT_EQ(secure->host_port(), "registry.example:443");
  EXPECT_EQ(secure->path_prefix, "/sr");
}

TEST(ExternalSchemaRegistryTest, BadUrlsSayWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"ftp://r:21", "must start with http:// or https://"},
      {"https://user:pw@r:8443", "user info"},
      {"https://r:0", "1 to 65535"},
      {"http://user:pw@r:8081", "user info"},
      {"http://r:8081/x?y=1", "query or fragment"},
      {"http://r:8081/a b", "URL grammar"},
      {"http://r:8081/a\r\nX-Evil: 1", "URL grammar"},
      {"http://r:0", "1 to 65535"},
      {"http://r:99999", "1 to 65535"},
      {"http://:8081", "host is empty"},
      {"http://r_x:8081", "not a host name"},
      {"http://r:8081/" + std::string(kMaxRegistryUrlBytes, 'a'), "longer than"},
  };
  for (const auto& [url, needle] : cases) {
    auto parsed = ParseExternalRegistryUrl(url);
    ASSERT_FALSE(parsed.has_value()) << url;
    EXPECT_EQ(parsed.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.error().message().find(needle), std::string::npos)
        << url << ": " << parsed.error().message();
  }
}

TEST(ExternalSchemaRegistryTest, AllowListMatchesHostAndPortExactly) {
  auto hosts = ParseRegistryHostList(" Registry.Example:8081, 127.0.0.1:9000,,[::1]:80");
  ASSERT_TRUE(hosts.has_value()) << hosts.error().ToString();
  EXPECT_EQ(*hosts,
            (std::vector<std::string>{"registry.example:8081", "127.0.0.1:9000", "[::1]:80"}));
  EXPECT_TRUE(ParseRegistryHostList("")->empty());
  for (const char* bad : {"registry.example", "r:", "r:70000", "[::1]"}) {
    auto refused = ParseRegistryHostList(bad);
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_NE(refused.error().message().find("--external-registry-hosts"), std::string::npos);
  }

  auto registry = ParseExternalRegistryUrl("http://registry.example:8081/sr");
  ASSERT_TRUE(registry.has_value());
  EXPECT_TRUE(CheckRegistryHostAllowed(*registry, *hosts).ok());
  auto other_port = ParseExternalRegistryUrl("http://registry.example:8082");
  Status refused = CheckRegistryHostAllowed(*other_port, *hosts);
  EXPECT_EQ(refused.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.message().find("registry.example:8082"), std::string::npos);
  Status none = CheckRegistryHostAllowed(*registry, {});
  EXPECT_NE(none.message().find("--external-registry-hosts"), std::string::npos);
  EXPECT_NE(none.message().find("none is allowed"), std::string::npos);
}

TEST(ExternalSchemaRegistryTest, CreateBodyStoredDocumentAndDescribeEcho) {
  auto request = ParseCreateChannelRequest(ConfluentBody().dump());
  ASSERT_TRUE(request.has_value()) << request.error().ToString();
  ChannelConfig config = request->config;
  ASSERT_TRUE(config.external_registry.has_value());
  EXPECT_EQ(config.external_registry->url, "http://Registry.Example:8081/sr");
  EXPECT_EQ(config.external_registry->basic_auth_key, "SRKEY");
  EXPECT_EQ(config.external_registry->basic_auth_secret, "s3cr3t-value");

  // The plaintext secret is never written, even before it is sealed.
  EXPECT_EQ(SerializeChannelConfig(config).find("s3cr3t"), std::string::npos);

  config.external_registry->sealed_basic_auth_secret = "U0VBTEVE";
  config.external_registry->basic_auth_secret.reset();
  const std::string stored = SerializeChannelConfig(config);
  json external =
      json::parse(stored)["topicConfigurationList"][0]["recordSchema"]["externalSchemaRegistry"];
  EXPECT_EQ(external, json::parse(R"({"url": "http://Registry.Example:8081/sr",
                                      "basicAuth": {"key": "SRKEY", "sealedSecret": "U0VBTEVE"}})"));
  auto again = ParseChannelConfig(stored, ChannelDocument::kStored);
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(again->external_registry->sealed_basic_auth_secret, "U0VBTEVE");
  EXPECT_FALSE(again->external_registry->basic_auth_secret.has_value());
  EXPECT_EQ(SerializeChannelConfig(*again), stored);

  const std::string described = SerializeChannelConfig(*again, ChannelEcho::kDescribe);
  EXPECT_EQ(described.find("U0VBTEVE"), std::string::npos);
  EXPECT_EQ(described.find("sealedSecret"), std::string::npos);
  json shown = json::parse(described)["topicConfigurationList"][0]["recordSchema"];
  EXPECT_EQ(shown,
            json::parse(R"({"externalSchemaRegistry": {"url": "http://Registry.Example:8081/sr",
                                   "basicAuth": {"key": "SRKEY"}}})"));

  // The context binds the channel and the registry.
  const std::string context = ExternalRegistrySealContextOf(*again);
  // Deterministic: the API seals and delivery unseals with separately made contexts.
  EXPECT_EQ(ExternalRegistrySealContextOf(request->config), context);
  EXPECT_NE(context.find("SRKEY"), std::string::npos);
  EXPECT_NE(context.find("orders-channel"), std::string::npos);
  ChannelConfig rekeyed = *again;
  rekeyed.external_registry->basic_auth_key = "OTHER";
  EXPECT_NE(ExternalRegistrySealContextOf(rekeyed), context);
  ChannelConfig renamed = *again;
  renamed.channel_name = "other";
  EXPECT_NE(ExternalRegistrySealContextOf(renamed), context);
  ChannelConfig moved = *again;
  moved.external_registry->url = "http://elsewhere:8081";
  EXPECT_NE(ExternalRegistrySealContextOf(moved), context);
}

TEST(ExternalSchemaRegistryTest, EveryConfluentConverterMayNameOneWithOrWithoutCredentials) {
  for (const char* converter : {"AVRO_CONFLUENT", "PROTOBUF_CONFLUENT", "JSON_SCHEMA_CONFLUENT"}) {
    json body = ConfluentBody(converter);
    body["topicConfigurationList"][0]["recordSchema"]["externalSchemaRegistry"].erase("basicAuth");
    auto request = ParseCreateChannelRequest(body.dump());
    ASSERT_TRUE(request.has_value()) << converter << ": " << request.error().ToString();
    EXPECT_FALSE(request->config.external_registry->basic_auth_key.has_value());
  }
}

TEST(ExternalSchemaRegistryTest, RequestsNameTheInvalidMember) {
  struct Case {
    std::function<void(json&)> edit;
    std::string member;
    std::string needle;
  };
  auto external = [](json& b) -> json& {
    return b["topicConfigurationList"][0]["recordSchema"]["externalSchemaRegistry"];
  };
  const std::vector<Case> cases = {
      {[](json& b) {
         b["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "STRING";
       },
       "externalSchemaRegistry", "only for the AVRO_CONFLUENT"},
      {[](json& b) {
         b["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "AVRO_GSR";
       },
       "externalSchemaRegistry", "not AVRO_GSR"},
      {[](json& b) {
         b["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "JSON";
         b["topicConfigurationList"][0]["recordSchema"]["gsrArn"] =
             "arn:aws:glue:us-east-1:123456789012:schema/reg/orders";
       },
       "externalSchemaRegistry", "not JSON"},
      {[](json& b) { b["topicConfigurationList"][0]["recordSchema"] = json::object(); },
       "externalSchemaRegistry", "is missing"},
      {[&](json& b) { external(b)["url"] = "ftp://r:8081"; }, "url", "must start with"},
      {[&](json& b) { external(b).erase("url"); }, "url", "is missing"},
      {[&](json& b) { external(b)["basicAuth"].erase("secret"); }, "secret", "is missing"},
      {[&](json& b) { external(b)["basicAuth"]["secret"] = ""; }, "secret", "1 to 1024"},
      {[&](json& b) { external(b)["basicAuth"]["key"] = "a:b"; }, "key", "without ':'"},
      {[&](json& b) { external(b)["basicAuth"]["sealedSecret"] = "x"; }, "sealedSecret",
       "written by the server"},
  };
  for (const Case& c : cases) {
    json body = ConfluentBody();
    c.edit(body);
    ExpectInvalidMember(body, c.member, c.needle);
  }
  // A stored document must carry the sealed form, never a plaintext secret.
  json stored = ConfluentBody();
  EXPECT_FALSE(ParseChannelConfig(stored.dump(), ChannelDocument::kStored).has_value());
}

}  // namespace
}  // namespace st::catalog
