#include "api/glue/glue_surface.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/logger.h"

namespace st::api::glue {
namespace {

constexpr char kAccount[] = "111122223333";

class FixedAuthenticator final : public http::Authenticator {
 public:
  tl::expected<auth::Principal, http::HttpError> Authenticate(const http::Request&) const override {
    auth::Principal principal;
    principal.type = auth::PrincipalType::kUser;
    principal.account_id = kAccount;
    principal.arn = std::string("arn:aws:iam::") + kAccount + ":user/u";
    return principal;
  }
};

class RecordingAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal&,
                                       const auth::AccessRequest& access) const override {
    last = access;
    return auth::AuthDecision{allow, allow ? "" : "denied by test"};
  }
  bool allow = true;
  mutable std::optional<auth::AccessRequest> last;
};

class NullLogger final : public Logger {
 public:
  bool Enabled(LogLevel) const override { return false; }
  void Log(LogLevel, std::string_view, std::initializer_list<LogField>) override {}
};

class GlueSurfaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("glue_surface_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto opened =
        registry::OpenSqliteSchemaRegistry((dir_ / "c.db").string(), "us-east-1", clock_, random_);
    ASSERT_TRUE(opened.has_value());
    registry_ = std::move(opened).value();
    router_ = std::make_unique<http::Router>(authenticator_, authorizer_, logger_);
    ASSERT_TRUE(router_->Mount(MakeGlueSurface({*registry_, "us-east-1", clock_})).ok());
  }
  void TearDown() override {
    router_.reset();
    registry_.reset();
    std::filesystem::remove_all(dir_);
  }

  http::Response Call(const std::string& operation, const nlohmann::json& body,
                      const std::string& path = "/glue/") {
    auto request = http::MakeRequest("POST", path, body.dump());
    EXPECT_TRUE(request.has_value());
    if (!operation.empty()) request->headers.Set("X-Amz-Target", "AWSGlue." + operation);
    authorizer_.last.reset();
    return router_->Handle(*request);
  }

  std::filesystem::path dir_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000))};
  DefaultRandom random_{1};
  std::unique_ptr<registry::SchemaRegistry> registry_;
  FixedAuthenticator authenticator_;
  RecordingAuthorizer authorizer_;
  NullLogger logger_;
  std::unique_ptr<http::Router> router_;
};

TEST_F(GlueSurfaceTest, ActionAndResourceComeFromTheTargetAndBody) {
  http::Response created = Call("CreateRegistry", {{"RegistryName", "r"}});
  EXPECT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(created.headers.Get("Content-Type"), "application/x-amz-json-1.1");
  ASSERT_TRUE(authorizer_.last.has_value());
  EXPECT_EQ(authorizer_.last->action, "glue:CreateRegistry");
  EXPECT_EQ(authorizer_.last->resource, "arn:aws:glue:us-east-1:111122223333:registry/r");

  http::Response schema = Call("CreateSchema",
                               {{"RegistryId", {{"RegistryName", "r"}}},
                                {"SchemaName", "s"},
                                {"DataFormat", "JSON"},
                                {"SchemaDefinition", R"({"type":"object"})"}},
                               "/glue");
  ASSERT_EQ(schema.status, 200) << schema.body;
  EXPECT_EQ(authorizer_.last->action, "glue:CreateSchema");
  const std::string schema_arn = "arn:aws:glue:us-east-1:111122223333:schema/r/s";
  EXPECT_EQ(authorizer_.last->resource, schema_arn);
  std::string version_id = nlohmann::json::parse(schema.body)["SchemaVersionId"];

  http::Response version = Call("GetSchemaVersion", {{"SchemaVersionId", version_id}});
  ASSERT_EQ(version.status, 200) << version.body;
  EXPECT_EQ(authorizer_.last->action, "glue:GetSchemaVersion");
  EXPECT_EQ(authorizer_.last->resource, schema_arn);
  auto parsed = nlohmann::json::parse(version.body);
  EXPECT_EQ(parsed["VersionNumber"], 1);
  EXPECT_EQ(parsed["CreatedTime"], "2027-01-15T08:00:00.000Z");

  Call("ListRegistries", nlohmann::json::object());
  EXPECT_EQ(authorizer_.last->action, "glue:ListRegistries");
  EXPECT_EQ(authorizer_.last->resource, "*");
}

TEST_F(GlueSurfaceTest, ErrorsUseTheGlueShape) {
  http::Response unknown = Call("DropTable", nlohmann::json::object());
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(nlohmann::json::parse(unknown.body)["__type"], "UnknownOperationException");
  EXPECT_FALSE(authorizer_.last.has_value());  // Refused before authorization.

  http::Response missing = Call("GetSchemaByDefinition", {{"SchemaId", {{"SchemaName", "absent"}}},
                                                          {"SchemaDefinition", "{}"}});
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(
      nlohmann::json::parse(missing.body),
      nlohmann::json({{"__type", "EntityNotFoundException"}, {"Message", "Schema is not found."}}));
  EXPECT_EQ(missing.headers.Get("x-amzn-ErrorType"), "EntityNotFoundException");

  http::Response bad = Call("GetSchema", {{"SchemaId", {{"SchemaArn", "arn:aws:s3:::b"}}}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(nlohmann::json::parse(bad.body)["__type"], "InvalidInputException");

  authorizer_.allow = false;
  http::Response denied = Call("ListSchemas", nlohmann::json::object());
  EXPECT_EQ(denied.status, 403);
  auto body = nlohmann::json::parse(denied.body);
  EXPECT_EQ(body["__type"], "AccessDeniedException");
  EXPECT_EQ(body["Message"], "denied by test");
}

}  // namespace
}  // namespace st::api::glue
