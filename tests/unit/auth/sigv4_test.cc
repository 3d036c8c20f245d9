#include "auth/sigv4.h"

#include <gtest/gtest.h>

#include <map>

#include "auth/digest_internal.h"
#include "auth/sigv4_canonical_internal.h"
#include "auth/sigv4_signer.h"
#include "auth/time_format_internal.h"

namespace st::auth {
namespace {

constexpr std::string_view kEmptyHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
// The example credentials of the AWS S3 SigV4 documentation.
constexpr std::string_view kDocKey = "AKIAIOSFODNN7EXAMPLE";
constexpr std::string_view kDocSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

class FakeSecrets final : public SecretLookup {
 public:
  std::map<std::string, SecretRecord, std::less<>> records;
  Result<SecretRecord> Lookup(std::string_view access_key_id) const override {
    auto it = records.find(access_key_id);
    if (it == records.end()) return Err(NotFound("unknown key"));
    return it->second;
  }
  void Add(std::string_view akid, std::string_view secret, std::string token = "") {
    SecretRecord record;
    record.secret_access_key = secret;
    record.session_token = std::move(token);
    record.principal.type = PrincipalType::kUser;
    record.principal.account_id = "111122223333";
    record.principal.arn = "arn:aws:iam::111122223333:user/alice";
    records[std::string(akid)] = record;
  }
};

TimePoint At(std::string_view amz_date) { return *ParseAmzDate(amz_date); }

// Owns the strings an HttpRequestView points at.
struct Request {
  std::string method = "GET";
  std::string path = "/";
  std::string query;
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<std::string> body;

  HttpRequestView View() const {
    HttpRequestView view;
    view.method = method;
    view.raw_path = path;
    view.raw_query = query;
    for (const auto& [name, value] : headers) view.headers.emplace_back(name, value);
    if (body) view.body = *body;
    return view;
  }
  void Sign(const SigningCredentials& credentials, const SigningOptions& options) {
    auto added = SignRequest(View(), credentials, options);
    ASSERT_TRUE(added.has_value()) << added.error().ToString();
    for (auto& header : *added) headers.push_back(header);
  }
  void SetHeader(std::string_view name, std::string value) {
    for (auto& [n, v] : headers) {
      if (n == name) v = value;
    }
  }
};

class SigV4Test : public ::testing::Test {
 protected:
  SigV4Test() : clock_(At("20130524T000000Z")) { secrets_.Add(kDocKey, kDocSecret); }

  Result<VerifiedRequest> Verify(const Request& request, SigV4VerifierOptions options = {}) {
    SigV4Verifier verifier(secrets_, clock_, std::move(options));
    return verifier.Verify(request.View(), &rejection_);
  }
  void ExpectRejected(const Request& request, SigV4Error reason, StatusCode code) {
    auto result = Verify(request);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(rejection_.reason, reason) << result.error().ToString();
    EXPECT_EQ(result.error().code(), code) << result.error().ToString();
  }

  FakeSecrets secrets_;
  ManualClock clock_;
  SigV4Rejection rejection_;
};

// The worked examples of the S3 SigV4 documentation ("Examples: Signature
// Calculations in AWS Signature Version 4"), entered by hand.
TEST_F(SigV4Test, S3DocGetObjectWithRange) {
  Request r;
  r.path = "/test.txt";
  r.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
               {"Range", "bytes=0-9"},
               {"x-amz-content-sha256", std::string(kEmptyHash)},
               {"x-amz-date", "20130524T000000Z"},
               {"Authorization",
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
                "aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"}};
  auto result = Verify(r);
  ASSERT_TRUE(result.has_value()) << result.error().ToString() << "\n"
                                  << rejection_.canonical_request;
  EXPECT_EQ(result->access_key_id, kDocKey);
  EXPECT_EQ(result->scope.service, "s3");
  EXPECT_EQ(result->principal.arn, "arn:aws:iam::111122223333:user/alice");
}

TEST_F(SigV4Test, S3DocPutObjectWithDateHeaderAndBody) {
  Request r;
  r.method = "PUT";
  r.path = "/test%24file.text";
  r.body = "Welcome to Amazon S3.";
  r.headers = {
      {"Host", "examplebucket.s3.amazonaws.com"},
      {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
      {"x-amz-date", "20130524T000000Z"},
      {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
      {"x-amz-content-sha256", "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"},
      {"Authorization",
       "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
       "aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;"
       "x-amz-storage-class, "
       "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"}};
  auto result = Verify(r);
  ASSERT_TRUE(result.has_value()) << result.error().ToString() << "\n"
                                  << rejection_.canonical_request;
  EXPECT_EQ(result->payload_mode, PayloadMode::kSignedHash);

  r.body = "Welcome to Amazon S3!";  // Tampered body, signed hash unchanged.
  ExpectRejected(r, SigV4Error::kContentSha256Mismatch, StatusCode::kInvalidArgument);
}

TEST_F(SigV4Test, S3DocListObjectsQuery) {
  Request r;
  r.query = "max-keys=2&prefix=J";
  r.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
               {"x-amz-content-sha256", std::string(kEmptyHash)},
               {"x-amz-date", "20130524T000000Z"},
               {"Authorization",
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
                "aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,"
                "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"}};
  ASSERT_TRUE(Verify(r).has_value()) << rejection_.canonical_request;
  r.query = "prefix=J&max-keys=2";  // Order does not matter after canonicalisation.
  ASSERT_TRUE(Verify(r).has_value());
  r.query = "max-keys=3&prefix=J";
  ExpectRejected(r, SigV4Error::kSignatureDoesNotMatch, StatusCode::kUnauthenticated);
}

TEST_F(SigV4Test, S3DocPresignedUrl) {
  Request r;
  r.path = "/test.txt";
  r.query =
      "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-"
      "east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-"
      "SignedHeaders=host&X-Amz-Signature="
      "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404";
  r.headers = {{"Host", "examplebucket.s3.amazonaws.com"}};
  auto result = Verify(r);
  ASSERT_TRUE(result.has_value()) << result.error().ToString() << "\n"
                                  << rejection_.canonical_request;
  EXPECT_TRUE(result->presigned);
  EXPECT_EQ(result->payload_mode, PayloadMode::kUnsigned);

  // Presigned URLs may be used until X-Amz-Date + X-Amz-Expires, not after.
  clock_.Set(At("20130524T235959Z"));
  EXPECT_TRUE(Verify(r).has_value());
  clock_.Set(At("20130525T000001Z"));
  ExpectRejected(r, SigV4Error::kRequestExpired, StatusCode::kUnauthenticated);
  EXPECT_EQ(SigV4ErrorCode(rejection_.reason), "AccessDenied");
}

TEST(SigV4Canonical, DoubleEncodesArnPathForS3Tables) {
  // The canonical URI botocore produced for DELETE .../ns1/t1 (docs/api-contract-notes.md §1.7).
  std::string wire =
      "/tables/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Famzn-s3-demo-bucket/"
      "ns1/t1";
  EXPECT_EQ(CanonicalUri(wire, UriStyle::kDoubleEncoded),
            "/tables/arn%253Aaws%253As3tables%253Aus-east-1%253A111122223333%253Abucket%252Famzn-"
            "s3-demo-bucket/ns1/t1");
  EXPECT_EQ(CanonicalUri(wire, UriStyle::kRawPath), wire);
  EXPECT_EQ(CanonicalUri("/a/./b/../c//d/", UriStyle::kDoubleEncoded), "/a/c/d/");
  EXPECT_EQ(CanonicalUri("", UriStyle::kDoubleEncoded), "/");
  EXPECT_EQ(CanonicalUri("/arn:aws:x%2Fb", UriStyle::kDoubleEncodedKeepSubDelims),
            "/arn:aws:x%252Fb");
}

TEST(SigV4Canonical, QueryForms) {
  EXPECT_EQ(CanonicalQuery("prefix=metadata%2F&list-type=2&encoding-type=url&max-keys=10",
                           QueryStyle::kDecodedSorted, false),
            "encoding-type=url&list-type=2&max-keys=10&prefix=metadata%2F");
  EXPECT_EQ(CanonicalQuery("uploads", QueryStyle::kDecodedSorted, false), "uploads=");
  EXPECT_EQ(CanonicalQuery("a=x y&a=%7e&b=c%2fd", QueryStyle::kDecodedSorted, false),
            "a=x%20y&a=~&b=c%2Fd");
  EXPECT_EQ(CanonicalQuery("k=a+b", QueryStyle::kDecodedSorted, false), "k=a%2Bb");
  EXPECT_EQ(CanonicalQuery("k=a+b", QueryStyle::kPlusAsSpaceSorted, false), "k=a%20b");
  EXPECT_EQ(CanonicalQuery("b=2&a=1&X-Amz-Signature=ff", QueryStyle::kVerbatim, true), "b=2&a=1");
}

TEST(SigV4Canonical, HeaderValuesTrimmedCollapsedAndJoined) {
  HttpRequestView view;
  view.headers = {{"X-Multi", "  a   b  "}, {"x-multi", "c"}, {"Host", "h:8181"}};
  EXPECT_EQ(CanonicalHeaders(view, {"host", "x-multi"}), "host:h:8181\nx-multi:a b,c\n");
}

// The s3tables control plane: a path with an ARN label signed the way
// botocore's SigV4Auth does (double-encoded canonical URI, body hashed, no
// x-amz-content-sha256 header).
Request S3TablesRequest() {
  Request r;
  r.method = "PUT";
  r.path = "/namespaces/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fmy-bucket";
  r.query = "";
  r.body = R"({"namespace": ["ns1"]})";
  r.headers = {
      {"Host", "127.0.0.1:8181"}, {"Content-Type", "application/json"}, {"User-Agent", "test"}};
  return r;
}

SigningOptions S3TablesOptions(std::string_view amz_date) {
  SigningOptions options;
  options.service = "s3tables";
  options.region = "us-east-1";
  options.time = At(amz_date);
  return options;
}

TEST_F(SigV4Test, SignerRoundTripAndTampering) {
  SigningCredentials creds{std::string(kDocKey), std::string(kDocSecret), ""};
  Request signed_request = S3TablesRequest();
  signed_request.Sign(creds, S3TablesOptions("20130524T000500Z"));
  ASSERT_TRUE(Verify(signed_request).has_value()) << rejection_.canonical_request;
  EXPECT_NE(rejection_.canonical_request.find("%253Aaws%253As3tables"), std::string::npos)
      << "the first variant tried must be the standard double-encoded one";

  Request tampered = signed_request;
  tampered.path = "/namespaces/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fother";
  ExpectRejected(tampered, SigV4Error::kSignatureDoesNotMatch, StatusCode::kUnauthenticated);
  EXPECT_FALSE(rejection_.string_to_sign.empty());

  tampered = signed_request;
  tampered.body = R"({"namespace": ["ns2"]})";  // Body is hashed into the signature here.
  ExpectRejected(tampered, SigV4Error::kSignatureDoesNotMatch, StatusCode::kUnauthenticated);

  tampered = signed_request;
  tampered.SetHeader("Content-Type", "text/plain");
  ExpectRejected(tampered, SigV4Error::kSignatureDoesNotMatch, StatusCode::kUnauthenticated);

  tampered = signed_request;
  tampered.SetHeader("User-Agent", "changed");  // Not signed: still fine.
  EXPECT_TRUE(Verify(tampered).has_value());

  secrets_.Add(kDocKey, "wrong-secret");
  ExpectRejected(signed_request, SigV4Error::kSignatureDoesNotMatch, StatusCode::kUnauthenticated);
}

TEST_F(SigV4Test, UnknownKeySkewAndScope) {
  SigningCredentials creds{"AKIDUNKNOWN", "secret", ""};
  Request r = S3TablesRequest();
  r.Sign(creds, S3TablesOptions("20130524T000000Z"));
  ExpectRejected(r, SigV4Error::kInvalidAccessKeyId, StatusCode::kUnauthenticated);
  EXPECT_EQ(rejection_.access_key_id, "AKIDUNKNOWN");

  creds = {std::string(kDocKey), std::string(kDocSecret), ""};
  for (std::string_view date : {"20130523T234400Z", "20130524T001600Z"}) {
    Request skewed = S3TablesRequest();
    skewed.Sign(creds, S3TablesOptions(date));
    ExpectRejected(skewed, SigV4Error::kRequestTimeTooSkewed, StatusCode::kUnauthenticated);
  }
  for (std::string_view date : {"20130523T234600Z", "20130524T001400Z"}) {
    Request near = S3TablesRequest();
    near.Sign(creds, S3TablesOptions(date));
    EXPECT_TRUE(Verify(near).has_value()) << date;
  }

  SigningOptions other_service = S3TablesOptions("20130524T000000Z");
  other_service.service = "execute-api";
  Request wrong = S3TablesRequest();
  wrong.Sign(creds, other_service);
  ExpectRejected(wrong, SigV4Error::kCredentialScopeMismatch, StatusCode::kInvalidArgument);

  Request regional = S3TablesRequest();
  regional.Sign(creds, S3TablesOptions("20130524T000000Z"));
  SigV4VerifierOptions only_west;
  only_west.regions = {"us-west-2"};
  EXPECT_FALSE(Verify(regional, only_west).has_value());
  EXPECT_EQ(rejection_.reason, SigV4Error::kCredentialScopeMismatch);
}

TEST_F(SigV4Test, MissingMalformedAndUnsupported) {
  Request r = S3TablesRequest();
  ExpectRejected(r, SigV4Error::kMissingAuthentication, StatusCode::kUnauthenticated);

  r.headers.emplace_back("Authorization", "AWS AKIAIOSFODNN7EXAMPLE:frJIUN8DYpKDtOLCwo//yllqDzg=");
  ExpectRejected(r, SigV4Error::kUnsupportedAlgorithm, StatusCode::kInvalidArgument);

  Request no_sig = S3TablesRequest();
  no_sig.headers.emplace_back("x-amz-date", "20130524T000000Z");
  no_sig.headers.emplace_back(
      "Authorization",
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3tables/aws4_request, "
      "SignedHeaders=host;x-amz-date");
  ExpectRejected(no_sig, SigV4Error::kMalformedAuthorization, StatusCode::kInvalidArgument);

  Request no_host = S3TablesRequest();
  no_host.headers.emplace_back("x-amz-date", "20130524T000000Z");
  no_host.headers.emplace_back(
      "Authorization",
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3tables/aws4_request, "
      "SignedHeaders=x-amz-date, Signature=00");
  ExpectRejected(no_host, SigV4Error::kMalformedAuthorization, StatusCode::kInvalidArgument);

  Request v2 = S3TablesRequest();
  v2.query = "AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Expires=1&Signature=abc";
  ExpectRejected(v2, SigV4Error::kUnsupportedAlgorithm, StatusCode::kInvalidArgument);

  Request sigv4a = S3TablesRequest();
  sigv4a.headers.emplace_back("x-amz-content-sha256", "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD");
  sigv4a.Sign({std::string(kDocKey), std::string(kDocSecret), ""},
              S3TablesOptions("20130524T000000Z"));
  ExpectRejected(sigv4a, SigV4Error::kMalformedAuthorization, StatusCode::kInvalidArgument);
}

TEST_F(SigV4Test, PresignRoundTripAndExpiryBounds) {
  SigningCredentials creds{std::string(kDocKey), std::string(kDocSecret), ""};
  Request r;
  r.path = "/warehouse/data/a%20b%2Bc.parquet";
  r.query = "versionId=3";
  r.headers = {{"Host", "localhost:9000"}};
  SigningOptions options;
  options.service = "s3";
  options.time = At("20130524T000000Z");
  auto query = PresignQuery(r.View(), creds, options, std::chrono::seconds(3600));
  ASSERT_TRUE(query.has_value());
  r.query = *query;
  auto result = Verify(r);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_TRUE(result->presigned);

  Request with_header = r;  // Some SDKs add the header to presigned GETs; it was not signed.
  with_header.headers.emplace_back("x-amz-content-sha256", std::string(kEmptyHash));
  EXPECT_TRUE(Verify(with_header).has_value()) << rejection_.canonical_request;

  EXPECT_FALSE(PresignQuery(r.View(), creds, options, std::chrono::hours(24 * 8)).has_value());

  Request too_long = r;
  size_t at = too_long.query.find("X-Amz-Expires=3600");
  ASSERT_NE(at, std::string::npos);
  too_long.query.replace(at, 18, "X-Amz-Expires=604801");
  ExpectRejected(too_long, SigV4Error::kMalformedAuthorization, StatusCode::kInvalidArgument);

  Request future = r;
  clock_.Set(At("20130523T234000Z"));  // Signed 20 minutes "in the future".
  ExpectRejected(future, SigV4Error::kRequestTimeTooSkewed, StatusCode::kUnauthenticated);
}

TEST_F(SigV4Test, SessionTokens) {
  secrets_.Add("ASIATEMP", "tempsecret", "the-token");
  Request r = S3TablesRequest();
  r.Sign({"ASIATEMP", "tempsecret", "the-token"}, S3TablesOptions("20130524T000000Z"));
  auto result = Verify(r);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_EQ(result->session_token, "the-token");

  Request no_token = S3TablesRequest();
  no_token.Sign({"ASIATEMP", "tempsecret", ""}, S3TablesOptions("20130524T000000Z"));
  ExpectRejected(no_token, SigV4Error::kInvalidToken, StatusCode::kUnauthenticated);
}

// DuckDB (docs/api-contract-notes.md §4.4): wire path keeps ':' literal, canonical URI is
// the wire path with only %2F double-encoded, and the query goes verbatim.
TEST_F(SigV4Test, AcceptsDuckDbCanonicalVariant) {
  Request r;
  r.path = "/iceberg/v1/arn:aws:s3tables:us-east-1:111122223333:bucket%2Fmy-bucket/namespaces";
  r.query = "pageToken=&parent=ns";  // Unsorted wire order is what DuckDB signs.
  r.query = "parent=ns&pageToken=";
  r.headers = {{"Host", "127.0.0.1:8181"},
               {"x-amz-date", "20130524T000000Z"},
               {"x-amz-content-sha256", std::string(kEmptyHash)}};
  CredentialScope scope{"20130524", "us-east-1", "s3tables"};
  std::string canonical = CanonicalRequest(
      "GET", "/iceberg/v1/arn:aws:s3tables:us-east-1:111122223333:bucket%252Fmy-bucket/namespaces",
      r.query,
      "host:127.0.0.1:8181\nx-amz-content-sha256:" + std::string(kEmptyHash) +
          "\nx-amz-date:20130524T000000Z\n",
      "host;x-amz-content-sha256;x-amz-date", kEmptyHash);
  std::string signature = HexEncode(HmacSha256(SigningKey(kDocSecret, scope),
                                               StringToSign("20130524T000000Z", scope, canonical)));
  r.headers.emplace_back("Authorization",
                         "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/"
                         "s3tables/aws4_request, SignedHeaders=host;x-amz-content-sha256;"
                         "x-amz-date, Signature=" +
                             signature);
  auto result = Verify(r);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();

  SigV4VerifierOptions strict;
  strict.accept_client_variants = false;
  EXPECT_FALSE(Verify(r, strict).has_value());
  EXPECT_EQ(rejection_.reason, SigV4Error::kSignatureDoesNotMatch);
}

TEST_F(SigV4Test, StreamingAndBodylessPayloads) {
  SigningCredentials creds{std::string(kDocKey), std::string(kDocSecret), ""};
  Request r;
  r.method = "PUT";
  r.path = "/b/k";
  r.headers = {{"Host", "localhost:9000"},
               {"x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"},
               {"Content-Encoding", "aws-chunked"}};
  SigningOptions options;
  options.service = "s3";
  options.time = At("20130524T000000Z");
  r.Sign(creds, options);
  auto result = Verify(r);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  EXPECT_EQ(result->payload_mode, PayloadMode::kStreamingSigned);
  EXPECT_EQ(result->seed_signature.size(), 64u);
  // Chunk signatures chain from the seed; just check determinism and shape.
  std::string first = ChunkSignature(result->signing_key, result->amz_date, result->scope,
                                     result->seed_signature, "hello");
  EXPECT_EQ(first.size(), 64u);
  EXPECT_NE(first, ChunkSignature(result->signing_key, result->amz_date, result->scope,
                                  result->seed_signature, "hellO"));

  // A declared hash with no buffered body is handed back for the caller to check.
  Request streamed;
  streamed.method = "PUT";
  streamed.path = "/b/k2";
  streamed.body = "payload";
  streamed.headers = {{"Host", "localhost:9000"}};
  options.add_content_sha256_header = true;
  streamed.Sign(creds, options);
  streamed.body.reset();
  result = Verify(streamed);
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  ASSERT_TRUE(result->payload_sha256_to_check.has_value());
  EXPECT_EQ(*result->payload_sha256_to_check, Sha256Hex("payload"));
}

// Ambiguous authorization: every component and presigned parameter at most once.
TEST_F(SigV4Test, DuplicateAuthorizationPartsAreRefused) {
  SigningCredentials creds{std::string(kDocKey), std::string(kDocSecret), ""};
  Request signed_request = S3TablesRequest();
  signed_request.Sign(creds, S3TablesOptions("20130524T000000Z"));
  ASSERT_TRUE(Verify(signed_request).has_value());
  std::string header, header_name;
  for (const auto& [name, value] : signed_request.headers) {
    if (name == "Authorization" || name == "authorization") {
      header = value;
      header_name = name;
    }
  }
  ASSERT_FALSE(header.empty());
  const std::string other_credential =
      "Credential=AKIAOTHEROTHEROTHER0/20130524/us-east-1/s3tables/aws4_request";
  struct Case {
    const char* name;
    std::string header;
    const char* message;
  };
  const Case cases[] = {
      {"second Signature", header + ", Signature=" + std::string(64, '0'),
       "more than one Signature= component"},
      {"second Credential first", "AWS4-HMAC-SHA256 " + other_credential + ", " + header.substr(17),
       "more than one Credential= component"},
      {"second Credential last", header + ", " + other_credential,
       "more than one Credential= component"},
      {"second SignedHeaders", header + ",SignedHeaders=host", "more than one SignedHeaders="},
      {"same Signature twice", header + ", " + header.substr(header.find("Signature=")),
       "more than one Signature= component"},
  };
  for (const Case& c : cases) {
    Request r = signed_request;
    r.SetHeader(header_name, c.header);
    auto result = Verify(r);
    ASSERT_FALSE(result.has_value()) << c.name;
    EXPECT_EQ(rejection_.reason, SigV4Error::kMalformedAuthorization) << c.name;
    EXPECT_NE(result.error().message().find(c.message), std::string::npos)
        << c.name << ": " << result.error().message();
  }

  // Presigned: a repeated X-Amz-* parameter (any case), but other repeats are the URL's own.
  Request presigned;
  presigned.path = "/b/k";
  presigned.headers = {{"Host", "localhost:9000"}};
  SigningOptions options;
  options.service = "s3";
  options.time = At("20130524T000000Z");
  auto query = PresignQuery(presigned.View(), creds, options, std::chrono::seconds(3600));
  ASSERT_TRUE(query.has_value());
  presigned.query = *query;
  ASSERT_TRUE(Verify(presigned).has_value());
  const std::string repeats[] = {
      "X-Amz-Signature=" + std::string(64, '0'),
      "X-Amz-Credential=AKIAOTHEROTHEROTHER0%2F20130524%2Fus-east-1%2Fs3%2Faws4_request",
      "X-Amz-Date=20130524T000001Z",
      "X-Amz-Expires=604800",
      "X-Amz-SignedHeaders=host",
      "X-Amz-Algorithm=AWS4-HMAC-SHA256",
      "x-amz-date=20130524T000001Z",
      "X-AMZ-SIGNATURE=00"};
  for (const std::string& repeat : repeats) {
    for (bool first : {true, false}) {
      Request r = presigned;
      r.query = first ? std::string(repeat) + "&" + presigned.query
                      : presigned.query + "&" + std::string(repeat);
      auto result = Verify(r);
      ASSERT_FALSE(result.has_value()) << r.query;
      EXPECT_EQ(rejection_.reason, SigV4Error::kMalformedAuthorization) << r.query;
      EXPECT_NE(result.error().message().find("the presigned query has more than one "),
                std::string::npos)
          << result.error().message();
    }
  }
}

// The API endpoint's verifier: the signature must cover the body.
TEST_F(SigV4Test, UnsignedPayloadRefusedWhereNotAllowed) {
  SigningCredentials creds{std::string(kDocKey), std::string(kDocSecret), ""};
  SigV4VerifierOptions api;
  api.allow_unsigned_payload = false;
  for (const char* mode :
       {"UNSIGNED-PAYLOAD", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
        "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", "STREAMING-UNSIGNED-PAYLOAD-TRAILER"}) {
    Request r = S3TablesRequest();
    r.headers.emplace_back("x-amz-content-sha256", mode);
    r.Sign(creds, S3TablesOptions("20130524T000000Z"));
    ASSERT_TRUE(Verify(r).has_value()) << mode << " (allowed by default, as on the S3 port)";
    auto refused = Verify(r, api);
    ASSERT_FALSE(refused.has_value()) << mode;
    EXPECT_EQ(rejection_.reason, SigV4Error::kContentSha256Mismatch) << mode;
    EXPECT_EQ(refused.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(refused.error().message().find(std::string("x-amz-content-sha256 '") + mode +
                                             "' is not accepted on this endpoint"),
              std::string::npos)
        << refused.error().message();
  }
  // A declared hex hash is checked against the body; an absent one is computed.
  Request hashed = S3TablesRequest();
  hashed.headers.emplace_back("x-amz-content-sha256", Sha256Hex(*hashed.body));
  hashed.Sign(creds, S3TablesOptions("20130524T000000Z"));
  EXPECT_TRUE(Verify(hashed, api).has_value());
  Request replayed = hashed;
  replayed.body = R"({"namespace": ["other"]})";
  ASSERT_FALSE(Verify(replayed, api).has_value());
  EXPECT_EQ(rejection_.reason, SigV4Error::kContentSha256Mismatch);
  Request plain = S3TablesRequest();
  plain.Sign(creds, S3TablesOptions("20130524T000000Z"));
  EXPECT_TRUE(Verify(plain, api).has_value());

  // Presigned URLs sign UNSIGNED-PAYLOAD: fine without a body, not with one.
  Request presigned;
  presigned.path = "/buckets";
  presigned.headers = {{"Host", "127.0.0.1:8181"}};
  presigned.body = "";
  SigningOptions unsigned_options = S3TablesOptions("20130524T000000Z");
  unsigned_options.payload = PayloadSigning::kUnsignedPayload;
  auto query = PresignQuery(presigned.View(), creds, unsigned_options, std::chrono::seconds(600));
  ASSERT_TRUE(query.has_value());
  presigned.query = *query;
  EXPECT_TRUE(Verify(presigned, api).has_value()) << rejection_.canonical_request;
  Request with_body = presigned;
  with_body.body = R"({"name":"x"})";
  EXPECT_TRUE(Verify(with_body).has_value());
  ASSERT_FALSE(Verify(with_body, api).has_value());
  EXPECT_EQ(rejection_.reason, SigV4Error::kSignatureDoesNotMatch);
}

}  // namespace
}  // namespace st::auth
