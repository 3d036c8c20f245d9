// Building blocks of the SigV4 canonical request, shared by the verifier and
// the signer. Pure functions over the raw wire text.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "auth/http_request_view.h"
#include "auth/sigv4.h"

namespace st::auth {

enum class UriStyle {
  kRawPath,                     // S3: the path exactly as sent.
  kDoubleEncoded,               // Other services: dot segments and empty segments removed, then
                                // every byte but unreserved and '/' percent-encoded again.
  kDoubleEncodedKeepSubDelims,  // DuckDB: like kDoubleEncoded but ':@$&,=' stay literal.
};

enum class QueryStyle {
  kDecodedSorted,      // The standard: decode, re-encode (RFC 3986), sort.
  kRawSorted,          // Pairs as sent, sorted (botocore's URL-based signing).
  kVerbatim,           // The wire query unchanged (DuckDB).
  kPlusAsSpaceSorted,  // Like kDecodedSorted but '+' decoded as a space (form-style clients).
};

// Decodes %XX (a malformed escape is kept literally); '+' becomes ' ' only if asked.
std::string PercentDecode(std::string_view text, bool plus_as_space = false);

// The query split on '&' and the first '=', still encoded; empty pairs dropped.
std::vector<std::pair<std::string_view, std::string_view>> SplitRawQuery(std::string_view raw);

std::string CanonicalUri(std::string_view raw_path, UriStyle style);
// `drop_signature` removes X-Amz-Signature (presigned requests).
std::string CanonicalQuery(std::string_view raw_query, QueryStyle style, bool drop_signature);

// The lower-cased value of header `name` (comma-joined when repeated, values
// trimmed and inner whitespace collapsed), or nullopt when absent.
std::optional<std::string> CanonicalHeaderValue(const HttpRequestView& request,
                                                std::string_view name);
// "name:value\n" for each of `signed_names` (lower case, sorted). A listed
// header that is absent contributes an empty value, so the signature fails.
std::string CanonicalHeaders(const HttpRequestView& request,
                             const std::vector<std::string>& signed_names);

std::string CanonicalRequest(std::string_view method, std::string_view canonical_uri,
                             std::string_view canonical_query, std::string_view canonical_headers,
                             std::string_view signed_headers, std::string_view payload_hash);
std::string StringToSign(std::string_view amz_date, const CredentialScope& scope,
                         std::string_view canonical_request);
// Raw kSigning bytes.
std::string SigningKey(std::string_view secret, const CredentialScope& scope);

}  // namespace st::auth
