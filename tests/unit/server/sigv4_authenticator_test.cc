#include "server/sigv4_authenticator.h"

#include <gtest/gtest.h>

#include "auth/sigv4_signer.h"

namespace st::server {
namespace {

using namespace std::chrono_literals;

constexpr const char* kKey = "AKIAWIRINGTEST000001";
constexpr const char* kSecret = "wiring-secret";

class OneKey final : public auth::SecretLookup {
 public:
  Result<auth::SecretRecord> Lookup(std::string_view id) const override {
    if (id != kKey) return Err(NotFound("unknown key"));
    auth::SecretRecord record;
    record.secret_access_key = kSecret;
    record.principal.type = auth::PrincipalType::kUser;
    record.principal.account_id = "111122223333";
    record.principal.arn = "arn:aws:iam::111122223333:user/alice";
    record.principal.username = "alice";
    return record;
  }
};

class AuthenticatorTest : public ::testing::Test {
 protected:
  // A request signed at the clock's time (shifted by `skew`) for `service`.
  http::Request Signed(std::string method, std::string target, std::string service,
                       std::string secret = kSecret, std::chrono::seconds skew = 0s,
                       std::string body = "") {
    auto request = http::MakeRequest(method, target, body);
    EXPECT_TRUE(request.has_value());
    request->headers.Add("host", "127.0.0.1:8181");
    if (!body.empty()) request->headers.Add("content-type", "application/json");
    auth::HttpRequestView view = View(*request);
    auth::SigningOptions options;
    options.service = service;
    options.time = clock_.Now() + skew;
    options.add_content_sha256_header = service == "s3";
    auto headers = auth::SignRequest(view, {kKey, secret, ""}, options);
    EXPECT_TRUE(headers.has_value()) << headers.error().ToString();
    for (auto& [name, value] : *headers) request->headers.Add(name, value);
    return *request;
  }
  static auth::HttpRequestView View(const http::Request& request) {
    auth::HttpRequestView view;
    view.method = request.method;
    view.raw_path = request.raw_path();
    view.raw_query = request.raw_query();
    for (const auto& [n, v] : request.headers.fields()) view.headers.emplace_back(n, v);
    view.body = std::string_view(request.body);
    return view;
  }

  ManualClock clock_{std::chrono::system_clock::from_time_t(1767225600)};
  OneKey secrets_;
  SigV4Authenticator api_{secrets_, clock_, Endpoint::kApi, "us-east-1"};
  SigV4Authenticator s3_{secrets_, clock_, Endpoint::kS3, "us-east-1"};
};

TEST_F(AuthenticatorTest, ValidSignatureGivesThePrincipal) {
  auto principal = api_.Authenticate(Signed("GET", "/buckets?prefix=a", "s3tables"));
  ASSERT_TRUE(principal.has_value()) << principal.error().status.ToString();
  EXPECT_EQ(principal->arn, "arn:aws:iam::111122223333:user/alice");
  auto s3 = s3_.Authenticate(Signed("GET", "/bucket/key", "s3"));
  ASSERT_TRUE(s3.has_value()) << s3.error().status.ToString();
}

TEST_F(AuthenticatorTest, NoCredentialsIsRefused) {
  // There is no anonymous principal: S3 Tables blocks public access.
  for (const char* target :
       {"/buckets", "/iceberg/v1/config?warehouse=x", "/admin/users", "/glue/", "/v1/channels"}) {
    auto request = http::MakeRequest("GET", target);
    auto refused = api_.Authenticate(*request);
    ASSERT_FALSE(refused.has_value()) << target;
    EXPECT_EQ(refused.error().http_status, 403);
    EXPECT_EQ(refused.error().wire_code, "MissingAuthenticationTokenException");
    EXPECT_EQ(refused.error().status.message().rfind("Missing Authentication Token: ", 0), 0u)
        << refused.error().status.message();
  }
  auto request = http::MakeRequest("GET", "/bucket/key");
  auto refused = s3_.Authenticate(*request);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().http_status, 403);
  EXPECT_EQ(refused.error().wire_code, "AccessDenied");
}

TEST_F(AuthenticatorTest, UnsignedPayloadOnlyOnTheS3Endpoint) {
  for (const char* mode : {"UNSIGNED-PAYLOAD", "STREAMING-UNSIGNED-PAYLOAD-TRAILER"}) {
    auto signed_with = [&](std::string target, std::string service) {
      auto request = http::MakeRequest("PUT", target, R"({"name":"a"})");
      request->headers.Add("host", "127.0.0.1:8181");
      request->headers.Add("x-amz-content-sha256", mode);
      auth::SigningOptions options;
      options.service = service;
      options.time = clock_.Now();
      auto headers = auth::SignRequest(View(*request), {kKey, kSecret, ""}, options);
      EXPECT_TRUE(headers.has_value());
      for (auto& [name, value] : *headers) request->headers.Add(name, value);
      return *request;
    };
    auto api = api_.Authenticate(signed_with("/buckets", "s3tables"));
    ASSERT_FALSE(api.has_value()) << mode;
    EXPECT_EQ(api.error().http_status, 400);
    EXPECT_EQ(api.error().wire_code, "XAmzContentSHA256Mismatch");
    EXPECT_NE(api.error().status.message().find("x-amz-content-sha256"), std::string::npos);
    // Also for s3-signed catalog requests on the API port.
    EXPECT_FALSE(api_.Authenticate(signed_with("/iceberg/v1/namespaces", "s3")).has_value());
    EXPECT_TRUE(s3_.Authenticate(signed_with("/bucket/key", "s3")).has_value()) << mode;
  }
}

TEST_F(AuthenticatorTest, ControlPlaneCodes) {
  auto wrong = api_.Authenticate(Signed("GET", "/buckets", "s3tables", "bad-secret"));
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(wrong.error().http_status, 403);
  EXPECT_EQ(wrong.error().wire_code, "InvalidSignatureException");

  http::Request unknown = Signed("GET", "/buckets", "s3tables");
  std::string auth(*unknown.headers.Get("authorization"));
  auth.replace(auth.find(kKey), std::string(kKey).size(), "AKIAUNKNOWN000000000");
  unknown.headers.Set("authorization", auth);
  auto unknown_result = api_.Authenticate(unknown);
  ASSERT_FALSE(unknown_result.has_value());
  EXPECT_EQ(unknown_result.error().wire_code, "UnrecognizedClientException");
  EXPECT_EQ(unknown_result.error().http_status, 403);

  auto skewed = api_.Authenticate(Signed("GET", "/buckets", "s3tables", kSecret, -16min));
  ASSERT_FALSE(skewed.has_value());
  EXPECT_EQ(skewed.error().wire_code, "InvalidSignatureException");
  EXPECT_NE(skewed.error().status.message().find("Signature expired"), std::string::npos);
  EXPECT_TRUE(
      api_.Authenticate(Signed("GET", "/buckets", "s3tables", kSecret, -14min)).has_value());

  // A body changed after signing no longer matches the signed payload hash.
  http::Request tampered = Signed("PUT", "/buckets", "s3tables", kSecret, 0s, R"({"name":"a"})");
  tampered.body = R"({"name":"b"})";
  auto tampered_result = api_.Authenticate(tampered);
  ASSERT_FALSE(tampered_result.has_value());
  EXPECT_EQ(tampered_result.error().http_status, 403);
}

TEST_F(AuthenticatorTest, ServicePerEndpoint) {
  // s3-signed requests are refused on the control plane but accepted by the catalog.
  auto control = api_.Authenticate(Signed("GET", "/buckets", "s3"));
  ASSERT_FALSE(control.has_value());
  EXPECT_EQ(control.error().http_status, 400);
  EXPECT_TRUE(api_.Authenticate(Signed("GET", "/iceberg/v1/config", "s3")).has_value());
  EXPECT_TRUE(api_.Authenticate(Signed("GET", "/iceberg/v1/config", "s3tables")).has_value());
  auto s3 = s3_.Authenticate(Signed("GET", "/bucket/key", "s3tables"));
  ASSERT_FALSE(s3.has_value());
  EXPECT_EQ(s3.error().wire_code, "AuthorizationHeaderMalformed");
}

TEST_F(AuthenticatorTest, S3CodesAndDetails) {
  auto wrong = s3_.Authenticate(Signed("GET", "/bucket/key", "s3", "bad-secret"));
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(wrong.error().http_status, 403);
  EXPECT_EQ(wrong.error().wire_code, "SignatureDoesNotMatch");
  bool has_string_to_sign = false;
  for (const auto& [name, value] : wrong.error().details) {
    if (name == "StringToSign") has_string_to_sign = !value.empty();
  }
  EXPECT_TRUE(has_string_to_sign);

  auto skewed = s3_.Authenticate(Signed("GET", "/bucket/key", "s3", kSecret, 20min));
  ASSERT_FALSE(skewed.has_value());
  EXPECT_EQ(skewed.error().wire_code, "RequestTimeTooSkewed");
  EXPECT_EQ(skewed.error().http_status, 403);

  // Presigned for 60 s, used 2 minutes later.
  auto request = http::MakeRequest("GET", "/bucket/key");
  request->headers.Add("host", "127.0.0.1:9000");
  auth::SigningOptions options;
  options.service = "s3";
  options.time = clock_.Now() - 120s;
  auto query = auth::PresignQuery(View(*request), {kKey, kSecret, ""}, options, 60s);
  ASSERT_TRUE(query.has_value());
  auto presigned = http::MakeRequest("GET", "/bucket/key?" + *query);
  presigned->headers.Add("host", "127.0.0.1:9000");
  auto expired = s3_.Authenticate(*presigned);
  ASSERT_FALSE(expired.has_value());
  EXPECT_EQ(expired.error().wire_code, "AccessDenied");
  EXPECT_EQ(expired.error().status.message(), "Request has expired");
  EXPECT_EQ(expired.error().http_status, 403);
}

}  // namespace
}  // namespace st::server
