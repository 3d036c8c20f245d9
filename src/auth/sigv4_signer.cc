#include "auth/sigv4_signer.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "auth/digest_internal.h"
#include "auth/sigv4_canonical_internal.h"
#include "auth/time_format_internal.h"
#include "common/ascii.h"
#include "common/percent_encoding.h"

namespace st::auth {
namespace {

// Headers a proxy may rewrite or drop; botocore never signs them either.
const std::set<std::string, std::less<>> kUnsignedHeaders = {"authorization",
                                                             "connection",
                                                             "expect",
                                                             "keep-alive",
                                                             "proxy-authenticate",
                                                             "proxy-authorization",
                                                             "te",
                                                             "trailer",
                                                             "transfer-encoding",
                                                             "upgrade",
                                                             "user-agent",
                                                             "x-amzn-trace-id"};

Status CheckInputs(const HttpRequestView& request, const SigningCredentials& credentials) {
  if (credentials.access_key_id.empty() || credentials.secret_access_key.empty()) {
    return InvalidArgument("SigV4 signing needs an access key id and a secret access key");
  }
  if (!CanonicalHeaderValue(request, "host")) {
    return InvalidArgument("the request to sign has no Host header; add one before signing");
  }
  return Status::OK();
}

// Sorted, de-duplicated lower-case names of the headers to sign.
std::vector<std::string> NamesToSign(const HttpRequestView& request) {
  std::set<std::string> names;
  for (const auto& [name, value] : request.headers) {
    std::string lower = AsciiLower(name);
    if (!kUnsignedHeaders.count(lower)) names.insert(lower);
  }
  return {names.begin(), names.end()};
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ';';
    out += name;
  }
  return out;
}

}  // namespace

Result<std::vector<std::pair<std::string, std::string>>> SignRequest(
    const HttpRequestView& request, const SigningCredentials& credentials,
    const SigningOptions& options) {
  ST_TRY(CheckInputs(request, credentials));
  const std::string amz_date = FormatAmzDate(options.time);
  const CredentialScope scope{amz_date.substr(0, 8), options.region, options.service};
  // A caller-declared x-amz-content-sha256 (e.g. a STREAMING-* mode) is what gets signed.
  const std::optional<std::string> declared = CanonicalHeaderValue(request, "x-amz-content-sha256");
  const std::string payload_hash = declared ? *declared
                                   : options.payload == PayloadSigning::kUnsignedPayload
                                       ? "UNSIGNED-PAYLOAD"
                                       : Sha256Hex(request.body.value_or(""));

  std::vector<std::pair<std::string, std::string>> added;
  added.emplace_back("x-amz-date", amz_date);
  if (!credentials.session_token.empty()) {
    added.emplace_back("x-amz-security-token", credentials.session_token);
  }
  if (options.add_content_sha256_header && !declared) {
    added.emplace_back("x-amz-content-sha256", payload_hash);
  }

  HttpRequestView signed_view = request;
  for (const auto& [name, value] : added) signed_view.headers.emplace_back(name, value);
  std::vector<std::string> names = NamesToSign(signed_view);
  std::string signed_headers = JoinNames(names);

  UriStyle uri_style = options.service == "s3" ? UriStyle::kRawPath : UriStyle::kDoubleEncoded;
  std::string canonical =
      CanonicalRequest(request.method, CanonicalUri(request.raw_path, uri_style),
                       CanonicalQuery(request.raw_query, QueryStyle::kDecodedSorted, false),
                       CanonicalHeaders(signed_view, names), signed_headers, payload_hash);
  std::string signature = HexEncode(HmacSha256(SigningKey(credentials.secret_access_key, scope),
                                               StringToSign(amz_date, scope, canonical)));
  added.emplace_back("authorization", "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id +
                                          "/" + scope.ToString() + ", SignedHeaders=" +
                                          signed_headers + ", Signature=" + signature);
  return added;
}

Result<std::string> PresignQuery(const HttpRequestView& request,
                                 const SigningCredentials& credentials,
                                 const SigningOptions& options, std::chrono::seconds expires) {
  ST_TRY(CheckInputs(request, credentials));
  if (expires < std::chrono::seconds(1) || expires > std::chrono::hours(24 * 7)) {
    return Err(InvalidArgument("presigned URL expiry must be between 1 second and 7 days, not " +
                               std::to_string(expires.count()) + " s"));
  }
  const std::string amz_date = FormatAmzDate(options.time);
  const CredentialScope scope{amz_date.substr(0, 8), options.region, options.service};
  std::vector<std::string> names = NamesToSign(request);
  std::string signed_headers = JoinNames(names);

  std::string query(request.raw_query);
  auto add = [&](std::string_view key, std::string_view value) {
    if (!query.empty()) query += '&';
    query += PercentEncode(key);
    query += '=';
    query += PercentEncode(value);
  };
  add("X-Amz-Algorithm", "AWS4-HMAC-SHA256");
  add("X-Amz-Credential", credentials.access_key_id + "/" + scope.ToString());
  add("X-Amz-Date", amz_date);
  add("X-Amz-Expires", std::to_string(expires.count()));
  add("X-Amz-SignedHeaders", signed_headers);
  if (!credentials.session_token.empty()) add("X-Amz-Security-Token", credentials.session_token);

  const bool unsigned_payload =
      options.service == "s3" || options.payload == PayloadSigning::kUnsignedPayload;
  const std::string payload_hash =
      unsigned_payload ? "UNSIGNED-PAYLOAD" : Sha256Hex(request.body.value_or(""));
  UriStyle uri_style = options.service == "s3" ? UriStyle::kRawPath : UriStyle::kDoubleEncoded;
  std::string canonical =
      CanonicalRequest(request.method, CanonicalUri(request.raw_path, uri_style),
                       CanonicalQuery(query, QueryStyle::kDecodedSorted, false),
                       CanonicalHeaders(request, names), signed_headers, payload_hash);
  add("X-Amz-Signature", HexEncode(HmacSha256(SigningKey(credentials.secret_access_key, scope),
                                              StringToSign(amz_date, scope, canonical))));
  return query;
}

}  // namespace st::auth
