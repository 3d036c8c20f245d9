// The admin route table driven through a real Router over an SQLite store in
// a temp dir: account routes' wire shapes, paging, errors, and what they ask
// the authorizer.
#include "api/admin/admin_surface.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "catalog/sqlite_metadata_store.h"

namespace st::api::admin {
namespace {

constexpr const char* kOperator = "111122223333";

class TestAuthenticator final : public http::Authenticator {
 public:
  tl::expected<auth::Principal, http::HttpError> Authenticate(const http::Request&) const override {
    auth::Principal principal;
    principal.type = auth::PrincipalType::kUser;
    principal.account_id = kOperator;
    principal.arn = std::string("arn:aws:iam::") + kOperator + ":user/admin";
    return principal;
  }
};

// Allows (or denies) everything and records what it was asked.
class RecordingAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal&,
                                       const auth::AccessRequest& access) const override {
    last = access;
    return auth::AuthDecision{allow, allow ? "" : "no identity-based policy allows it"};
  }
  bool allow = true;
  mutable auth::AccessRequest last;
};

class AdminSurfaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("admin_surface_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    catalog::SqliteStoreOptions options;
    options.path = (dir_ / "catalog.db").string();
    options.durable_commits = false;
    store_ = std::move(catalog::OpenSqliteMetadataStore(options, clock_, random_).value());
    ASSERT_TRUE(store_->CreateAccount(kOperator).ok());
    router_ = std::make_unique<http::Router>(authenticator_, authorizer_, logger_);
    ASSERT_TRUE(router_->Mount(MakeAdminSurface(AdminDeps{*store_, kOperator})).ok());
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

  std::filesystem::path dir_;
  ManualClock clock_{
      std::chrono::system_clock::time_point(std::chrono::milliseconds(1733254888681))};
  DefaultRandom random_{42};
  std::unique_ptr<catalog::MetadataStore> store_;
  TestAuthenticator authenticator_;
  RecordingAuthorizer authorizer_;
  NullLogger logger_;
  std::unique_ptr<http::Router> router_;
};

TEST_F(AdminSurfaceTest, ListAccountsPagesAndAuthorizesOnOperatorRoot) {
  for (const char* id : {"300000000003", "200000000002"}) {
    ASSERT_EQ(Call("POST", "/admin/accounts", nlohmann::json{{"accountId", id}}.dump()).status,
              200);
  }
  ASSERT_TRUE(
      store_->CreateIdentity(catalog::IdentityKind::kRole, "200000000002", "writer").has_value());

  std::vector<std::string> ids;
  std::string token;
  int pages = 0;
  do {
    std::string target = "/admin/accounts?maxResults=2";
    if (!token.empty()) target += "&continuationToken=" + token;  // base64url: no escaping.
    Reply reply = Call("GET", target);
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(authorizer_.last.action, "iam:ListAccounts");
    EXPECT_EQ(authorizer_.last.resource, std::string("arn:aws:iam::") + kOperator + ":root");
    for (const auto& account : reply.body["accounts"]) ids.push_back(account["accountId"]);
    token = reply.body.value("continuationToken", "");
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(pages, 2);
  EXPECT_EQ(ids, (std::vector<std::string>{kOperator, "200000000002", "300000000003"}));

  Reply all = Call("GET", "/admin/accounts");
  ASSERT_EQ(all.status, 200);
  EXPECT_FALSE(all.body.contains("continuationToken"));
  const nlohmann::json& second = all.body["accounts"][1];
  EXPECT_EQ(second, (nlohmann::json{{"accountId", "200000000002"},
                                    {"createdAt", "2024-12-03T19:41:28.681Z"},
                                    {"userCount", 0},
                                    {"roleCount", 1},
                                    {"tableBucketCount", 0}}));
  Reply got = Call("GET", "/admin/accounts/200000000002");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.body, second);
  EXPECT_EQ(authorizer_.last.action, "iam:GetAccount");
}

TEST_F(AdminSurfaceTest, BadPagesAre400InTheAdminErrorShape) {
  for (const char* query : {"maxResults=0", "maxResults=1001", "maxResults=abc", "maxResults=",
                            "maxResults=5x", "continuationToken=garbage!", "continuationToken="}) {
    Reply reply = Call("GET", std::string("/admin/accounts?") + query);
    EXPECT_EQ(reply.status, 400) << query;
    EXPECT_EQ(reply.type, "BadRequestException") << query;
    EXPECT_EQ(reply.body.value("__type", ""), "BadRequestException") << query;
    EXPECT_FALSE(reply.body.value("message", "").empty()) << query;
  }
  EXPECT_EQ(Call("GET", "/admin/accounts?maxResults=1000").status, 200);
  EXPECT_EQ(Call("GET", "/admin/accounts/999999999999").status, 404);
  EXPECT_EQ(Call("GET", "/admin/accounts/12ab").status, 400);
}

TEST_F(AdminSurfaceTest, DeniedCallersGet403AndNoAccounts) {
  authorizer_.allow = false;
  Reply reply = Call("GET", "/admin/accounts");
  EXPECT_EQ(reply.status, 403);
  EXPECT_EQ(reply.type, "AccessDeniedException");
  EXPECT_EQ(reply.body.value("__type", ""), "AccessDeniedException");
  EXPECT_FALSE(reply.body.contains("accounts"));
}

}  // namespace
}  // namespace st::api::admin
