// The production http::Authenticator: SigV4 (header or presigned query) via
// auth::SigV4Verifier over the catalog's access keys.
//
// A request without any SigV4 material is refused (S3 Tables blocks public
// access; only the router's public routes, /health and /metrics, skip this).
// Every failure is 4xx/5xx in the surface's error shape with the wire code
// its clients expect:
//   S3 endpoint (XML): AccessDenied (unsigned), InvalidAccessKeyId, SignatureDoesNotMatch (with
//     StringToSign/CanonicalRequest details), RequestTimeTooSkewed,
//     AccessDenied "Request has expired", AuthorizationHeaderMalformed,
//     XAmzContentSHA256Mismatch, InvalidToken — all 403 but the malformed ones.
//   API endpoint (JSON, control plane, Iceberg REST, admin, MSK, Glue): 403
//     MissingAuthenticationTokenException (unsigned), UnrecognizedClientException (unknown key) or
//     InvalidSignatureException (bad signature, skew, expiry, token); 400
//     IncompleteSignatureException for malformed authorization; 400 XAmzContentSHA256Mismatch (body
//     hash mismatch, or UNSIGNED-PAYLOAD / STREAMING-*, which only the S3 endpoint accepts).
#pragma once

#include <string>

#include "auth/sigv4.h"
#include "common/clock.h"
#include "http/router.h"

namespace st::server {

enum class Endpoint {
  kApi,  // Control plane + Iceberg REST + admin: service s3tables (and s3 under /iceberg).
  kS3,   // S3 data endpoint: service s3.
};

// Thread-safe; `secrets` and `clock` must outlive it.
class SigV4Authenticator final : public http::Authenticator {
 public:
  SigV4Authenticator(const auth::SecretLookup& secrets, const Clock& clock, Endpoint endpoint,
                     std::string region);

  tl::expected<auth::Principal, http::HttpError> Authenticate(
      const http::Request& request) const override;

 private:
  http::HttpError ApiError(const Status& status, const auth::SigV4Rejection& rejection) const;
  http::HttpError S3Error(const Status& status, const auth::SigV4Rejection& rejection) const;

  Endpoint endpoint_;
  // The endpoint's own service only.
  auth::SigV4Verifier strict_;
  // s3tables or s3: some catalog clients sign the Iceberg endpoint as s3
  // (docs/api-contract-notes.md §4.4).
  auth::SigV4Verifier catalog_;
};

}  // namespace st::server
