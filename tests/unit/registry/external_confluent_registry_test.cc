// The external registry client against our real HTTP server (http::Server)
// with a scripted handler: the answers (401, 404 with and without Confluent's
// code, 5xx, a redirect, an oversized body) are faults a real registry does
// not produce on demand. The successful path with a real registry is
// tests/integration/test_external_registry.py.
#include "registry/external_confluent_registry.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/logger.h"
#include "common/mutex.h"
#include "http/server.h"

namespace st::registry::confluent {
namespace {

// Answers GETs from a table of raw target → response; records what it saw.
class ScriptedRegistry final : public http::Handler {
 public:
  void Answer(const std::string& target, int status, std::string body) {
    common::MutexLock lock(mu_);
    answers_[target] = {status, std::move(body)};
  }
  std::vector<std::string> Seen() const {
    common::MutexLock lock(mu_);
    return seen_;
  }
  std::string LastAuthorization() const {
    common::MutexLock lock(mu_);
    return last_authorization_;
  }

  http::Response Handle(http::Request& request) override {
    common::MutexLock lock(mu_);
    seen_.push_back(request.raw_target);
    last_authorization_ = std::string(request.headers.Get("Authorization").value_or(""));
    auto it = answers_.find(request.raw_target);
    if (it == answers_.end()) {
      return http::Response::Json(404, R"({"error_code":40403,"message":"Schema not found"})");
    }
    http::Response response = http::Response::Json(it->second.first, it->second.second);
    if (it->second.first == 302) response.headers.Set("Location", "http://169.254.169.254/");
    return response;
  }
  http::Response Reject(const http::Request&, const http::HttpError& error) override {
    return http::Response::Empty(error.http_status);
  }

 private:
  mutable common::Mutex mu_;
  std::map<std::string, std::pair<int, std::string>> answers_ GUARDED_BY(mu_);
  std::vector<std::string> seen_ GUARDED_BY(mu_);
  std::string last_authorization_ GUARDED_BY(mu_);
};

class ExternalRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = http::Server::Make(http::Server::Options{}, handler_, logger_);
    ASSERT_TRUE(server.has_value()) << server.error().ToString();
    server_ = *std::move(server);
    host_port_ = "127.0.0.1:" + std::to_string(server_->port());
    auto parsed = catalog::ParseExternalRegistryUrl("http://" + host_port_ + "/reg/");
    ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
    registry_ = *parsed;
  }

  std::unique_ptr<ExternalConfluentRegistry> Client(std::vector<std::string> allowed = {}) {
    ExternalRegistryOptions options;
    options.allowed_hosts = allowed.empty() ? std::vector<std::string>{host_port_} : allowed;
    options.max_body_bytes = 4096;
    options.io_timeout = std::chrono::milliseconds(2000);
    return std::make_unique<ExternalConfluentRegistry>(std::move(options));
  }

  ScriptedRegistry handler_;
  NullLogger logger_;
  std::unique_ptr<http::Server> server_;
  std::string host_port_;
  catalog::ExternalSchemaRegistry registry_;
};

TEST_F(ExternalRegistryTest, AvroIsTheDefaultTypeAndSuccessIsCachedPerCredentials) {
  handler_.Answer("/reg/schemas/ids/7", 200, R"({"schema":"\"string\""})");
  auto client = Client();
  const std::optional<BasicAuth> auth = BasicAuth{"key", "secret"};
  auto found = client->LookupSchemaById(registry_, auth, 7);
  ASSERT_TRUE(found.has_value()) << found.error().ToString();
  EXPECT_EQ(found->schema_type, "AVRO");
  EXPECT_EQ(found->schema, "\"string\"");
  EXPECT_TRUE(found->references.empty());
  // base64("key:secret")
  EXPECT_EQ(handler_.LastAuthorization(), "Basic a2V5OnNlY3JldA==");

  ASSERT_TRUE(client->LookupSchemaById(registry_, auth, 7).has_value());
  EXPECT_EQ(client->requests_sent(), 1);
  EXPECT_EQ(client->cached_schemas(), 1u);
  // Other credentials on the same URL may see other ids: asked again.
  ASSERT_TRUE(client->LookupSchemaById(registry_, BasicAuth{"key", "other"}, 7).has_value());
  EXPECT_EQ(client->requests_sent(), 2);
  ASSERT_TRUE(client->LookupSchemaById(registry_, std::nullopt, 7).has_value());
  EXPECT_EQ(handler_.LastAuthorization(), "");
}

TEST_F(ExternalRegistryTest, ProtobufReferencesResolveTransitivelyDependenciesFirst) {
  handler_.Answer("/reg/schemas/ids/3", 200,
                  R"({"schemaType":"PROTOBUF","schema":"syntax = \"proto3\"; import \"b.proto\";",
                      "references":[{"name":"b.proto","subject":"b value","version":2}]})");
  handler_.Answer("/reg/subjects/b%20value/versions/2", 200,
                  R"({"subject":"b value","version":2,"id":2,"schemaType":"PROTOBUF",
                      "schema":"B","references":[{"name":"c.proto","subject":"c","version":-1}]})");
  handler_.Answer("/reg/subjects/c/versions/latest", 200,
                  R"({"subject":"c","version":1,"id":1,"schemaType":"PROTOBUF","schema":"C"})");
  auto found = Client()->LookupSchemaById(registry_, std::nullopt, 3);
  ASSERT_TRUE(found.has_value()) << found.error().ToString();
  EXPECT_EQ(found->schema_type, "PROTOBUF");
  using Ref = std::pair<std::string, std::string>;
  EXPECT_EQ(found->references, (std::vector<Ref>{{"c.proto", "C"}, {"b.proto", "B"}}));
}

TEST_F(ExternalRegistryTest, UnknownIdIsNotFoundAndNotCached) {
  auto client = Client();
  auto missing = client->LookupSchemaById(registry_, std::nullopt, 99);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.error().message().find("http://" + host_port_ + "/reg"), std::string::npos);
  // Registered later: found.
  handler_.Answer("/reg/schemas/ids/99", 200, R"({"schema":"{}","schemaType":"JSON"})");
  auto found = client->LookupSchemaById(registry_, std::nullopt, 99);
  ASSERT_TRUE(found.has_value()) << found.error().ToString();
  EXPECT_EQ(found->schema_type, "JSON");
}

TEST_F(ExternalRegistryTest, AMissingReferenceIsNotFound) {
  handler_.Answer("/reg/schemas/ids/4", 200,
                  R"({"schemaType":"PROTOBUF","schema":"A",
                      "references":[{"name":"b.proto","subject":"b","version":1}]})");
  handler_.Answer("/reg/subjects/b/versions/1", 404,
                  R"({"error_code":40402,"message":"Version 1 not found."})");
  auto found = Client()->LookupSchemaById(registry_, std::nullopt, 4);
  ASSERT_FALSE(found.has_value());
  EXPECT_EQ(found.error().code(), StatusCode::kNotFound);
  EXPECT_NE(found.error().message().find("b.proto"), std::string::npos);
}

TEST_F(ExternalRegistryTest, EveryOtherAnswerIsTransientAndSaysWhy) {
  struct Case {
    int status;
    std::string body;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {401, R"({"error_code":401,"message":"Unauthorized"})", "401 Unauthorized"},
      {403, R"({"error_code":40301,"message":"denied"})", "403 Forbidden"},
      {500, R"({"error_code":50001,"message":"store"})", "500 Internal Server Error"},
      {503, "", "503 Service Unavailable"},
      {302, "", "redirects are not followed"},
      {404, "<html>nope</html>", "path prefix"},
      {200, R"({"schema":")" + std::string(5000, 'x') + R"("})", "larger than 4096"},
      {200, "[1]", "not a JSON object"},
      {200, R"({"schema":"x","schemaType":"XML"})", "unknown schemaType"},
  };
  auto client = Client();
  int32_t id = 100;
  for (const Case& c : cases) {
    handler_.Answer("/reg/schemas/ids/" + std::to_string(id), c.status, c.body);
    auto found = client->LookupSchemaById(registry_, BasicAuth{"k", "sekr3t-value"}, id);
    ASSERT_FALSE(found.has_value()) << c.status;
    EXPECT_EQ(found.error().code(), StatusCode::kUnavailable) << c.needle;
    EXPECT_NE(found.error().message().find(c.needle), std::string::npos) << found.error().message();
    EXPECT_NE(found.error().message().find("external schema registry http://" + host_port_),
              std::string::npos)
        << found.error().message();
    // The secret never appears in a message.
    EXPECT_EQ(found.error().message().find("sekr3t"), std::string::npos);
    ++id;
  }
  // Only the 302's own request: the redirect was not followed.
  std::vector<std::string> seen = handler_.Seen();
  EXPECT_EQ(seen.size(), cases.size());
}

TEST_F(ExternalRegistryTest, HostsOffTheAllowListGetNoRequest) {
  auto client = Client({"registry.example:8081"});
  auto found = client->LookupSchemaById(registry_, std::nullopt, 7);
  ASSERT_FALSE(found.has_value());
  EXPECT_EQ(found.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(found.error().message().find("--external-registry-hosts"), std::string::npos);
  EXPECT_TRUE(handler_.Seen().empty());
  EXPECT_EQ(client->requests_sent(), 0);
}

TEST_F(ExternalRegistryTest, ConnectionRefusedIsTransient) {
  const std::string port = std::to_string(server_->port());
  server_->Shutdown();
  server_.reset();
  auto found = Client()->LookupSchemaById(registry_, std::nullopt, 7);
  ASSERT_FALSE(found.has_value());
  EXPECT_EQ(found.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(found.error().message().find(port), std::string::npos) << found.error().message();
}

TEST_F(ExternalRegistryTest, ReferenceCountIsBounded) {
  std::string refs;
  for (int i = 0; i < 3; ++i) {
    refs += std::string(i ? "," : "") + R"({"name":"r)" + std::to_string(i) + R"(","subject":"s)" +
            std::to_string(i) + R"(","version":1})";
    handler_.Answer("/reg/subjects/s" + std::to_string(i) + "/versions/1", 200,
                    R"({"schema":"S","schemaType":"PROTOBUF"})");
  }
  handler_.Answer("/reg/schemas/ids/5", 200,
                  R"({"schemaType":"PROTOBUF","schema":"A","references":[)" + refs + "]}");
  ExternalRegistryOptions options;
  options.allowed_hosts = {host_port_};
  options.max_references = 2;
  ExternalConfluentRegistry client(std::move(options));
  auto found = client.LookupSchemaById(registry_, std::nullopt, 5);
  ASSERT_FALSE(found.has_value());
  EXPECT_EQ(found.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(found.error().message().find("more than 2 references"), std::string::npos)
      << found.error().message();
}

}  // namespace
}  // namespace st::registry::confluent
