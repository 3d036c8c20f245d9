// The S3 Tables route table driven through a real Router over an SQLite
// store in a temp dir: wire shapes, error codes, and what each route asks
// the authorizer (action, resource ARN, condition keys).
#include "api/s3tables/s3tables_surface.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "catalog/sqlite_metadata_store.h"
#include "catalog/table_commits.h"
#include "storage/local_object_store.h"

namespace st::api::s3tables {
namespace {

constexpr const char* kAccount = "111122223333";

class TestAuthenticator final : public http::Authenticator {
 public:
  tl::expected<auth::Principal, http::HttpError> Authenticate(const http::Request&) const override {
    auth::Principal principal;
    principal.type = auth::PrincipalType::kUser;
    principal.account_id = kAccount;
    principal.arn = std::string("arn:aws:iam::") + kAccount + ":user/admin";
    return principal;
  }
};

// Allows everything and records what it was asked.
class RecordingAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal&,
                                       const auth::AccessRequest& access) const override {
    last = access;
    return auth::AuthDecision{true, ""};
  }
  mutable auth::AccessRequest last;
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

class SurfaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("s3tables_surface_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "objects");
    catalog::SqliteStoreOptions options;
    options.path = (dir_ / "catalog.db").string();
    options.durable_commits = false;
    store_ = std::move(catalog::OpenSqliteMetadataStore(options, clock_, random_).value());
    objects_ = std::move(storage::OpenLocalObjectStore((dir_ / "objects").string()).value());
    commits_ = std::make_unique<catalog::TableCommits>(*store_, *objects_, clock_, random_);
    router_ = std::make_unique<http::Router>(authenticator_, authorizer_, logger_);
    S3TablesDeps deps{*store_, *commits_, *objects_, "", "us-east-1", kAccount, clock_};
    ASSERT_TRUE(router_->Mount(MakeS3TablesSurface(deps)).ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  struct Reply {
    int status;
    std::string type;  // x-amzn-ErrorType
    nlohmann::json body;
  };

  Reply Call(const std::string& method, const std::string& target, const std::string& body = "") {
    auto request = http::MakeRequest(method, target, body);
    EXPECT_TRUE(request.has_value()) << target;
    request->request_id = "test-request";
    http::Response response = router_->Handle(*request);
    Reply reply{response.status, "", nlohmann::json()};
    if (auto type = response.headers.Get("x-amzn-ErrorType")) reply.type = std::string(*type);
    if (!response.body.empty()) reply.body = nlohmann::json::parse(response.body, nullptr, false);
    return reply;
  }

  std::string MakeBucket(const std::string& name) {
    Reply reply = Call("PUT", "/buckets", nlohmann::json{{"name", name}}.dump());
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply.body.value("arn", "");
  }

  std::filesystem::path dir_;
  ManualClock clock_{
      std::chrono::system_clock::time_point(std::chrono::milliseconds(1733254888681))};
  DefaultRandom random_{42};
  std::unique_ptr<catalog::MetadataStore> store_;
  std::unique_ptr<storage::ObjectStore> objects_;
  std::unique_ptr<catalog::TableCommits> commits_;
  TestAuthenticator authenticator_;
  RecordingAuthorizer authorizer_;
  NullLogger logger_;
  std::unique_ptr<http::Router> router_;
};

TEST_F(SurfaceTest, BucketLifecycleAndShapes) {
  std::string arn = MakeBucket("analytics");
  EXPECT_EQ(arn, std::string("arn:aws:s3tables:us-east-1:") + kAccount + ":bucket/analytics");
  EXPECT_EQ(authorizer_.last.action, "s3tables:CreateTableBucket");

  Reply got = Call("GET", "/buckets/" + Encode(arn));
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.body["name"], "analytics");
  EXPECT_EQ(got.body["ownerAccountId"], kAccount);
  EXPECT_EQ(got.body["createdAt"], "2024-12-03T19:41:28.681Z");
  EXPECT_EQ(authorizer_.last.resource, arn);

  Reply duplicate = Call("PUT", "/buckets", R"({"name":"analytics"})");
  EXPECT_EQ(duplicate.status, 409);
  EXPECT_EQ(duplicate.type, "ConflictException");
  EXPECT_EQ(duplicate.body["__type"], "ConflictException");

  EXPECT_EQ(Call("DELETE", "/buckets/" + Encode(arn)).status, 204);
  Reply gone = Call("GET", "/buckets/" + Encode(arn));
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.type, "NotFoundException");
}

TEST_F(SurfaceTest, BadInputIs400BadRequest) {
  for (const std::string& body :
       {std::string("{not json"), std::string("[1]"), std::string(R"({"name":5})"),
        std::string(R"({"name":"UPPER"})"), std::string(R"({"name":"ab"})"), std::string("{}"),
        std::string(R"({"name":"okname","tags":{"k":1}})"),
        std::string(R"({"name":"okname","encryptionConfiguration":{"sseAlgorithm":"rot13"}})"),
        std::string(300 * 1024, ' ')}) {
    Reply reply = Call("PUT", "/buckets", body);
    EXPECT_EQ(reply.status, 400) << body.substr(0, 60);
    EXPECT_EQ(reply.type, "BadRequestException") << body.substr(0, 60);
    EXPECT_FALSE(reply.body.value("message", "").empty());
  }
  EXPECT_EQ(Call("GET", "/buckets/not-an-arn").status, 400);
  EXPECT_EQ(Call("GET", "/buckets?maxBuckets=0").status, 400);
  EXPECT_EQ(Call("GET", "/buckets?maxBuckets=1001").status, 400);
  EXPECT_EQ(Call("GET", "/buckets?maxBuckets=x").status, 400);
}

TEST_F(SurfaceTest, PaginationAcrossPages) {
  for (int i = 0; i < 5; ++i) MakeBucket("bucket-" + std::to_string(i));
  std::vector<std::string> names;
  std::string token;
  int pages = 0;
  do {
    std::string target = "/buckets?maxBuckets=2";
    if (!token.empty()) target += "&continuationToken=" + Encode(token);
    Reply reply = Call("GET", target);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const auto& bucket : reply.body["tableBuckets"]) names.push_back(bucket["name"]);
    token = reply.body.value("continuationToken", "");
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names,
            (std::vector<std::string>{"bucket-0", "bucket-1", "bucket-2", "bucket-3", "bucket-4"}));
}

TEST_F(SurfaceTest, TableRoutesAuthorizeOnTableArnWithConditionKeys) {
  std::string arn = MakeBucket("warehouse");
  ASSERT_EQ(Call("PUT", "/namespaces/" + Encode(arn), R"({"namespace":["sales"]})").status, 200);
  EXPECT_EQ(authorizer_.last.condition_keys["s3tables:namespace"],
            std::vector<std::string>{"sales"});
  Reply created =
      Call("PUT", "/tables/" + Encode(arn) + "/sales",
           R"({"name":"orders","format":"ICEBERG","metadata":{"iceberg":{"schema":{"fields":[)"
           R"({"name":"id","type":"long","required":true},{"name":"note","type":"string"}]}}}})");
  ASSERT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(authorizer_.last.action, "s3tables:CreateTable");
  EXPECT_EQ(authorizer_.last.resource, arn);
  EXPECT_EQ(authorizer_.last.condition_keys["s3tables:tableName"],
            std::vector<std::string>{"orders"});
  std::string table_arn = created.body["tableARN"];
  EXPECT_EQ(table_arn.rfind(arn + "/table/", 0), 0u);

  std::string table_path = "/tables/" + Encode(arn) + "/sales/orders";
  Reply location = Call("GET", table_path + "/metadata-location");
  ASSERT_EQ(location.status, 200);
  EXPECT_EQ(authorizer_.last.action, "s3tables:GetTableMetadataLocation");
  EXPECT_EQ(authorizer_.last.resource, table_arn);
  EXPECT_EQ(authorizer_.last.condition_keys["s3tables:namespace"],
            std::vector<std::string>{"sales"});
  EXPECT_EQ(authorizer_.last.condition_keys["s3tables:tableName"],
            std::vector<std::string>{"orders"});
  std::string metadata_location = location.body["metadataLocation"];
  EXPECT_NE(metadata_location.find(".metadata.json"), std::string::npos);

  Reply stale = Call("PUT", table_path + "/metadata-location",
                     nlohmann::json{{"versionToken", "00000000000000000000"},
                                    {"metadataLocation", metadata_location}}
                         .dump());
  EXPECT_EQ(stale.status, 409);
  EXPECT_EQ(stale.type, "ConflictException");

  Reply by_arn = Call("GET", "/get-table?tableArn=" + Encode(table_arn));
  ASSERT_EQ(by_arn.status, 200);
  EXPECT_EQ(by_arn.body["name"], "orders");
  EXPECT_EQ(by_arn.body["metadataLocation"], metadata_location);
  EXPECT_EQ(authorizer_.last.resource, table_arn);

  Reply job = Call("GET", table_path + "/maintenance-job-status");
  ASSERT_EQ(job.status, 200);
  EXPECT_EQ(job.body["status"]["icebergCompaction"]["status"], "Not_Yet_Run");
  EXPECT_EQ(job.body["status"]["icebergUnreferencedFileRemoval"]["status"], "Not_Yet_Run");

  Reply maintenance = Call("GET", table_path + "/maintenance");
  ASSERT_EQ(maintenance.status, 200);
  EXPECT_EQ(maintenance.body["configuration"]["icebergCompaction"]["settings"]["icebergCompaction"]
                            ["targetFileSizeMB"],
            512);

  EXPECT_EQ(Call("GET", "/tables/" + Encode(arn) + "/sales/missing/metadata-location").status, 404);
  EXPECT_EQ(Call("DELETE", "/namespaces/" + Encode(arn) + "/sales").status, 409);
  EXPECT_EQ(Call("DELETE", table_path).status, 204);
  EXPECT_TRUE(objects_->List("").value().empty());
}

TEST_F(SurfaceTest, PolicyDocumentsAreValidated) {
  std::string arn = MakeBucket("secured");
  std::string path = "/buckets/" + Encode(arn) + "/policy";
  EXPECT_EQ(Call("GET", path).status, 404);
  Reply malformed = Call("PUT", path, R"({"resourcePolicy":"{\"Statement\":[{\"Effect\":1}]}"})");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_NE(malformed.body.value("message", "").find("MalformedPolicyDocument"), std::string::npos);
  // A policy that grants "*" is public, and S3 Tables blocks public access.
  std::string public_policy =
      R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*",)"
      R"("Action":"s3tables:GetTable","Resource":")" +
      arn + R"(/table/*"}]})";
  EXPECT_EQ(Call("PUT", path, nlohmann::json{{"resourcePolicy", public_policy}}.dump()).status,
            403);
  EXPECT_EQ(Call("GET", path).status, 404);
  std::string policy = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
                       R"("Principal":{"AWS":"arn:aws:iam::111122223333:root"},)"
                       R"("Action":"s3tables:GetTable","Resource":")" +
                       arn + R"(/table/*"}]})";
  EXPECT_EQ(Call("PUT", path, nlohmann::json{{"resourcePolicy", policy}}.dump()).status, 200);
  Reply got = Call("GET", path);
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.body["resourcePolicy"], policy);
  EXPECT_EQ(Call("DELETE", path).status, 204);
}

}  // namespace
}  // namespace st::api::s3tables
