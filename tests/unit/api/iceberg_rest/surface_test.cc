// The Iceberg REST surface in process: a Router with a fixed principal and a
// recording allow-all authorizer, over a real SQLite catalog and a local
// object store. Real clients are covered by tests/integration/test_iceberg_rest_*.py.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>

#include "api/iceberg_rest/iceberg_rest_surface.h"
#include "catalog/sqlite_metadata_store.h"
#include "common/logger.h"
#include "iceberg/json_serde.h"
#include "storage/local_object_store.h"

namespace st::api::iceberg_rest {
namespace {

using nlohmann::json;

constexpr const char* kAccount = "111122223333";
constexpr const char* kBucketArn = "arn:aws:s3tables:us-east-1:111122223333:bucket/bucket1";
constexpr const char* kPrefix =
    "arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fbucket1";

class FixedAuthenticator final : public http::Authenticator {
 public:
  auth::Principal principal;
  tl::expected<auth::Principal, http::HttpError> Authenticate(const http::Request&) const override {
    return principal;
  }
};

class RecordingAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal&,
                                       const auth::AccessRequest& access) const override {
    std::lock_guard<std::mutex> lock(mu_);
    last_ = access;
    return auth::AuthDecision{true, ""};
  }
  auth::AccessRequest last() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_;
  }

 private:
  mutable std::mutex mu_;
  mutable auth::AccessRequest last_;
};

class NullLogger final : public Logger {
 public:
  void Log(LogLevel, std::string_view, std::initializer_list<LogField>) override {}
  bool Enabled(LogLevel) const override { return false; }
};

struct Reply {
  int status = 0;
  json body;
  std::string raw;
};

class IcebergRestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-icerest-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = catalog::OpenSqliteMetadataStore({dir_ + "/catalog.db"}, clock_, random_);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = *std::move(store);
    auto objects = storage::OpenLocalObjectStore(dir_ + "/objects");
    ASSERT_TRUE(objects.has_value());
    objects_ = *std::move(objects);
    commits_ = std::make_unique<catalog::TableCommits>(*store_, *objects_, clock_, random_);

    ASSERT_TRUE(store_->CreateAccount(kAccount).ok());
    auto user = store_->CreateIdentity(catalog::IdentityKind::kUser, kAccount, "alice");
    ASSERT_TRUE(user.has_value());
    auto key = store_->CreateAccessKey(user->arn);
    ASSERT_TRUE(key.has_value());
    key_ = *key;
    authenticator_.principal = {auth::PrincipalType::kUser, kAccount, user->arn, "alice", "", ""};
    ASSERT_TRUE(store_->CreateTableBucket({kAccount, "us-east-1", "bucket1", {}}).has_value());

    router_ = std::make_unique<http::Router>(authenticator_, authorizer_, logger_);
    IcebergRestDeps deps{*store_, *commits_, *objects_, "", "us-east-1", "http://127.0.0.1:9000",
                         clock_,  random_};
    ASSERT_TRUE(router_->Mount(MakeIcebergRestSurface(deps)).ok());
  }
  void TearDown() override {
    router_.reset();
    commits_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  Reply Call(const std::string& method, const std::string& target, const std::string& body = "") {
    auto request = http::MakeRequest(method, "/iceberg" + target, body);
    EXPECT_TRUE(request.has_value());
    request->headers.Add("Authorization", "AWS4-HMAC-SHA256 Credential=" + key_.access_key_id +
                                              "/20261130/us-east-1/s3tables/aws4_request, "
                                              "SignedHeaders=host, Signature=00");
    http::Response response = router_->Handle(*request);
    Reply reply{response.status, json(), response.body};
    if (!response.body.empty()) reply.body = json::parse(response.body, nullptr, false);
    return reply;
  }
  static std::string Ns(const std::string& name = "ns") {
    return std::string("/v1/") + kPrefix + "/namespaces/" + name;
  }
  static std::string Table(const std::string& name = "t") { return Ns() + "/tables/" + name; }

  static std::string CreateTableBody(const std::string& name, bool stage = false) {
    json body = {
        {"name", name},
        {"schema",
         {{"type", "struct"},
          {"schema-id", 0},
          {"fields",
           json::array({{{"id", 1}, {"name", "id"}, {"type", "long"}, {"required", true}},
                        {{"id", 2}, {"name", "v"}, {"type", "string"}, {"required", false}}})}}},
        {"partition-spec", {{"spec-id", 0}, {"fields", json::array()}}},
        {"write-order", {{"order-id", 0}, {"fields", json::array()}}},
        {"stage-create", stage},
        {"properties", {{"owner", "alice"}}}};
    return body.dump();
  }

  void MakeNamespaceAndTable() {
    ASSERT_EQ(Call("POST", std::string("/v1/") + kPrefix + "/namespaces", R"({"namespace":["ns"]})")
                  .status,
              200);
    ASSERT_EQ(Call("POST", Ns() + "/tables", CreateTableBody("t")).status, 200);
  }

  static void ExpectError(const Reply& reply, int status, const std::string& type) {
    EXPECT_EQ(reply.status, status) << reply.raw;
    ASSERT_TRUE(reply.body.is_object()) << reply.raw;
    EXPECT_EQ(reply.body["error"]["type"], type) << reply.raw;
    EXPECT_EQ(reply.body["error"]["code"], status);
    EXPECT_TRUE(reply.body["error"]["message"].is_string());
  }

  std::string dir_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1733250000))};
  DefaultRandom random_{7};
  std::unique_ptr<catalog::MetadataStore> store_;
  std::unique_ptr<storage::ObjectStore> objects_;
  std::unique_ptr<catalog::TableCommits> commits_;
  catalog::AccessKey key_;
  FixedAuthenticator authenticator_;
  RecordingAuthorizer authorizer_;
  NullLogger logger_;
  std::unique_ptr<http::Router> router_;
};

TEST_F(IcebergRestTest, ConfigGivesEncodedPrefixEndpointsAndS3Defaults) {
  Reply reply = Call("GET", std::string("/v1/config?warehouse=") + kPrefix);
  ASSERT_EQ(reply.status, 200) << reply.raw;
  EXPECT_EQ(reply.body["overrides"]["prefix"], kPrefix);
  EXPECT_EQ(reply.body["defaults"]["s3.endpoint"], "http://127.0.0.1:9000");
  EXPECT_EQ(reply.body["defaults"]["s3.path-style-access"], "true");
  EXPECT_EQ(reply.body["defaults"]["client.region"], "us-east-1");
  std::vector<std::string> endpoints = reply.body["endpoints"];
  EXPECT_NE(std::find(endpoints.begin(), endpoints.end(),
                      "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}"),
            endpoints.end());
  EXPECT_NE(
      std::find(endpoints.begin(), endpoints.end(), "HEAD /v1/{prefix}/namespaces/{namespace}"),
      endpoints.end());
  EXPECT_EQ(authorizer_.last().action, "s3tables:GetTableBucket");
  EXPECT_EQ(authorizer_.last().resource, kBucketArn);

  ExpectError(Call("GET", "/v1/config"), 400, "BadRequestException");
  ExpectError(Call("GET", "/v1/config?warehouse=not-an-arn"), 400, "BadRequestException");
  ExpectError(
      Call("GET",
           "/v1/config?warehouse=arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fnope"),
      404, "NoSuchWarehouseException");
}

TEST_F(IcebergRestTest, NamespacesLifecycle) {
  const std::string list = std::string("/v1/") + kPrefix + "/namespaces";
  ASSERT_EQ(Call("POST", list, R"({"namespace":["a"],"properties":{"owner":"x"}})").status, 200);
  Reply created = Call("POST", list, R"({"namespace":["b"]})");
  ASSERT_EQ(created.status, 200);
  EXPECT_EQ(created.body, json::parse(R"({"namespace":["b"],"properties":{}})"));
  ExpectError(Call("POST", list, R"({"namespace":["a"]})"), 409, "AlreadyExistsException");
  ExpectError(Call("POST", list, R"({"namespace":["a","b"]})"), 400, "BadRequestException");
  ExpectError(Call("POST", list, R"({"namespace":"a"})"), 400, "BadRequestException");
  ExpectError(Call("POST", list, R"({"namespace":["Bad-Name"]})"), 400, "BadRequestException");

  Reply all = Call("GET", list);
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.body["namespaces"], json::parse(R"([["a"],["b"]])"));
  EXPECT_TRUE(all.body["next-page-token"].is_null());
  Reply first = Call("GET", list + "?pageToken=&pageSize=1");
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.body["namespaces"], json::parse(R"([["a"]])"));
  ASSERT_TRUE(first.body["next-page-token"].is_string());
  Reply second = Call(
      "GET", list + "?pageSize=1&pageToken=" + first.body["next-page-token"].get<std::string>());
  EXPECT_EQ(second.body["namespaces"], json::parse(R"([["b"]])"));
  EXPECT_EQ(Call("GET", list + "?parent=a").body["namespaces"], json::array());

  EXPECT_EQ(Call("GET", Ns("a")).body, json::parse(R"({"namespace":["a"],"properties":{}})"));
  EXPECT_EQ(authorizer_.last().condition_keys.at("s3tables:namespace"),
            std::vector<std::string>{"a"});
  EXPECT_EQ(Call("HEAD", Ns("a")).status, 204);
  EXPECT_EQ(Call("HEAD", Ns("zz")).status, 404);
  ExpectError(Call("GET", Ns("zz")), 404, "NoSuchNamespaceException");
  ExpectError(Call("GET", Ns("a%1Fb")), 400, "BadRequestException");
  ExpectError(Call("POST", Ns("a") + "/properties", R"({"updates":{"k":"v"}})"), 406,
              "UnsupportedOperationException");
  EXPECT_EQ(Call("DELETE", Ns("a")).status, 204);
  ExpectError(Call("DELETE", Ns("a")), 404, "NoSuchNamespaceException");
}

TEST_F(IcebergRestTest, CreateLoadAndConfigWithCallerCredentials) {
  MakeNamespaceAndTable();
  ExpectError(Call("DELETE", Ns()), 409, "NamespaceNotEmptyException");
  Reply loaded = Call("GET", Table() + "?snapshots=all");
  ASSERT_EQ(loaded.status, 200) << loaded.raw;
  auto table = store_->GetTable(kBucketArn, "ns", "t");
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(loaded.body["metadata-location"], *table->metadata_location);
  EXPECT_EQ(loaded.body["metadata"]["location"], table->warehouse_location);
  EXPECT_EQ(loaded.body["metadata"]["properties"]["owner"], "alice");
  EXPECT_EQ(loaded.body["config"]["s3.endpoint"], "http://127.0.0.1:9000");
  EXPECT_EQ(loaded.body["config"]["s3.access-key-id"], key_.access_key_id);
  EXPECT_EQ(loaded.body["config"]["s3.secret-access-key"], key_.secret_access_key);
  EXPECT_EQ(authorizer_.last().action, "s3tables:GetTableMetadataLocation");
  EXPECT_EQ(authorizer_.last().resource, table->arn);
  EXPECT_EQ(authorizer_.last().condition_keys.at("s3tables:tableName"),
            std::vector<std::string>{"t"});

  EXPECT_EQ(Call("HEAD", Table()).status, 204);
  EXPECT_EQ(Call("HEAD", Table("nope")).status, 404);
  EXPECT_EQ(authorizer_.last().resource, std::string(kBucketArn) + "/table/*");
  ExpectError(Call("GET", Table("nope")), 404, "NoSuchTableException");
  ExpectError(Call("GET", Ns("nope") + "/tables/t"), 404, "NoSuchTableException");
  ExpectError(Call("POST", Ns() + "/tables", CreateTableBody("t")), 409, "AlreadyExistsException");

  Reply listed = Call("GET", Ns() + "/tables");
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body["identifiers"], json::parse(R"([{"namespace":["ns"],"name":"t"}])"));
  ExpectError(Call("GET", Ns("nope") + "/tables"), 404, "NoSuchNamespaceException");
}

TEST_F(IcebergRestTest, CreateTableBadInputIs400) {
  ASSERT_EQ(
      Call("POST", std::string("/v1/") + kPrefix + "/namespaces", R"({"namespace":["ns"]})").status,
      200);
  const std::string tables = Ns() + "/tables";
  ExpectError(Call("POST", tables, "{not json"), 400, "BadRequestException");
  ExpectError(Call("POST", tables, "[]"), 400, "BadRequestException");
  ExpectError(Call("POST", tables, R"({"name":1,"schema":{}})"), 400, "BadRequestException");
  ExpectError(Call("POST", tables, R"({"name":"t"})"), 400, "BadRequestException");
  ExpectError(Call("POST", tables, R"({"name":"t","schema":{"type":"struct","fields":"x"}})"), 400,
              "BadRequestException");
  json with_location = json::parse(CreateTableBody("t"));
  with_location["location"] = "s3://elsewhere/";
  ExpectError(Call("POST", tables, with_location.dump()), 400, "BadRequestException");
  json bad_stage = json::parse(CreateTableBody("t"));
  bad_stage["stage-create"] = "yes";
  ExpectError(Call("POST", tables, bad_stage.dump()), 400, "BadRequestException");
  ExpectError(Call("POST", tables, CreateTableBody("Bad-Name")), 400, "BadRequestException");
}

json AppendPropertiesCommit(const std::string& uuid, const std::string& value) {
  return {{"requirements", json::array({{{"type", "assert-table-uuid"}, {"uuid", uuid}}})},
          {"updates", json::array({{{"action", "set-properties"}, {"updates", {{"k", value}}}}})}};
}

TEST_F(IcebergRestTest, CommitAppliesUpdatesAndRejectsStaleRequirements) {
  MakeNamespaceAndTable();
  Reply loaded = Call("GET", Table());
  std::string uuid = loaded.body["metadata"]["table-uuid"];
  Reply committed = Call("POST", Table(), AppendPropertiesCommit(uuid, "1").dump());
  ASSERT_EQ(committed.status, 200) << committed.raw;
  EXPECT_EQ(committed.body["metadata"]["properties"]["k"], "1");
  EXPECT_NE(committed.body["metadata-location"], loaded.body["metadata-location"]);
  EXPECT_EQ(authorizer_.last().action, "s3tables:UpdateTableMetadataLocation");
  EXPECT_EQ(Call("GET", Table()).body["metadata-location"], committed.body["metadata-location"]);

  ExpectError(Call("POST", Table(),
                   AppendPropertiesCommit("00000000-0000-0000-0000-000000000000", "2").dump()),
              409, "CommitFailedException");
  json stale = {
      {"requirements",
       json::array(
           {{{"type", "assert-ref-snapshot-id"}, {"ref", "main"}, {"snapshot-id", 12345}}})},
      {"updates", json::array()}};
  ExpectError(Call("POST", Table(), stale.dump()), 409, "CommitFailedException");

  ExpectError(Call("POST", Table(), "{"), 400, "BadRequestException");
  ExpectError(Call("POST", Table(), R"({"requirements":[],"updates":[{"action":"explode"}]})"), 400,
              "BadRequestException");
  ExpectError(Call("POST", Table(), R"({"requirements":[{"type":"assert-nothing"}],"updates":[]})"),
              400, "BadRequestException");
  ExpectError(Call("POST", Table(), R"({"requirements":{},"updates":[]})"), 400,
              "BadRequestException");
  ExpectError(
      Call("POST", Table(),
           R"({"requirements":[],"updates":[{"action":"set-properties","updates":{"k":5}}]})"),
      400, "BadRequestException");
  ExpectError(
      Call("POST", Table(),
           R"({"identifier":{"namespace":["ns"],"name":"other"},"requirements":[],"updates":[]})"),
      400, "BadRequestException");
  ExpectError(Call("POST", Table("nope"), R"({"requirements":[],"updates":[]})"), 404,
              "NoSuchTableException");
  EXPECT_EQ(Call("POST", Table() + "/metrics", R"({"report-type":"scan-report"})").status, 204);
  // Nothing above changed the table.
  EXPECT_EQ(Call("GET", Table()).body["metadata-location"], committed.body["metadata-location"]);
}

TEST_F(IcebergRestTest, StreamingTableRefusesCommitsAndCreateOverItsName) {
  ASSERT_TRUE(store_->CreateNamespace(kBucketArn, "ns", kAccount).has_value());
  const std::string channel = "arn:aws:kafka:us-east-1:111122223333:channel/c1";
  auto schema = iceberg::SchemaFromJson(json::parse(
      R"({"type":"struct","fields":[{"id":1,"name":"id","type":"long","required":true}]})"));
  ASSERT_TRUE(schema.has_value());
  catalog::InitialMetadata initial{
      *schema, iceberg::PartitionSpec::Unpartitioned(), iceberg::SortOrder::Unsorted(), {}};
  auto created =
      commits_->CreateTable({kBucketArn, "ns", "s", kAccount, channel, std::nullopt}, initial);
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  std::string before = *created->table.metadata_location;

  Reply refused = Call("POST", Table("s"),
                       AppendPropertiesCommit(created->metadata->metadata.table_uuid, "x").dump());
  ExpectError(refused, 403, "ForbiddenException");
  EXPECT_NE(refused.body["error"]["message"].get<std::string>().find(channel), std::string::npos);
  ExpectError(Call("POST", Table("s"), R"({"requirements":[],"updates":[]})"), 403,
              "ForbiddenException");
  Reply over = Call("POST", Ns() + "/tables", CreateTableBody("s"));
  ExpectError(over, 403, "ForbiddenException");
  EXPECT_NE(over.raw.find(channel), std::string::npos);
  ExpectError(
      Call(
          "POST", std::string("/v1/") + kPrefix + "/tables/rename",
          R"({"source":{"namespace":["ns"],"name":"s"},"destination":{"namespace":["ns"],"name":"s2"}})"),
      403, "ForbiddenException");
  EXPECT_EQ(*store_->GetTable(kBucketArn, "ns", "s")->metadata_location, before);
  EXPECT_EQ(Call("DELETE", Table("s")).status, 204);
}

TEST_F(IcebergRestTest, StagedCreateThenAssertCreateCommit) {
  ASSERT_EQ(
      Call("POST", std::string("/v1/") + kPrefix + "/namespaces", R"({"namespace":["ns"]})").status,
      200);
  Reply staged = Call("POST", Ns() + "/tables", CreateTableBody("st", true));
  ASSERT_EQ(staged.status, 200) << staged.raw;
  EXPECT_TRUE(staged.body["metadata-location"].is_null());
  EXPECT_EQ(Call("HEAD", Table("st")).status, 404);
  const json& m = staged.body["metadata"];
  json commit = {
      {"requirements", json::array({{{"type", "assert-create"}}})},
      {"updates", json::array({{{"action", "assign-uuid"}, {"uuid", m["table-uuid"]}},
                               {{"action", "upgrade-format-version"}, {"format-version", 2}},
                               {{"action", "add-schema"}, {"schema", m["schemas"][0]}},
                               {{"action", "set-current-schema"}, {"schema-id", -1}},
                               {{"action", "add-spec"}, {"spec", m["partition-specs"][0]}},
                               {{"action", "set-default-spec"}, {"spec-id", -1}},
                               {{"action", "add-sort-order"}, {"sort-order", m["sort-orders"][0]}},
                               {{"action", "set-default-sort-order"}, {"sort-order-id", -1}},
                               {{"action", "set-location"}, {"location", m["location"]}},
                               {{"action", "set-properties"}, {"updates", m["properties"]}}})}};
  Reply committed = Call("POST", Table("st"), commit.dump());
  ASSERT_EQ(committed.status, 200) << committed.raw;
  EXPECT_EQ(committed.body["metadata"]["table-uuid"], m["table-uuid"]);
  EXPECT_EQ(Call("HEAD", Table("st")).status, 204);
  ExpectError(Call("POST", Table("st"), commit.dump()), 409, "CommitFailedException");
}

TEST_F(IcebergRestTest, RenameAndDropPurgesFiles) {
  MakeNamespaceAndTable();
  auto table = store_->GetTable(kBucketArn, "ns", "t");
  ASSERT_TRUE(table.has_value());
  const std::string rename = std::string("/v1/") + kPrefix + "/tables/rename";
  ExpectError(
      Call(
          "POST", rename,
          R"({"source":{"namespace":["ns"],"name":"t"},"destination":{"namespace":["zz"],"name":"t2"}})"),
      404, "NoSuchNamespaceException");
  ExpectError(
      Call(
          "POST", rename,
          R"({"source":{"namespace":["ns"],"name":"nope"},"destination":{"namespace":["ns"],"name":"t2"}})"),
      404, "NoSuchTableException");
  ExpectError(Call("POST", rename, R"({"source":{"namespace":["ns"],"name":"t"}})"), 400,
              "BadRequestException");
  EXPECT_EQ(
      Call(
          "POST", rename,
          R"({"source":{"namespace":["ns"],"name":"t"},"destination":{"namespace":["ns"],"name":"t2"}})")
          .status,
      204);
  EXPECT_EQ(authorizer_.last().action, "s3tables:RenameTable");
  EXPECT_EQ(Call("HEAD", Table("t")).status, 404);
  EXPECT_EQ(Call("HEAD", Table("t2")).status, 204);

  std::string key_prefix = catalog::TableFileIO(*objects_, *table, "").key_prefix();
  ASSERT_FALSE(objects_->List(key_prefix)->empty());
  ExpectError(Call("DELETE", Table("t2") + "?purgeRequested=maybe"), 400, "BadRequestException");
  EXPECT_EQ(Call("DELETE", Table("t2") + "?purgeRequested=False").status, 204);
  EXPECT_TRUE(objects_->List(key_prefix)->empty());
  ExpectError(Call("DELETE", Table("t2")), 404, "NoSuchTableException");
}

}  // namespace
}  // namespace st::api::iceberg_rest

namespace st::api::iceberg_rest {
namespace {

TEST_F(IcebergRestTest, CreateTableAssignsFreshIdsLikeJavaCatalogs) {
  ASSERT_EQ(
      Call("POST", std::string("/v1/") + kPrefix + "/namespaces", R"({"namespace":["ns"]})").status,
      200);
  // As Iceberg Java (Spark) sends it: ids from 0, nested types numbered after.
  json body = json::parse(R"({
    "name": "j",
    "schema": {"type": "struct", "schema-id": 0, "identifier-field-ids": [0], "fields": [
      {"id": 0, "name": "id", "required": true, "type": "long"},
      {"id": 1, "name": "tags", "required": false,
       "type": {"type": "list", "element-id": 4, "element-required": false, "element": "string"}},
      {"id": 2, "name": "attrs", "required": false,
       "type": {"type": "map", "key-id": 5, "key": "string", "value-id": 6,
                "value-required": false,
                "value": {"type": "struct", "fields": [
                  {"id": 7, "name": "x", "required": false, "type": "int"}]}}},
      {"id": 3, "name": "ts", "required": false, "type": "timestamptz"}]},
    "partition-spec": {"spec-id": 0, "fields": [
      {"source-id": 3, "field-id": 1000, "name": "ts_day", "transform": "day"}]},
    "write-order": {"order-id": 1, "fields": [
      {"source-id": 0, "transform": "identity", "direction": "asc", "null-order": "nulls-first"}]},
    "stage-create": false})");
  Reply created = Call("POST", Ns() + "/tables", body.dump());
  ASSERT_EQ(created.status, 200) << created.raw;
  const json& m = created.body["metadata"];
  const json& fields = m["schemas"][0]["fields"];
  EXPECT_EQ(fields[0]["id"], 1);
  EXPECT_EQ(fields[1]["id"], 2);
  EXPECT_EQ(fields[2]["id"], 3);
  EXPECT_EQ(fields[3]["id"], 4);
  EXPECT_EQ(fields[1]["type"]["element-id"], 5);
  EXPECT_EQ(fields[2]["type"]["key-id"], 6);
  EXPECT_EQ(fields[2]["type"]["value-id"], 7);
  EXPECT_EQ(fields[2]["type"]["value"]["fields"][0]["id"], 8);
  EXPECT_EQ(m["schemas"][0]["identifier-field-ids"], json::array({1}));
  EXPECT_EQ(m["last-column-id"], 8);
  EXPECT_EQ(m["partition-specs"][0]["fields"][0]["source-id"], 4);
  EXPECT_EQ(m["sort-orders"].back()["fields"][0]["source-id"], 1);

  body["name"] = "dup";
  body["schema"]["fields"][3]["id"] = 0;  // two columns claim id 0
  ExpectError(Call("POST", Ns() + "/tables", body.dump()), 400, "BadRequestException");
}

// The exception types and messages Iceberg's REST spec gives, which Java
// clients and the REST Compatibility Kit (tests/integration/
// test_rest_compatibility_kit.py) check.
TEST_F(IcebergRestTest, NamespaceAndTableLookupErrorsFollowTheRestSpec) {
  const std::string list = std::string("/v1/") + kPrefix + "/namespaces";
  MakeNamespaceAndTable();
  auto message = [](const Reply& reply) {
    return reply.body["error"]["message"].get<std::string>();
  };

  Reply exists = Call("POST", list, R"({"namespace":["ns"]})");
  ExpectError(exists, 409, "AlreadyExistsException");
  EXPECT_EQ(message(exists).rfind("Namespace already exists: ns", 0), 0u) << exists.raw;
  Reply missing = Call("GET", Ns("zz"));
  ExpectError(missing, 404, "NoSuchNamespaceException");
  EXPECT_EQ(message(missing), "Namespace does not exist: zz");
  ExpectError(Call("GET", list + "?parent=zz"), 404, "NoSuchNamespaceException");

  // Calls on one table say NoSuchTableException even when the namespace is
  // missing (loadTable, tableExists, dropTable, updateTable, rename source).
  Reply load = Call("GET", Ns("zz") + "/tables/t");
  ExpectError(load, 404, "NoSuchTableException");
  EXPECT_EQ(message(load).rfind("Table does not exist: zz.t", 0), 0u) << load.raw;
  EXPECT_EQ(Call("HEAD", Ns("zz") + "/tables/t").status, 404);
  ExpectError(Call("DELETE", Ns("zz") + "/tables/t"), 404, "NoSuchTableException");
  ExpectError(Call("POST", Ns("zz") + "/tables/t", R"({"requirements":[],"updates":[]})"), 404,
              "NoSuchTableException");
  ExpectError(
      Call(
          "POST", std::string("/v1/") + kPrefix + "/tables/rename",
          R"({"source":{"namespace":["zz"],"name":"t"},"destination":{"namespace":["ns"],"name":"t2"}})"),
      404, "NoSuchTableException");
  // A nested namespace cannot exist, so neither can a table in it (Java loads
  // `ns.t.files` as a table first, then as a metadata table of ns.t).
  Reply nested = Call("GET", Ns("ns%1Ft") + "/tables/files");
  ExpectError(nested, 404, "NoSuchTableException");
  EXPECT_EQ(message(nested).rfind("Table does not exist: ns.t.files", 0), 0u) << nested.raw;
  ExpectError(Call("DELETE", Ns("ns%1Ft") + "/tables/files"), 404, "NoSuchTableException");

  // Creating or listing tables in a missing namespace: NoSuchNamespaceException.
  ExpectError(Call("POST", Ns("zz") + "/tables", CreateTableBody("t")), 404,
              "NoSuchNamespaceException");
  ExpectError(Call("GET", Ns("zz") + "/tables"), 404, "NoSuchNamespaceException");
  // Nothing changed.
  EXPECT_TRUE(store_->GetTable(kBucketArn, "ns", "t").has_value());
  EXPECT_FALSE(store_->GetNamespace(kBucketArn, "zz").has_value());
}

// A requirement that no longer holds is a retryable 409 whose message starts
// with Iceberg's "Requirement failed: <what changed>".
TEST_F(IcebergRestTest, FailedRequirementsSayWhatChanged) {
  MakeNamespaceAndTable();
  Reply loaded = Call("GET", Table());
  const std::string before = loaded.body["metadata-location"];
  json stale_schema = {
      {"requirements",
       json::array({{{"type", "assert-current-schema-id"}, {"current-schema-id", 7}}})},
      {"updates", json::array({{{"action", "set-properties"}, {"updates", {{"k", "v"}}}}})}};
  Reply refused = Call("POST", Table(), stale_schema.dump());
  ExpectError(refused, 409, "CommitFailedException");
  EXPECT_EQ(refused.body["error"]["message"].get<std::string>().rfind(
                "Requirement failed: current schema changed: expected id 7 != 0", 0),
            0u)
      << refused.raw;
  EXPECT_EQ(Call("GET", Table()).body["metadata-location"], before);
}

// A snapshot numbered from metadata that another commit has since moved on:
// a concurrent commit the client retries (409 CommitFailedException), not a
// malformed request (it was a 400, which Java clients do not retry). A
// replace transaction's snapshot (no parent) keeps its number, as Iceberg's
// catalogs allow: Java re-sends the same snapshot when it retries a replace.
TEST_F(IcebergRestTest, SnapshotFromStaleMetadataIsARetryableConflict) {
  MakeNamespaceAndTable();
  Reply loaded = Call("GET", Table());
  const std::string uuid = loaded.body["metadata"]["table-uuid"];
  auto commit = [&](int64_t snapshot_id, int64_t sequence_number, std::optional<int64_t> parent) {
    json snapshot = {
        {"snapshot-id", snapshot_id},
        {"sequence-number", sequence_number},
        {"timestamp-ms", 1700000000000 + snapshot_id},
        {"manifest-list", loaded.body["metadata"]["location"].get<std::string>() +
                              "/metadata/snap-" + std::to_string(snapshot_id) + ".avro"},
        {"summary", {{"operation", parent ? "append" : "overwrite"}}},
        {"schema-id", 0}};
    if (parent) snapshot["parent-snapshot-id"] = *parent;
    return json{{"requirements", json::array({{{"type", "assert-table-uuid"}, {"uuid", uuid}}})},
                {"updates", json::array({{{"action", "add-snapshot"}, {"snapshot", snapshot}},
                                         {{"action", "set-snapshot-ref"},
                                          {"ref-name", "main"},
                                          {"type", "branch"},
                                          {"snapshot-id", snapshot_id}}})}}
        .dump();
  };
  Reply first = Call("POST", Table(), commit(101, 1, std::nullopt));
  ASSERT_EQ(first.status, 200) << first.raw;
  Reply second = Call("POST", Table(), commit(102, 2, 101));
  ASSERT_EQ(second.status, 200) << second.raw;
  Reply stale = Call("POST", Table(), commit(103, 2, 101));
  ExpectError(stale, 409, "CommitFailedException");
  EXPECT_NE(stale.raw.find("last-sequence-number 2"), std::string::npos) << stale.raw;
  Reply after = Call("GET", Table());
  EXPECT_EQ(after.body["metadata-location"], second.body["metadata-location"]);
  EXPECT_EQ(after.body["metadata"]["current-snapshot-id"], 102);
  // The retry, numbered from the reloaded metadata, commits.
  Reply retried = Call("POST", Table(), commit(103, 3, 102));
  ASSERT_EQ(retried.status, 200) << retried.raw;
  EXPECT_EQ(retried.body["metadata"]["current-snapshot-id"], 103);
  // A replace built on the first version (no parent, number 2) still commits.
  Reply replaced = Call("POST", Table(), commit(104, 2, std::nullopt));
  ASSERT_EQ(replaced.status, 200) << replaced.raw;
  EXPECT_EQ(replaced.body["metadata"]["current-snapshot-id"], 104);
  EXPECT_EQ(replaced.body["metadata"]["last-sequence-number"], 3);
}

// A staged create reserves its row but stores no metadata, so a plain create
// of the same name goes ahead and the staged create's assert-create commit
// then fails (what Iceberg's catalogs do; the RCK's concurrent-create tests).
TEST_F(IcebergRestTest, PlainCreateWinsOverAStagedCreate) {
  ASSERT_EQ(
      Call("POST", std::string("/v1/") + kPrefix + "/namespaces", R"({"namespace":["ns"]})").status,
      200);
  Reply staged = Call("POST", Ns() + "/tables", CreateTableBody("st", true));
  ASSERT_EQ(staged.status, 200) << staged.raw;
  Reply created = Call("POST", Ns() + "/tables", CreateTableBody("st"));
  ASSERT_EQ(created.status, 200) << created.raw;
  EXPECT_TRUE(created.body["metadata-location"].is_string());
  EXPECT_EQ(created.body["metadata"]["location"], staged.body["metadata"]["location"]);
  EXPECT_EQ(created.body["metadata"]["properties"]["owner"], "alice");
  EXPECT_EQ(Call("HEAD", Table("st")).status, 204);

  json commit = {{"requirements", json::array({{{"type", "assert-create"}}})},
                 {"updates", json::array({{{"action", "assign-uuid"},
                                           {"uuid", staged.body["metadata"]["table-uuid"]}}})}};
  Reply late = Call("POST", Table("st"), commit.dump());
  ExpectError(late, 409, "CommitFailedException");
  EXPECT_EQ(late.body["error"]["message"].get<std::string>().rfind(
                "Requirement failed: table already exists", 0),
            0u)
      << late.raw;
  ExpectError(Call("POST", Ns() + "/tables", CreateTableBody("st")), 409, "AlreadyExistsException");
  Reply after = Call("GET", Table("st"));
  EXPECT_EQ(after.body["metadata-location"], created.body["metadata-location"]);
  EXPECT_EQ(after.body["metadata"]["table-uuid"], created.body["metadata"]["table-uuid"]);
}

}  // namespace
}  // namespace st::api::iceberg_rest
