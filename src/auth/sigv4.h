// AWS Signature Version 4 verification (docs/api-contract-notes.md §4.4): the
// Authorization-header form and the presigned-query form, for the `s3` data
// plane and the `s3tables` control plane / Iceberg REST endpoint.
//
// The verifier answers "which access key signed this request, and is the
// signature valid now". What the key may do is the policy evaluator's job.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth/http_request_view.h"
#include "auth/principal.h"
#include "common/clock.h"
#include "common/status.h"

namespace st::auth {

// Why a request failed authentication. Stable and small: each API surface
// maps these to its own error shape (S3 XML code, S3 Tables exception, Iceberg
// REST error); SigV4ErrorCode gives the S3 spelling.
enum class SigV4Error {
  kMissingAuthentication,    // Neither an Authorization header nor X-Amz-Algorithm.
  kUnsupportedAlgorithm,     // SigV2, SigV4a, or anything but AWS4-HMAC-SHA256.
  kMalformedAuthorization,   // Unparseable header/query auth, bad date, bad X-Amz-Expires.
  kCredentialScopeMismatch,  // Scope date/region/service/terminator not acceptable.
  kInvalidAccessKeyId,       // The key is unknown.
  kInvalidToken,             // Session token missing, unexpected or wrong.
  kSignatureDoesNotMatch,    // No canonical variant reproduced the signature.
  kRequestTimeTooSkewed,     // X-Amz-Date more than the allowed skew from now.
  kRequestExpired,           // Presigned URL past X-Amz-Date + X-Amz-Expires.
  kContentSha256Mismatch,    // The body does not hash to x-amz-content-sha256.
  kInternalError,            // SecretLookup failed otherwise (e.g. unavailable), or the adapter
                             // passed neither body nor body hash where one was needed.
};

// The S3 error code for `error`: "AccessDenied" (missing auth, expired
// presign), "AuthorizationHeaderMalformed", "InvalidAccessKeyId",
// "InvalidToken", "SignatureDoesNotMatch", "RequestTimeTooSkewed",
// "XAmzContentSHA256Mismatch", "InvalidRequest", "InternalError".
std::string_view SigV4ErrorCode(SigV4Error error);
// The enumerator's own name without the k ("RequestExpired"), for logs and tests.
std::string_view SigV4ErrorName(SigV4Error error);

// The `<date>/<region>/<service>/aws4_request` part of a credential.
struct CredentialScope {
  std::string date;  // YYYYMMDD
  std::string region;
  std::string service;
  std::string ToString() const;  // "20261130/us-east-1/s3/aws4_request"
};

// What SecretLookup returns for a known access key.
struct SecretRecord {
  std::string secret_access_key;
  Principal principal;
  // Non-empty for temporary credentials: the request must carry exactly this
  // X-Amz-Security-Token. Empty: the key is long-term and a token is ignored.
  std::string session_token;
};

// Injected key store. Implementations must be thread-safe if the verifier is
// shared between threads.
class SecretLookup {
 public:
  virtual ~SecretLookup() = default;
  // NotFound when the key is unknown (reported as kInvalidAccessKeyId); any
  // other error is passed through as kLookupFailed.
  virtual Result<SecretRecord> Lookup(std::string_view access_key_id) const = 0;
};

// How the payload was declared.
enum class PayloadMode {
  kSignedHash,                // A 64-hex hash, header or computed from the body.
  kUnsigned,                  // UNSIGNED-PAYLOAD
  kStreamingSigned,           // STREAMING-AWS4-HMAC-SHA256-PAYLOAD (aws-chunked)
  kStreamingSignedTrailer,    // STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER
  kStreamingUnsignedTrailer,  // STREAMING-UNSIGNED-PAYLOAD-TRAILER
};

struct VerifiedRequest {
  std::string access_key_id;
  Principal principal;
  CredentialScope scope;
  std::chrono::system_clock::time_point request_time;
  std::string amz_date;  // The signed timestamp as sent, YYYYMMDDTHHMMSSZ.
  bool presigned = false;
  std::string session_token;  // As sent (may be empty).
  PayloadMode payload_mode = PayloadMode::kSignedHash;
  // Set when the request declared a 64-hex hash but HttpRequestView carried no
  // body to check it against: the caller must hash the body it streams and
  // reject a mismatch as kContentSha256Mismatch.
  std::optional<std::string> payload_sha256_to_check;
  // For verifying aws-chunked chunk signatures: the seed signature and the
  // derived signing key (raw bytes; never log it).
  std::string seed_signature;
  std::string signing_key;
};

// Details of a rejection, for the S3 error XML (which echoes the canonical
// request and string to sign on SignatureDoesNotMatch) and for logs.
struct SigV4Rejection {
  SigV4Error reason = SigV4Error::kMissingAuthentication;
  std::string access_key_id;      // When it could be parsed.
  std::string canonical_request;  // The standard variant; for kSignatureDoesNotMatch.
  std::string string_to_sign;     // Likewise.
  std::string signature_provided;
  std::optional<std::chrono::system_clock::time_point> request_time;
  std::chrono::system_clock::time_point server_time;
};

struct SigV4VerifierOptions {
  // AWS allows 15 minutes between the client's clock and the server's.
  std::chrono::seconds max_skew{900};
  // Services accepted in the credential scope. The API layer narrows this per
  // surface if it wants to; both are accepted by default because some
  // catalog clients sign the Iceberg endpoint as `s3` (§4.4).
  std::vector<std::string> services = {"s3", "s3tables"};
  // Regions accepted in the credential scope; empty accepts any.
  std::vector<std::string> regions;
  // Also try the non-standard canonical forms DuckDB and others produce
  // (§4.4): ':@$&,=' left unescaped in the double-encoded URI, the query
  // string sorted without re-encoding, or verbatim, or with '+' as space.
  bool accept_client_variants = true;
  // Accept x-amz-content-sha256 values that do not commit to the body
  // (UNSIGNED-PAYLOAD, STREAMING-*) and the UNSIGNED-PAYLOAD of presigned URLs
  // with a body. The S3 data plane allows them (as AWS does); the JSON API
  // endpoint must not, or a captured request replays with another body.
  // When false, such a request fails with kContentSha256Mismatch, and a
  // presigned request verifies as UNSIGNED-PAYLOAD only with an empty body.
  bool allow_unsigned_payload = true;
};

// Stateless apart from its references; Verify is const and thread-safe when
// SecretLookup and Clock are.
class SigV4Verifier {
 public:
  // `secrets` and `clock` must outlive the verifier.
  SigV4Verifier(const SecretLookup& secrets, const Clock& clock, SigV4VerifierOptions options = {});

  // Authenticates `request`. Errors: kUnauthenticated for every SigV4Error
  // except kMalformedAuthorization, kUnsupportedAlgorithm,
  // kCredentialScopeMismatch and kContentSha256Mismatch (kInvalidArgument), and
  // kInternalError (the lookup's own code, or kInternal). The message is AWS-like and names
  // the access key. When `rejection` is non-null it receives the details.
  Result<VerifiedRequest> Verify(const HttpRequestView& request,
                                 SigV4Rejection* rejection = nullptr) const;

 private:
  const SecretLookup& secrets_;
  const Clock& clock_;
  SigV4VerifierOptions options_;
};

// The signature of one aws-chunked chunk (STREAMING-AWS4-HMAC-SHA256-PAYLOAD):
// `previous_signature` is the seed signature for the first chunk.
std::string ChunkSignature(std::string_view signing_key, std::string_view amz_date,
                           const CredentialScope& scope, std::string_view previous_signature,
                           std::string_view chunk_bytes);

}  // namespace st::auth
