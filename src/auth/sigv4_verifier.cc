// Verification order follows what a client most needs to hear first: is the
// request authenticated at all, is it well formed, is it fresh, is the key
// known, does the signature match, and only then does the body match its
// declared hash (so a tampered body reads as XAmzContentSHA256Mismatch).
#include <algorithm>
#include <cctype>
#include <cstdint>

#include "auth/digest_internal.h"
#include "auth/sigv4.h"
#include "auth/sigv4_canonical_internal.h"
#include "auth/sigv4_parse_internal.h"
#include "auth/time_format_internal.h"
#include "common/ascii.h"
#include "common/base64.h"

namespace st::auth {
namespace {

bool IsHex64(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

// Collects the failure into `rejection` and builds the Status.
class Rejector {
 public:
  Rejector(SigV4Rejection* out, TimePoint now) : out_(out ? out : &local_) {
    out_->server_time = now;
  }
  SigV4Rejection& details() { return *out_; }
  tl::unexpected<Status> operator()(SigV4Error reason, std::string message) {
    out_->reason = reason;
    return Err(SigV4StatusCode(reason), std::string(SigV4ErrorCode(reason)) + ": " + message);
  }
  tl::unexpected<Status> operator()(SigV4Error reason, const Status& status) {
    out_->reason = reason;
    return Err(status.code(), std::string(SigV4ErrorCode(reason)) + ": " + status.message());
  }

 private:
  SigV4Rejection local_;
  SigV4Rejection* out_;
};

bool Contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

std::string_view SigV4ErrorCode(SigV4Error error) {
  switch (error) {
    case SigV4Error::kMissingAuthentication:
      return "AccessDenied";
    case SigV4Error::kUnsupportedAlgorithm:
      return "InvalidRequest";
    case SigV4Error::kMalformedAuthorization:
    case SigV4Error::kCredentialScopeMismatch:
      return "AuthorizationHeaderMalformed";
    case SigV4Error::kInvalidAccessKeyId:
      return "InvalidAccessKeyId";
    case SigV4Error::kInvalidToken:
      return "InvalidToken";
    case SigV4Error::kSignatureDoesNotMatch:
      return "SignatureDoesNotMatch";
    case SigV4Error::kRequestTimeTooSkewed:
      return "RequestTimeTooSkewed";
    case SigV4Error::kRequestExpired:
      return "AccessDenied";
    case SigV4Error::kContentSha256Mismatch:
      return "XAmzContentSHA256Mismatch";
    case SigV4Error::kInternalError:
      return "InternalError";
  }
  return "InternalError";
}

std::string_view SigV4ErrorName(SigV4Error error) {
  switch (error) {
    case SigV4Error::kMissingAuthentication:
      return "MissingAuthentication";
    case SigV4Error::kUnsupportedAlgorithm:
      return "UnsupportedAlgorithm";
    case SigV4Error::kMalformedAuthorization:
      return "MalformedAuthorization";
    case SigV4Error::kCredentialScopeMismatch:
      return "CredentialScopeMismatch";
    case SigV4Error::kInvalidAccessKeyId:
      return "InvalidAccessKeyId";
    case SigV4Error::kInvalidToken:
      return "InvalidToken";
    case SigV4Error::kSignatureDoesNotMatch:
      return "SignatureDoesNotMatch";
    case SigV4Error::kRequestTimeTooSkewed:
      return "RequestTimeTooSkewed";
    case SigV4Error::kRequestExpired:
      return "RequestExpired";
    case SigV4Error::kContentSha256Mismatch:
      return "ContentSha256Mismatch";
    case SigV4Error::kInternalError:
      return "InternalError";
  }
  return "InternalError";
}

SigV4Verifier::SigV4Verifier(const SecretLookup& secrets, const Clock& clock,
                             SigV4VerifierOptions options)
    : secrets_(secrets), clock_(clock), options_(std::move(options)) {}

Result<VerifiedRequest> SigV4Verifier::Verify(const HttpRequestView& request,
                                              SigV4Rejection* rejection) const {
  const TimePoint now = clock_.Now();
  Rejector reject(rejection, now);

  // 1. Which form, and its parts.
  auto parsed_or = ParseAuthorization(request, &reject.details());
  if (!parsed_or) return Err(parsed_or.error());
  const ParsedAuthorization& auth = *parsed_or;
  reject.details().access_key_id = auth.access_key_id;
  reject.details().signature_provided = auth.signature;
  reject.details().request_time = auth.request_time;

  // 2. Credential scope.
  const CredentialScope& scope = auth.scope;
  if (scope.date != auth.amz_date.substr(0, 8)) {
    return reject(SigV4Error::kCredentialScopeMismatch,
                  "credential date " + scope.date + " does not match the request date " +
                      auth.amz_date + "; sign with the same timestamp");
  }
  if (!Contains(options_.services, scope.service)) {
    return reject(SigV4Error::kCredentialScopeMismatch,
                  "credential scope names service '" + scope.service +
                      "', which this endpoint does not serve; sign for s3 or s3tables");
  }
  if (!options_.regions.empty() && !Contains(options_.regions, scope.region)) {
    return reject(SigV4Error::kCredentialScopeMismatch,
                  "credential scope names region '" + scope.region +
                      "', which this server does not serve; sign for " + options_.regions.front());
  }

  // 3. Freshness.
  if (auth.request_time > now + options_.max_skew ||
      (!auth.presigned && auth.request_time < now - options_.max_skew)) {
    return reject(SigV4Error::kRequestTimeTooSkewed,
                  "the difference between the request time " + auth.amz_date +
                      " and the server time " + FormatAmzDate(now) + " exceeds " +
                      std::to_string(options_.max_skew.count()) + " s; fix the client clock");
  }
  if (auth.presigned && now > auth.request_time + auth.expires) {
    return reject(SigV4Error::kRequestExpired, "Request has expired: signed at " + auth.amz_date +
                                                   " for " + std::to_string(auth.expires.count()) +
                                                   " s, server time " + FormatAmzDate(now) +
                                                   "; presign a new URL");
  }

  // 4. The key.
  auto record = secrets_.Lookup(auth.access_key_id);
  if (!record) {
    if (record.error().code() == StatusCode::kNotFound) {
      return reject(SigV4Error::kInvalidAccessKeyId,
                    "the access key id '" + auth.access_key_id +
                        "' does not exist in our records; check the configured credentials");
    }
    return reject(SigV4Error::kInternalError,
                  record.error().WithContext("looking up access key " + auth.access_key_id));
  }
  if (!record->session_token.empty() &&
      !ConstantTimeEquals(record->session_token, auth.session_token)) {
    return reject(SigV4Error::kInvalidToken,
                  "the security token sent with access key '" + auth.access_key_id +
                      "' is missing or invalid; send the session token issued with the key");
  }

  // 5. The payload hash the client signed: candidates in order of likelihood.
  struct PayloadCandidate {
    std::string hash;
    PayloadMode mode;
  };
  std::vector<PayloadCandidate> payloads;
  std::optional<std::string> declared = CanonicalHeaderValue(request, "x-amz-content-sha256");
  bool declared_is_base64_body_hash = false;
  if (declared) {
    PayloadMode mode = PayloadMode::kSignedHash;
    if (*declared == "UNSIGNED-PAYLOAD") {
      mode = PayloadMode::kUnsigned;
    } else if (*declared == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD") {
      mode = PayloadMode::kStreamingSigned;
    } else if (*declared == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER") {
      mode = PayloadMode::kStreamingSignedTrailer;
    } else if (*declared == "STREAMING-UNSIGNED-PAYLOAD-TRAILER") {
      mode = PayloadMode::kStreamingUnsignedTrailer;
    } else if (scope.service != "s3" && request.body && !IsHex64(*declared) &&
               *declared == common::Base64Encode(Sha256(*request.body))) {
      // Iceberg Java's REST signer sends x-amz-content-sha256 as the base64
      // SHA-256 of the body (an ordinary signed header) and signs the hex
      // SHA-256 as the payload; it matched the body, so verify that form.
      payloads.push_back({Sha256Hex(*request.body), PayloadMode::kSignedHash});
      declared_is_base64_body_hash = true;
    } else if (!IsHex64(*declared)) {
      return reject(SigV4Error::kMalformedAuthorization,
                    "x-amz-content-sha256 '" + *declared +
                        "' is neither a hex SHA-256 nor a supported payload mode (SigV4a is "
                        "not supported)");
    }
    if (mode != PayloadMode::kSignedHash && !options_.allow_unsigned_payload) {
      return reject(SigV4Error::kContentSha256Mismatch,
                    "x-amz-content-sha256 '" + *declared +
                        "' is not accepted on this endpoint: the signature must cover the body; "
                        "send the hex SHA-256 of the body in x-amz-content-sha256, or omit the "
                        "header (UNSIGNED-PAYLOAD and aws-chunked streaming are for the S3 "
                        "endpoint only)");
    }
    if (!declared_is_base64_body_hash) payloads.push_back({*declared, mode});
  } else if (!auth.presigned) {
    if (request.body) {
      payloads.push_back({Sha256Hex(*request.body), PayloadMode::kSignedHash});
    } else if (request.body_sha256_hex) {
      payloads.push_back({AsciiLower(*request.body_sha256_hex), PayloadMode::kSignedHash});
    } else {
      return reject(SigV4Error::kInternalError,
                    Status(StatusCode::kInternal,
                           "the request has no x-amz-content-sha256 and the server adapter "
                           "passed neither the body nor its hash; fix the adapter"));
    }
  } else if (scope.service != "s3") {
    // Non-S3 presigners hash the body; fall back to UNSIGNED-PAYLOAD below.
    if (request.body) payloads.push_back({Sha256Hex(*request.body), PayloadMode::kSignedHash});
  }
  // Presigned URLs sign UNSIGNED-PAYLOAD for S3 even when a client later adds
  // an x-amz-content-sha256 header to the request.
  // Where unsigned payloads are refused, that is only safe without a body.
  const bool unsigned_presign_ok =
      options_.allow_unsigned_payload || (request.body && request.body->empty());
  if (auth.presigned && unsigned_presign_ok && (!declared || *declared != "UNSIGNED-PAYLOAD")) {
    payloads.push_back({"UNSIGNED-PAYLOAD", PayloadMode::kUnsigned});
  }

  // 6. The signature, over the standard canonical form and then the variants.
  std::vector<UriStyle> uri_styles;
  if (scope.service == "s3") {
    uri_styles = {UriStyle::kRawPath};
  } else {
    uri_styles = {UriStyle::kDoubleEncoded};
    if (options_.accept_client_variants)
      uri_styles.push_back(UriStyle::kDoubleEncodedKeepSubDelims);
  }
  std::vector<QueryStyle> query_styles = {QueryStyle::kDecodedSorted};
  if (options_.accept_client_variants) {
    query_styles.insert(query_styles.end(), {QueryStyle::kRawSorted, QueryStyle::kVerbatim,
                                             QueryStyle::kPlusAsSpaceSorted});
  }
  const std::string signing_key = SigningKey(record->secret_access_key, scope);
  const std::string canonical_headers = CanonicalHeaders(request, auth.signed_headers);
  std::vector<std::string> tried;
  bool matched = false;
  PayloadMode payload_mode = PayloadMode::kSignedHash;
  for (const PayloadCandidate& payload : payloads) {
    payload_mode = payload.mode;
    const std::string& payload_hash = payload.hash;
    for (UriStyle uri_style : uri_styles) {
      std::string uri = CanonicalUri(request.raw_path, uri_style);
      for (QueryStyle query_style : query_styles) {
        std::string canonical = CanonicalRequest(
            request.method, uri, CanonicalQuery(request.raw_query, query_style, auth.presigned),
            canonical_headers, auth.signed_headers_text, payload_hash);
        if (std::find(tried.begin(), tried.end(), canonical) != tried.end()) continue;
        std::string to_sign = StringToSign(auth.amz_date, scope, canonical);
        if (tried.empty()) {
          reject.details().canonical_request = canonical;
          reject.details().string_to_sign = to_sign;
        }
        tried.push_back(std::move(canonical));
        if (ConstantTimeEquals(HexEncode(HmacSha256(signing_key, to_sign)),
                               AsciiLower(auth.signature))) {
          matched = true;
          break;
        }
      }
      if (matched) break;
    }
    if (matched) break;
  }
  if (!matched) {
    return reject(SigV4Error::kSignatureDoesNotMatch,
                  "the request signature we calculated does not match the signature provided "
                  "for access key '" +
                      auth.access_key_id + "'; check the secret key and the signing method");
  }

  // 7. The body against the hash it was signed with.
  VerifiedRequest verified;
  if (payload_mode == PayloadMode::kSignedHash && declared && !declared_is_base64_body_hash) {
    std::string expected = AsciiLower(*declared);
    std::optional<std::string> actual;
    if (request.body) {
      actual = Sha256Hex(*request.body);
    } else if (request.body_sha256_hex) {
      actual = AsciiLower(*request.body_sha256_hex);
    }
    if (actual && *actual != expected) {
      return reject(SigV4Error::kContentSha256Mismatch,
                    "the body hashes to " + *actual + " but x-amz-content-sha256 declares " +
                        expected + "; send the body that was signed");
    }
    if (!actual) verified.payload_sha256_to_check = expected;
  }

  verified.access_key_id = auth.access_key_id;
  verified.principal = record->principal;
  verified.scope = scope;
  verified.request_time = auth.request_time;
  verified.amz_date = auth.amz_date;
  verified.presigned = auth.presigned;
  verified.session_token = auth.session_token;
  verified.payload_mode = payload_mode;
  verified.seed_signature = AsciiLower(auth.signature);
  verified.signing_key = signing_key;
  return verified;
}

}  // namespace st::auth
