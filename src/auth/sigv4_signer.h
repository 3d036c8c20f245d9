// A SigV4 signer producing the standard canonical form (what botocore and the
// AWS SDKs send), for our CLI, clients and tests.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "auth/http_request_view.h"
#include "common/status.h"

namespace st::auth {

struct SigningCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // Empty for long-term keys.
};

enum class PayloadSigning {
  kHashBody,         // Sign SHA-256 of request.body (empty when absent).
  kUnsignedPayload,  // Sign the literal UNSIGNED-PAYLOAD.
};

struct SigningOptions {
  std::string region = "us-east-1";
  // "s3tables" double-encodes the path in the canonical URI; "s3" signs it raw.
  std::string service = "s3tables";
  std::chrono::system_clock::time_point time;  // The signing time (X-Amz-Date).
  PayloadSigning payload = PayloadSigning::kHashBody;
  // Add x-amz-content-sha256 (S3 requires it; botocore omits it for s3tables).
  bool add_content_sha256_header = false;
};

// Returns the headers to add to `request` (x-amz-date, x-amz-security-token,
// x-amz-content-sha256 when asked, authorization), in that order. Signs
// every header `request` already has except hop-by-hop ones and user-agent,
// plus the added x-amz-* ones. A request that already carries
// x-amz-content-sha256 is signed with that value. Errors: InvalidArgument when `request` has no
// Host header or the credentials are empty.
Result<std::vector<std::pair<std::string, std::string>>> SignRequest(
    const HttpRequestView& request, const SigningCredentials& credentials,
    const SigningOptions& options);

// Returns the complete query string (without '?') of a presigned URL: the
// request's own parameters plus X-Amz-Algorithm, -Credential, -Date, -Expires,
// -SignedHeaders, -Security-Token and -Signature. S3 presigns sign
// UNSIGNED-PAYLOAD whatever options.payload says. Errors: InvalidArgument as
// for SignRequest, or when `expires` is outside 1 s..7 days.
Result<std::string> PresignQuery(const HttpRequestView& request,
                                 const SigningCredentials& credentials,
                                 const SigningOptions& options, std::chrono::seconds expires);

}  // namespace st::auth
