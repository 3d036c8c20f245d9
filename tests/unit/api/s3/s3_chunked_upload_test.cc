// aws-chunked PutObject through the surface, with chunk signatures checked
// against the request's own SigV4 signing key.
#include <gtest/gtest.h>
#include <openssl/hmac.h>

#include "api/s3/aws_chunked_internal.h"
#include "api/s3/object_etag_internal.h"
#include "auth/sigv4_signer.h"
#include "s3_fixture.h"

namespace st::api::s3 {
namespace {

constexpr const char* kKeyId = "AKIAEXAMPLEEXAMPLE00";
constexpr const char* kSecret = "secretsecretsecretsecretsecretsecret1234";

class FakeSecrets final : public auth::SecretLookup {
 public:
  Result<auth::SecretRecord> Lookup(std::string_view key) const override {
    if (key != kKeyId) return Err(NotFound("unknown key"));
    auth::SecretRecord record;
    record.secret_access_key = kSecret;
    record.principal.type = auth::PrincipalType::kUser;
    record.principal.arn = "arn:aws:iam::111122223333:user/admin";
    return record;
  }
};

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[32];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &size);
  return std::string(reinterpret_cast<char*>(out), size);
}

class S3ChunkedUploadTest : public S3SurfaceTest {
 protected:
  void SetUp() override {
    S3SurfaceTest::SetUp();
    signed_router_ = std::make_unique<http::Router>(authenticator_, authorizer_, logger_);
    S3Deps deps{*store_, *objects_, "tables/", random_, &secrets_, &clock_};
    ASSERT_TRUE(signed_router_->Mount(MakeS3Surface(deps)).ok());
  }

  // A streaming-signed PUT of `chunks`; `tamper` flips a payload byte after signing.
  http::Response PutChunked(const std::string& key, const std::vector<std::string>& chunks,
                            bool tamper) {
    std::string payload;
    for (const std::string& c : chunks) payload += c;
    std::string target = "/" + bucket_ + "/" + key;
    auto request = http::MakeRequest("PUT", target).value();
    request.request_id = "req-2";
    request.headers.Set("Host", "127.0.0.1:9000");
    request.headers.Set("x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
    request.headers.Set("Content-Encoding", "aws-chunked");
    request.headers.Set("x-amz-decoded-content-length", std::to_string(payload.size()));
    auth::HttpRequestView view;
    view.method = request.method;
    view.raw_path = request.raw_path();
    view.raw_query = request.raw_query();
    for (const auto& [n, v] : request.headers.fields()) view.headers.emplace_back(n, v);
    auth::SigningOptions options;
    options.service = "s3";
    options.time = clock_.Now();
    auto added = auth::SignRequest(view, {kKeyId, kSecret, ""}, options).value();
    std::string amz_date, authorization;
    for (auto& [name, value] : added) {
      if (name == "x-amz-date" || name == "X-Amz-Date") amz_date = value;
      if (name == "authorization" || name == "Authorization") authorization = value;
      request.headers.Set(name, value);
    }
    ChunkSigning signing;
    signing.amz_date = amz_date;
    signing.scope = {amz_date.substr(0, 8), "us-east-1", "s3"};
    signing.seed_signature = authorization.substr(authorization.find("Signature=") + 10);
    signing.signing_key =
        Hmac(Hmac(Hmac(Hmac(std::string("AWS4") + kSecret, signing.scope.date), "us-east-1"), "s3"),
             "aws4_request");
    std::string previous = signing.seed_signature;
    std::vector<std::string> all = chunks;
    all.emplace_back();
    for (const std::string& chunk : all) {
      previous = auth::ChunkSignature(signing.signing_key, signing.amz_date, signing.scope,
                                      previous, chunk);
      char size[20];
      std::snprintf(size, sizeof size, "%zx", chunk.size());
      request.body += std::string(size) + ";chunk-signature=" + previous + "\r\n" + chunk + "\r\n";
    }
    if (tamper) request.body[request.body.find("\r\n") + 2] ^= 1;
    return signed_router_->Handle(request);
  }

  FakeSecrets secrets_;
  std::unique_ptr<http::Router> signed_router_;
};

TEST_F(S3ChunkedUploadTest, SignedChunksAreDecodedAndChecked) {
  std::string big(65536, 'p');
  http::Response put = PutChunked("data/c.bin", {big, "end"}, false);
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(*objects_->Get(StoreKey(bucket_, "data/c.bin")), big + "end");
  EXPECT_EQ(put.headers.Get("ETag"), "\"" + HexLower(Md5Raw(big + "end")) + "\"");

  http::Response tampered = PutChunked("data/d.bin", {big, "end"}, true);
  EXPECT_EQ(tampered.status, 403);
  EXPECT_NE(tampered.body.find("SignatureDoesNotMatch"), std::string::npos) << tampered.body;
  EXPECT_EQ(objects_->Head(StoreKey(bucket_, "data/d.bin")).error().code(), StatusCode::kNotFound);
}

TEST_F(S3ChunkedUploadTest, UnsignedTrailerFramingAndLengthCheck) {
  auto send = [&](std::string body, std::string decoded_length) {
    std::vector<http::Headers::Field> headers = {
        {"x-amz-content-sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER"},
        {"Content-Encoding", "aws-chunked"},
        {"x-amz-trailer", "x-amz-checksum-crc32"},
        {"x-amz-decoded-content-length", decoded_length}};
    return Send("PUT", "/" + bucket_ + "/data/t.bin", std::move(body), headers);
  };
  std::string body = "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:NhCmhg==\r\n\r\n";
  ASSERT_EQ(send(body, "5").status, 200);
  EXPECT_EQ(*objects_->Get(StoreKey(bucket_, "data/t.bin")), "hello");
  http::Response wrong_length = send(body, "6");
  EXPECT_EQ(wrong_length.status, 400);
  EXPECT_NE(wrong_length.body.find("IncompleteBody"), std::string::npos);
  EXPECT_EQ(send("5\r\nhel", "5").status, 400);
}

}  // namespace
}  // namespace st::api::s3
