#include "server/sigv4_authenticator.h"

#include <chrono>

#include "auth/http_request_view.h"

namespace st::server {

namespace {

// UNSIGNED-PAYLOAD and STREAMING-* only on the S3 data plane (AWS allows them
// there); on the API endpoint the signature must cover the body.
auth::SigV4VerifierOptions OptionsFor(Endpoint endpoint, std::vector<std::string> services,
                                      std::string region) {
  auth::SigV4VerifierOptions options;
  options.services = std::move(services);
  options.regions = {std::move(region)};
  options.allow_unsigned_payload = endpoint == Endpoint::kS3;
  return options;
}

auth::HttpRequestView ViewOf(const http::Request& request) {
  auth::HttpRequestView view;
  view.method = request.method;
  view.raw_path = request.raw_path();
  view.raw_query = request.raw_query();
  view.headers.reserve(request.headers.fields().size());
  for (const auto& [name, value] : request.headers.fields()) view.headers.emplace_back(name, value);
  // The server holds every body in memory (bounded by max_body_bytes), so the
  // declared or implied payload hash is always checked here.
  view.body = std::string_view(request.body);
  return view;
}

// The verifier prefixes its messages with the S3 code ("SignatureDoesNotMatch: ...");
// JSON surfaces carry the code separately.
std::string StripCode(const std::string& message, std::string_view code) {
  std::string prefix = std::string(code) + ": ";
  return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

std::string IsoSeconds(std::chrono::system_clock::time_point t) {
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y%m%dT%H%M%SZ", &tm);
  return buffer;
}

bool IsCatalogPath(const http::Request& request) {
  const std::string& path = request.raw_path();
  return path == "/iceberg" || path.rfind("/iceberg/", 0) == 0;
}

}  // namespace

SigV4Authenticator::SigV4Authenticator(const auth::SecretLookup& secrets, const Clock& clock,
                                       Endpoint endpoint, std::string region)
    : endpoint_(endpoint),
      strict_(secrets, clock,
              endpoint == Endpoint::kS3
                  ? OptionsFor(endpoint, {"s3"}, region)
                  : OptionsFor(endpoint, {"s3tables", "kafka", "glue", "kms"}, region)),
      catalog_(secrets, clock, OptionsFor(endpoint, {"s3tables", "s3"}, region)) {}

tl::expected<auth::Principal, http::HttpError> SigV4Authenticator::Authenticate(
    const http::Request& request) const {
  // A request without SigV4 material fails here with kMissingAuthentication:
  // S3 Tables blocks public access, so there is no anonymous principal.
  auth::HttpRequestView view = ViewOf(request);
  auth::SigV4Rejection rejection;
  const auth::SigV4Verifier& verifier =
      endpoint_ == Endpoint::kApi && IsCatalogPath(request) ? catalog_ : strict_;
  Result<auth::VerifiedRequest> verified = verifier.Verify(view, &rejection);
  if (verified.has_value()) return std::move(verified->principal);
  return tl::unexpected(endpoint_ == Endpoint::kS3 ? S3Error(verified.error(), rejection)
                                                   : ApiError(verified.error(), rejection));
}

http::HttpError SigV4Authenticator::ApiError(const Status& status,
                                             const auth::SigV4Rejection& rejection) const {
  std::string message = StripCode(status.message(), auth::SigV4ErrorCode(rejection.reason));
  switch (rejection.reason) {
    case auth::SigV4Error::kInvalidAccessKeyId:
      return http::HttpError(
          Status(StatusCode::kUnauthenticated,
                 "The security token included in the request is invalid: " + message),
          403, "UnrecognizedClientException");
    case auth::SigV4Error::kMissingAuthentication:
      // What the AWS front door answers a JSON service request without credentials.
      return http::HttpError(
          Status(StatusCode::kUnauthenticated, "Missing Authentication Token: " + message), 403,
          "MissingAuthenticationTokenException");
    case auth::SigV4Error::kSignatureDoesNotMatch:
    case auth::SigV4Error::kInvalidToken:
      return http::HttpError(Status(StatusCode::kUnauthenticated, message), 403,
                             "InvalidSignatureException");
    case auth::SigV4Error::kRequestTimeTooSkewed:
    case auth::SigV4Error::kRequestExpired:
      return http::HttpError(Status(StatusCode::kUnauthenticated, "Signature expired: " + message),
                             403, "InvalidSignatureException");
    case auth::SigV4Error::kContentSha256Mismatch:
      return http::HttpError(Status(StatusCode::kInvalidArgument, message), 400,
                             "XAmzContentSHA256Mismatch");
    case auth::SigV4Error::kMalformedAuthorization:
    case auth::SigV4Error::kUnsupportedAlgorithm:
    case auth::SigV4Error::kCredentialScopeMismatch:
      return http::HttpError(Status(StatusCode::kInvalidArgument, message), 400,
                             "IncompleteSignatureException");
    case auth::SigV4Error::kInternalError:
      break;
  }
  return http::HttpError(Status(StatusCode::kInternal, message), 500,
                         "InternalServerErrorException");
}

http::HttpError SigV4Authenticator::S3Error(const Status& status,
                                            const auth::SigV4Rejection& rejection) const {
  std::string code(auth::SigV4ErrorCode(rejection.reason));
  std::string message = StripCode(status.message(), code);
  int http_status = 403;
  switch (rejection.reason) {
    case auth::SigV4Error::kMalformedAuthorization:
    case auth::SigV4Error::kUnsupportedAlgorithm:
    case auth::SigV4Error::kCredentialScopeMismatch:
    case auth::SigV4Error::kContentSha256Mismatch:
    case auth::SigV4Error::kInvalidToken:
      http_status = 400;
      break;
    case auth::SigV4Error::kInternalError:
      http_status = 500;
      break;
    default:
      break;
  }
  if (rejection.reason == auth::SigV4Error::kRequestExpired) message = "Request has expired";
  http::HttpError error(Status(status.code(), message), http_status, code);
  if (!rejection.access_key_id.empty()) {
    error.details.emplace_back("AWSAccessKeyId", rejection.access_key_id);
  }
  switch (rejection.reason) {
    case auth::SigV4Error::kSignatureDoesNotMatch:
      error.details.emplace_back("StringToSign", rejection.string_to_sign);
      error.details.emplace_back("SignatureProvided", rejection.signature_provided);
      error.details.emplace_back("CanonicalRequest", rejection.canonical_request);
      break;
    case auth::SigV4Error::kRequestTimeTooSkewed:
      if (rejection.request_time) {
        error.details.emplace_back("RequestTime", IsoSeconds(*rejection.request_time));
      }
      error.details.emplace_back("ServerTime", IsoSeconds(rejection.server_time));
      error.details.emplace_back("MaxAllowedSkewMilliseconds", "900000");
      break;
    case auth::SigV4Error::kRequestExpired:
      error.details.emplace_back("ServerTime", IsoSeconds(rejection.server_time));
      break;
    default:
      break;
  }
  return error;
}

}  // namespace st::server
