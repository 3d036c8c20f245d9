// The channel control plane driven through a real Router over an SQLite
// store: MSK wire shapes, validation (status + x-amzn-ErrorType +
// invalidParameter), lifecycle moves and what each route asks the authorizer.
#include "api/kafka/kafka_surface.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "catalog/arns.h"
#include "catalog/sqlite_metadata_store.h"

namespace st::api::kafka {
namespace {

using nlohmann::json;
constexpr const char* kAccount = "111122223333";

class TestAuthenticator final : public http::Authenticator {
 public:
  tl::expected<auth::Principal, http::HttpError> Authenticate(const http::Request&) const override {
    auth::Principal principal;
    principal.type = auth::PrincipalType::kUser;
    principal.account_id = account;
    principal.arn = "arn:aws:iam::" + account + ":user/admin";
    return principal;
  }
  std::string account = kAccount;
};

// Allows everything but `denied` actions and records what it was asked.
class RecordingAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal&,
                                       const auth::AccessRequest& access) const override {
    asked.push_back(access);
    if (denied.count(access.action) > 0) {
      return auth::AuthDecision{false, "User is not authorized to perform: " + access.action +
                                           " on resource: " + access.resource};
    }
    return auth::AuthDecision{true, ""};
  }
  mutable std::vector<auth::AccessRequest> asked;
  std::set<std::string> denied;
};

std::string Encode(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buffer[4];
      std::snprintf(buffer, sizeof(buffer), "%%%02X", c);
      out += buffer;
    }
  }
  return out;
}

class KafkaSurfaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kafka_surface_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    catalog::SqliteStoreOptions options;
    options.path = (dir_ / "catalog.db").string();
    options.durable_commits = false;
    store_ = std::move(catalog::OpenSqliteMetadataStore(options, clock_, random_).value());
    router_ = std::make_unique<http::Router>(authenticator_, authorizer_, logger_);
    KafkaDeps deps{*store_, authorizer_, kAccount};
    ASSERT_TRUE(router_->Mount(MakeKafkaSurface(deps)).ok());
    ASSERT_TRUE(router_->Mount(MakeKafkaOperationsSurface(deps)).ok());
    cluster_ =
        store_->CreateKafkaCluster({kAccount, "us-east-1", "local", "localhost:9092", {}}).value();
    bucket_ = store_->CreateTableBucket({kAccount, "us-east-1", "tables", {}}).value();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  struct Reply {
    int status;
    std::string type;
    json body;
  };

  Reply Call(const std::string& method, const std::string& target, const std::string& body = "") {
    auto request = http::MakeRequest(method, target, body);
    EXPECT_TRUE(request.has_value()) << target;
    request->request_id = "test-request";
    http::Response response = router_->Handle(*request);
    Reply reply{response.status, "", json()};
    if (auto type = response.headers.Get("x-amzn-ErrorType")) reply.type = std::string(*type);
    if (!response.body.empty()) reply.body = json::parse(response.body, nullptr, false);
    return reply;
  }

  std::string TopicArn(const std::string& topic = "orders") const {
    return catalog::KafkaTopicArn(catalog::ParseKafkaClusterArn(cluster_.arn).value(), topic);
  }
  std::string ChannelsPath() const { return "/v1/clusters/" + Encode(cluster_.arn) + "/channels"; }
  std::string ChannelPath(const std::string& arn) const {
    return ChannelsPath() + "/" + Encode(arn);
  }

  // The contract §3.1 body, adapted to this cluster and bucket.
  json CreateBody(const std::string& name = "orders-channel") const {
    json body = json::parse(R"({
 "topicConfigurationList":[{"recordConverter":{"valueConverter":"JSON"},
    "recordSchema":{"gsrArn":"arn:aws:glue:us-east-1:111122223333:schema/reg/orders"}}],
 "icebergDestinationConfiguration":{"appendOnly":true,
    "serviceExecutionRoleArn":"arn:aws:iam::111122223333:role/R","dataFreshnessInSeconds":300,
    "deadLetterQueueS3":{"bucketArn":"arn:aws:s3:::dlq","errorOutputPrefix":"err/"},
    "destinationTableList":[{"destinationDatabaseName":"ns","destinationTableName":"orders",
        "partitionSpec":{"partitionStrategy":"TIME_HOUR","sourceList":[{"sourceName":"event_time"}]}}],
    "schemaEvolution":{"enableSchemaEvolution":false},"tableCreation":{"enableTableCreation":true},
    "compressionType":"ZSTD"},
 "encryptionConfiguration":{"kmsKeyArn":"arn:aws:kms:us-east-1:111122223333:key/k"},
 "tags":{"a":"b"},
 "loggingInfo":{"cloudWatchLogs":{"enabled":true,"logGroup":"lg"}}})");
    body["channelName"] = name;
    body["topicConfigurationList"][0]["topicArn"] = TopicArn();
    body["icebergDestinationConfiguration"]["catalog"] = {{"warehouseLocation", bucket_.arn}};
    return body;
  }

  std::string Create(const json& body) {
    Reply reply = Call("POST", ChannelsPath(), body.dump());
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply.body.value("channelArn", "");
  }

  void ExpectBad(const json& body, const std::string& parameter, int status = 400,
                 const std::string& type = "BadRequestException") {
    Reply reply = Call("POST", ChannelsPath(), body.dump());
    EXPECT_EQ(reply.status, status) << parameter << ": " << reply.body;
    EXPECT_EQ(reply.type, type) << parameter;
    EXPECT_EQ(reply.body.value("invalidParameter", ""), parameter) << reply.body;
    EXPECT_FALSE(reply.body.value("message", "").empty());
  }

  // The channel moves to ACTIVE as the runtime would.
  void Activate(const std::string& arn) {
    catalog::ChannelChange change;
    change.expected_status = store_->GetChannel(arn)->status;
    change.status = catalog::ChannelStatus::kActive;
    ASSERT_TRUE(store_->UpdateChannel(arn, change).has_value());
  }

  std::filesystem::path dir_;
  ManualClock clock_{
      std::chrono::system_clock::time_point(std::chrono::milliseconds(1781778600000))};
  DefaultRandom random_{7};
  std::unique_ptr<catalog::MetadataStore> store_;
  TestAuthenticator authenticator_;
  RecordingAuthorizer authorizer_;
  NullLogger logger_;
  std::unique_ptr<http::Router> router_;
  catalog::KafkaCluster cluster_;
  catalog::TableBucket bucket_;
};

TEST_F(KafkaSurfaceTest, CreateDescribeEchoesConfiguration) {
  std::string arn = Create(CreateBody());
  auto parts = catalog::ParseKafkaChannelArn(arn);
  ASSERT_TRUE(parts.has_value()) << arn;
  EXPECT_EQ(parts->cluster.cluster_arn, cluster_.arn);
  EXPECT_EQ(parts->channel_name, "orders-channel");

  // CreateChannel asked for the channel action on the cluster, then PassRole and TagResource.
  ASSERT_GE(authorizer_.asked.size(), 3u);
  EXPECT_EQ(authorizer_.asked[0].action, "kafka:CreateChannel");
  EXPECT_EQ(authorizer_.asked[0].resource, cluster_.arn);
  EXPECT_EQ(authorizer_.asked[1].action, "iam:PassRole");
  EXPECT_EQ(authorizer_.asked[1].resource, "arn:aws:iam::111122223333:role/R");
  EXPECT_EQ(authorizer_.asked[1].condition_keys.at("iam:PassedToService")[0],
            "kafka.amazonaws.com");
  EXPECT_EQ(authorizer_.asked[2].action, "kafka:TagResource");

  authorizer_.asked.clear();
  Reply got = Call("GET", ChannelPath(arn));
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(authorizer_.asked[0].action, "kafka:DescribeChannel");
  EXPECT_EQ(authorizer_.asked[0].resource, arn);
  EXPECT_EQ(got.body["channelArn"], arn);
  EXPECT_EQ(got.body["channelName"], "orders-channel");
  EXPECT_EQ(got.body["status"], "CREATING");
  EXPECT_EQ(got.body["destinationType"], "ICEBERG");
  EXPECT_EQ(got.body["creationTime"], "2026-06-18T10:30:00.000Z");
  EXPECT_TRUE(catalog::ParseKafkaClusterOperationArn(got.body.value("clusterOperationArn", ""))
                  .has_value());
  EXPECT_EQ(got.body["tags"], (json{{"a", "b"}}));
  EXPECT_EQ(got.body["topicConfigurationList"][0]["topicArn"], TopicArn());
  const json& iceberg = got.body["icebergDestinationConfiguration"];
  EXPECT_EQ(iceberg["dataFreshnessInSeconds"], 300);
  EXPECT_EQ(iceberg["compressionType"], "ZSTD");
  EXPECT_EQ(iceberg["includeKafkaMetadata"], true);
  EXPECT_EQ(iceberg["catalog"]["warehouseLocation"], bucket_.arn);
  EXPECT_EQ(iceberg["destinationTableList"][0]["partitionSpec"]["sourceList"][0]["sourceName"],
            "event_time");
  EXPECT_EQ(got.body["encryptionConfiguration"]["kmsKeyArn"],
            "arn:aws:kms:us-east-1:111122223333:key/k");
  EXPECT_EQ(got.body["loggingInfo"]["cloudWatchLogs"]["logGroup"], "lg");

  // The stored configuration has defaults filled and no tags.
  json stored = json::parse(store_->GetChannel(arn)->configuration_json);
  EXPECT_FALSE(stored.contains("tags"));
  EXPECT_EQ(stored["icebergDestinationConfiguration"]["compressionType"], "ZSTD");

  // A duplicate name is 409.
  Reply dup = Call("POST", ChannelsPath(), CreateBody().dump());
  EXPECT_EQ(dup.status, 409);
  EXPECT_EQ(dup.type, "ConflictException");

  // The operation is visible while CREATING.
  Reply op = Call("GET", "/api/v2/operations/" + Encode(got.body["clusterOperationArn"]));
  ASSERT_EQ(op.status, 200) << op.body;
  EXPECT_EQ(op.body["clusterOperationInfo"]["operationType"], "CREATE_CHANNEL");
  EXPECT_EQ(op.body["clusterOperationInfo"]["clusterArn"], cluster_.arn);
  EXPECT_EQ(op.body["clusterOperationInfo"]["operationState"], "PENDING");
  EXPECT_FALSE(op.body["clusterOperationInfo"].contains("endTime"));

  // And after it ended, with how it ended.
  catalog::ChannelChange fail;
  fail.status = catalog::ChannelStatus::kFailed;
  fail.state_info = catalog::ChannelStateInfo{"ACCESS_DENIED", "role R may not kafka:Connect"};
  ASSERT_TRUE(store_->UpdateChannel(arn, fail).has_value());
  Reply ended = Call("GET", "/api/v2/operations/" + Encode(got.body["clusterOperationArn"]));
  ASSERT_EQ(ended.status, 200) << ended.body;
  const json& info = ended.body["clusterOperationInfo"];
  EXPECT_EQ(info["operationState"], "FAILED");
  EXPECT_TRUE(info.contains("endTime"));
  EXPECT_EQ(info["errorInfo"], (json{{"errorCode", "ACCESS_DENIED"},
                                     {"errorString", "role R may not kafka:Connect"}}));
}

TEST_F(KafkaSurfaceTest, DefaultsAndExtensions) {
  json body = CreateBody("defaults");
  json& iceberg = body["icebergDestinationConfiguration"];
  iceberg.erase("dataFreshnessInSeconds");
  iceberg.erase("compressionType");
  iceberg["destinationTableList"][0]["partitionSpec"] = {{"partitionStrategy", "TIME_DAY"}};
  iceberg["deadLetterTopic"] = {{"topicName", "orders-dlq"}};
  body["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "STRING";
  body["topicConfigurationList"][0].erase("recordSchema");
  body.erase("tags");
  std::string arn = Create(body);
  json stored = json::parse(store_->GetChannel(arn)->configuration_json);
  const json& out = stored["icebergDestinationConfiguration"];
  EXPECT_EQ(out["dataFreshnessInSeconds"], 600);
  EXPECT_EQ(out["compressionType"], "ZSTD");
  EXPECT_EQ(out["destinationTableList"][0]["partitionSpec"]["sourceList"], json::array());
  EXPECT_EQ(out["destinationTableList"][0]["partitionSpec"]["partitionStrategy"], "TIME_DAY");
  EXPECT_EQ(out["deadLetterTopic"]["topicName"], "orders-dlq");
  // No tags: no kafka:TagResource check.
  for (const auto& access : authorizer_.asked) EXPECT_NE(access.action, "kafka:TagResource");

  json one_second = CreateBody("fast");
  one_second["icebergDestinationConfiguration"]["dataFreshnessInSeconds"] = 1;
  Create(one_second);
}

TEST_F(KafkaSurfaceTest, ValidationNamesTheParameter) {
  auto with = [&](const std::function<void(json&)>& edit) {
    json body = CreateBody("bad");
    edit(body);
    return body;
  };
  ExpectBad(with([](json& b) { b["icebergDestinationConfiguration"].erase("appendOnly"); }),
            "appendOnly");
  ExpectBad(with([](json& b) { b["icebergDestinationConfiguration"]["appendOnly"] = false; }),
            "appendOnly");
  ExpectBad(
      with([](json& b) { b["icebergDestinationConfiguration"]["dataFreshnessInSeconds"] = 0; }),
      "dataFreshnessInSeconds");
  ExpectBad(
      with([](json& b) { b["icebergDestinationConfiguration"]["dataFreshnessInSeconds"] = 901; }),
      "dataFreshnessInSeconds");
  ExpectBad(
      with([](json& b) { b["topicConfigurationList"].push_back(b["topicConfigurationList"][0]); }),
      "topicConfigurationList");
  ExpectBad(with([](json& b) {
              b["topicConfigurationList"][0]["recordConverter"]["valueConverter"] = "AVRO";
            }),
            "valueConverter");
  ExpectBad(with([](json& b) { b["topicConfigurationList"][0].erase("recordSchema"); }),
            "recordSchema");
  ExpectBad(with([](json& b) {
              b["topicConfigurationList"][0]["topicArn"] =
                  "arn:aws:kafka:us-east-1:111122223333:topic/other/u/orders";
            }),
            "topicArn");
  ExpectBad(with([](json& b) { b["channelName"] = "bad name"; }), "channelName");
  ExpectBad(with([](json& b) { b.erase("channelName"); }), "channelName");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["schemaEvolution"]["enableSchemaEvolution"] =
                  true;
            }),
            "enableSchemaEvolution");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["tableCreation"]["enableTableCreation"] = false;
            }),
            "enableTableCreation");
  ExpectBad(with([](json& b) { b["icebergDestinationConfiguration"].erase("tableCreation"); }),
            "tableCreation");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["serviceExecutionRoleArn"] = "role";
            }),
            "serviceExecutionRoleArn");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["deadLetterQueueS3"]["bucketArn"] = "dlq";
            }),
            "bucketArn");
  ExpectBad(
      with([](json& b) {
        b["icebergDestinationConfiguration"]["destinationTableList"][0]["destinationDatabaseName"] =
            "Bad-Name";
      }),
      "destinationDatabaseName");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["destinationTableList"][0]["partitionSpec"]
               ["partitionStrategy"] = "TIME_MINUTE";
            }),
            "partitionStrategy");
  ExpectBad(with([](json& b) {
              json& spec =
                  b["icebergDestinationConfiguration"]["destinationTableList"][0]["partitionSpec"];
              spec["sourceList"].push_back({{"sourceName", "x"}});
            }),
            "sourceList");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["includeKafkaMetadata"] = false;
              b["icebergDestinationConfiguration"]["destinationTableList"][0]["partitionSpec"]
               ["sourceList"] = json::array();
            }),
            "sourceList");
  ExpectBad(with([](json& b) { b["icebergDestinationConfiguration"]["compressionType"] = "LZ4"; }),
            "compressionType");
  ExpectBad(with([](json& b) { b["icebergDestinationConfiguration"].erase("catalog"); }),
            "catalog");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["catalog"]["warehouseLocation"] =
                  "arn:aws:s3tables:us-east-1:111122223333:bucket/missing";
            }),
            "warehouseLocation");
  ExpectBad(with([](json& b) {
              b["icebergDestinationConfiguration"]["catalog"]["catalogArn"] =
                  "arn:aws:glue:us-east-1:111122223333:catalog/s3tablescatalog/other";
            }),
            "catalogArn");
  ExpectBad(with([](json& b) { b["s3DestinationConfiguration"] = json::object(); }),
            "s3DestinationConfiguration");
  ExpectBad(with([](json& b) { b["encryptionConfiguration"]["kmsKeyArn"] = "k"; }), "kmsKeyArn");
  ExpectBad(with([](json& b) { b["tags"] = {{"aws:x", "y"}}; }), "tags");

  // Unknown or foreign clusters are 404.
  std::string unknown = catalog::KafkaClusterArn("us-east-1", kAccount, "nope", "u");
  Reply missing =
      Call("POST", "/v1/clusters/" + Encode(unknown) + "/channels", CreateBody().dump());
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.type, "NotFoundException");
  EXPECT_EQ(missing.body["invalidParameter"], "clusterArn");
  authenticator_.account = "999988887777";
  ExpectBad(CreateBody(), "clusterArn", 404, "NotFoundException");
  authenticator_.account = kAccount;

  // A denied PassRole is 403 and creates nothing.
  authorizer_.denied.insert("iam:PassRole");
  Reply denied = Call("POST", ChannelsPath(), CreateBody("denied").dump());
  EXPECT_EQ(denied.status, 403);
  EXPECT_EQ(denied.type, "ForbiddenException");
  EXPECT_NE(denied.body["message"].get<std::string>().find("iam:PassRole"), std::string::npos);
  EXPECT_TRUE(store_->ListAllChannels()->empty());
}

TEST_F(KafkaSurfaceTest, CreateRefusesARoleOfAnotherAccountEvenWhenPassRoleIsAllowed) {
  for (const char* role : {"arn:aws:iam::999988887777:role/R", "arn:aws:iam:::role/R"}) {
    json body = CreateBody("foreign");
    body["icebergDestinationConfiguration"]["serviceExecutionRoleArn"] = role;
    Reply refused = Call("POST", ChannelsPath(), body.dump());
    EXPECT_EQ(refused.status, 403) << role;
    EXPECT_EQ(refused.type, "ForbiddenException");
    EXPECT_EQ(refused.body["invalidParameter"], "serviceExecutionRoleArn");
    EXPECT_NE(refused.body["message"].get<std::string>().find(role), std::string::npos);
    EXPECT_NE(refused.body["message"].get<std::string>().find(kAccount), std::string::npos);
  }
  EXPECT_TRUE(store_->ListAllChannels()->empty());
}

TEST_F(KafkaSurfaceTest, ListPagesAndFilters) {
  for (const char* name : {"c1", "c2", "c3"}) Create(CreateBody(name));
  json other = CreateBody("c4");
  other["topicConfigurationList"][0]["topicArn"] = TopicArn("payments");
  Create(other);

  std::vector<std::string> names;
  std::string token;
  int pages = 0;
  do {
    std::string target = ChannelsPath() + "?maxResults=3";
    if (!token.empty()) target += "&nextToken=" + Encode(token);
    Reply page = Call("GET", target);
    ASSERT_EQ(page.status, 200) << page.body;
    ++pages;
    for (const json& info : page.body["channels"]) {
      names.push_back(info["channelName"]);
      EXPECT_EQ(info["status"], "CREATING");
      EXPECT_EQ(info["destinationType"], "ICEBERG");
      EXPECT_TRUE(info.contains("creationTime"));
      EXPECT_FALSE(info.contains("topicConfigurationList"));
    }
    token = page.body.value("nextToken", "");
  } while (!token.empty());
  EXPECT_EQ(pages, 2);
  EXPECT_EQ(names, (std::vector<std::string>{"c1", "c2", "c3", "c4"}));

  Reply filtered = Call("GET", ChannelsPath() + "?topicNameFilter=payments");
  ASSERT_EQ(filtered.status, 200);
  ASSERT_EQ(filtered.body["channels"].size(), 1u);
  EXPECT_EQ(filtered.body["channels"][0]["channelName"], "c4");

  for (const char* bad : {"0", "101", "x"}) {
    Reply reply = Call("GET", ChannelsPath() + "?maxResults=" + bad);
    EXPECT_EQ(reply.status, 400) << bad;
    EXPECT_EQ(reply.body["invalidParameter"], "maxResults");
  }
  Reply bad_token = Call("GET", ChannelsPath() + "?nextToken=garbage");
  EXPECT_EQ(bad_token.status, 400);
  EXPECT_EQ(bad_token.body["invalidParameter"], "nextToken");
}

TEST_F(KafkaSurfaceTest, UpdatePauseDeleteAndTags) {
  std::string arn = Create(CreateBody());
  json update = {{"icebergDestinationUpdate", {{"dataFreshnessInSeconds", 120}}}};
  Reply early = Call("PUT", ChannelPath(arn), update.dump());
  EXPECT_EQ(early.status, 400);  // Still CREATING.

  Activate(arn);
  Reply described = Call("GET", ChannelPath(arn));
  EXPECT_EQ(described.body["status"], "ACTIVE");
  EXPECT_FALSE(described.body.contains("clusterOperationArn"));

  Reply bad = Call("PUT", ChannelPath(arn),
                   json{{"icebergDestinationUpdate", {{"dataFreshnessInSeconds", 0}}}}.dump());
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body["invalidParameter"], "dataFreshnessInSeconds");
  Reply s3 = Call("PUT", ChannelPath(arn),
                  json{{"s3DestinationUpdate", {{"dataFreshnessInSeconds", 300}}}}.dump());
  EXPECT_EQ(s3.body["invalidParameter"], "s3DestinationUpdate");

  Reply updated = Call("PUT", ChannelPath(arn), update.dump());
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(updated.body["channelArn"], arn);
  EXPECT_TRUE(updated.body.contains("clusterOperationArn"));
  Reply after = Call("GET", ChannelPath(arn));
  EXPECT_EQ(after.body["status"], "UPDATING");
  EXPECT_EQ(after.body["icebergDestinationConfiguration"]["dataFreshnessInSeconds"], 120);

  Reply paused = Call("POST", ChannelPath(arn) + "/pause");
  ASSERT_EQ(paused.status, 200) << paused.body;
  EXPECT_EQ(paused.body["paused"], true);
  EXPECT_TRUE(store_->GetChannel(arn)->paused);
  Reply resumed = Call("POST", ChannelPath(arn) + "/resume");
  EXPECT_EQ(resumed.body["paused"], false);

  // Tags on the channel ARN.
  std::string tags = "/v1/tags/" + Encode(arn);
  EXPECT_EQ(Call("POST", tags, json{{"tags", {{"team", "data"}}}}.dump()).status, 204);
  Reply listed = Call("GET", tags);
  EXPECT_EQ(listed.body["tags"], (json{{"a", "b"}, {"team", "data"}}));
  EXPECT_EQ(Call("DELETE", tags + "?tagKeys=a").status, 204);
  EXPECT_EQ(Call("GET", tags).body["tags"], (json{{"team", "data"}}));
  EXPECT_EQ(Call("GET", "/v1/tags/" + Encode(bucket_.arn)).body["invalidParameter"], "resourceArn");
  EXPECT_EQ(Call("GET", "/v1/tags/" + Encode(arn + "x")).status, 404);

  Reply deleted = Call("DELETE", ChannelPath(arn));
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_TRUE(deleted.body.contains("clusterOperationArn"));
  EXPECT_EQ(Call("GET", ChannelPath(arn)).body["status"], "DELETING");
  // Deleting again is accepted (still DELETING); pause is refused.
  EXPECT_EQ(Call("DELETE", ChannelPath(arn)).status, 200);
  EXPECT_EQ(Call("POST", ChannelPath(arn) + "/pause").status, 400);

  // The runtime removes the row: then 404 with the channel as the parameter.
  ASSERT_TRUE(store_->DeleteChannel(arn).ok());
  Reply gone = Call("GET", ChannelPath(arn));
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.type, "NotFoundException");
  EXPECT_EQ(gone.body["invalidParameter"], "channelArn");
  EXPECT_EQ(Call("DELETE", ChannelPath(arn)).status, 404);
}

}  // namespace
}  // namespace st::api::kafka
