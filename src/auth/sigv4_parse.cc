#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "auth/sigv4_canonical_internal.h"
#include "auth/sigv4_parse_internal.h"
#include "common/ascii.h"

namespace st::auth {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
constexpr std::chrono::seconds kMaxPresignExpiry{7 * 24 * 3600};

// Records the reason of the first failure; the Status says it in words.
class Failures {
 public:
  explicit Failures(SigV4Rejection* out) : out_(out != nullptr ? out : &local_) {}
  // Converts to a Status or to any Result<T>.
  internal::ErrorReturn operator()(SigV4Error reason, const std::string& message) {
    out_->reason = reason;
    return {Status(SigV4StatusCode(reason), std::string(SigV4ErrorCode(reason)) + ": " + message)};
  }

 private:
  SigV4Rejection local_;
  SigV4Rejection* out_;
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, end - start));
    start = end + 1;
  }
}

// "<AKID>/<date>/<region>/<service>/aws4_request"
Status ParseCredential(std::string_view credential, ParsedAuthorization& out, Failures& fail) {
  auto parts = Split(credential, '/');
  if (parts.size() != 5 || parts[0].empty() || parts[1].size() != 8 || parts[2].empty() ||
      parts[3].empty()) {
    return fail(SigV4Error::kMalformedAuthorization,
                "the Credential '" + std::string(credential) +
                    "' is not <access key>/<YYYYMMDD>/<region>/<service>/aws4_request");
  }
  if (parts[4] != "aws4_request") {
    return fail(
        SigV4Error::kCredentialScopeMismatch,
        "the credential scope must end in aws4_request, not '" + std::string(parts[4]) + "'");
  }
  out.access_key_id = parts[0];
  out.scope = CredentialScope{std::string(parts[1]), std::string(parts[2]), std::string(parts[3])};
  return Status::OK();
}

Status ParseSignedHeaders(std::string_view text, ParsedAuthorization& out, Failures& fail) {
  out.signed_headers_text = text;
  for (std::string_view name : Split(text, ';')) {
    bool lower = !name.empty() && std::none_of(name.begin(), name.end(), [](char c) {
      return std::isupper(static_cast<unsigned char>(c)) || c == ' ';
    });
    if (!lower) {
      return fail(SigV4Error::kMalformedAuthorization,
                  "SignedHeaders '" + std::string(text) +
                      "' must be lower-case header names separated by ';'");
    }
    out.signed_headers.emplace_back(name);
  }
  if (std::find(out.signed_headers.begin(), out.signed_headers.end(), "host") ==
      out.signed_headers.end()) {
    return fail(SigV4Error::kMalformedAuthorization,
                "SignedHeaders '" + std::string(text) + "' must include host");
  }
  return Status::OK();
}

Status ParseDate(std::string_view amz_date, ParsedAuthorization& out, Failures& fail) {
  auto time = ParseAmzDate(amz_date);
  if (!time) {
    return fail(SigV4Error::kMalformedAuthorization,
                "X-Amz-Date '" + std::string(amz_date) + "' is not YYYYMMDDTHHMMSSZ");
  }
  out.amz_date = amz_date;
  out.request_time = *time;
  return Status::OK();
}

Result<ParsedAuthorization> ParseHeaderForm(const HttpRequestView& request, std::string_view header,
                                            Failures& fail) {
  ParsedAuthorization out;
  std::string_view rest = Trim(header);
  if (rest.substr(0, kAlgorithm.size()) != kAlgorithm ||
      (rest.size() > kAlgorithm.size() && rest[kAlgorithm.size()] != ' ')) {
    return fail(SigV4Error::kUnsupportedAlgorithm,
                "the authorization mechanism '" + std::string(rest.substr(0, rest.find(' '))) +
                    "' is not supported; sign with AWS4-HMAC-SHA256 (SigV4)");
  }
  rest.remove_prefix(kAlgorithm.size());
  std::map<std::string, std::string, std::less<>> fields;
  for (std::string_view part : Split(rest, ',')) {
    part = Trim(part);
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) {
      return fail(
          SigV4Error::kMalformedAuthorization,
          "the Authorization header component '" + std::string(part) + "' is not Key=Value");
    }
    std::string name(Trim(part.substr(0, eq)));
    if (!fields.emplace(name, std::string(Trim(part.substr(eq + 1)))).second) {
      // Two Credential= (or Signature=, ...) parts are ambiguous: which one a
      // verifier or a proxy in front of it reads differs, so refuse both.
      return fail(SigV4Error::kMalformedAuthorization,
                  "the Authorization header has more than one " + name +
                      "= component; send each of Credential, SignedHeaders and Signature once");
    }
  }
  for (const char* required : {"Credential", "SignedHeaders", "Signature"}) {
    if (!fields.count(required)) {
      return fail(SigV4Error::kMalformedAuthorization,
                  std::string("the Authorization header lacks ") + required +
                      "=; send Credential, SignedHeaders and Signature");
    }
  }
  ST_TRY(ParseCredential(fields["Credential"], out, fail));
  ST_TRY(ParseSignedHeaders(fields["SignedHeaders"], out, fail));
  out.signature = fields["Signature"];
  if (auto date = CanonicalHeaderValue(request, "x-amz-date")) {
    ST_TRY(ParseDate(*date, out, fail));
  } else if (auto http_date = CanonicalHeaderValue(request, "date")) {
    auto time = ParseHttpDate(*http_date);
    if (!time) {
      return fail(SigV4Error::kMalformedAuthorization,
                  "the Date header '" + *http_date + "' is not an RFC 1123 date; send X-Amz-Date");
    }
    out.request_time = *time;
    out.amz_date = FormatAmzDate(*time);
  } else {
    return fail(SigV4Error::kMalformedAuthorization,
                "AWS authentication requires a valid Date or X-Amz-Date header");
  }
  out.session_token = CanonicalHeaderValue(request, "x-amz-security-token").value_or("");
  return out;
}

Result<ParsedAuthorization> ParseQueryForm(
    const std::map<std::string, std::string, std::less<>>& params, Failures& fail) {
  ParsedAuthorization out;
  out.presigned = true;
  for (const char* required : {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires",
                               "X-Amz-SignedHeaders", "X-Amz-Signature"}) {
    if (!params.count(required)) {
      return fail(SigV4Error::kMalformedAuthorization,
                  std::string("the presigned query lacks ") + required +
                      "; presign with SigV4 (AWS4-HMAC-SHA256)");
    }
  }
  if (params.at("X-Amz-Algorithm") != kAlgorithm) {
    return fail(SigV4Error::kUnsupportedAlgorithm, "X-Amz-Algorithm '" +
                                                       params.at("X-Amz-Algorithm") +
                                                       "' is not supported; use AWS4-HMAC-SHA256");
  }
  ST_TRY(ParseCredential(params.at("X-Amz-Credential"), out, fail));
  ST_TRY(ParseSignedHeaders(params.at("X-Amz-SignedHeaders"), out, fail));
  ST_TRY(ParseDate(params.at("X-Amz-Date"), out, fail));
  const std::string& expires = params.at("X-Amz-Expires");
  long long seconds = 0;
  bool digits =
      !expires.empty() && expires.size() <= 7 &&
      std::all_of(expires.begin(), expires.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits) seconds = std::stoll(expires);
  if (!digits || seconds < 1 || std::chrono::seconds(seconds) > kMaxPresignExpiry) {
    return fail(SigV4Error::kMalformedAuthorization,
                "X-Amz-Expires '" + expires + "' must be between 1 and 604800 seconds");
  }
  out.expires = std::chrono::seconds(seconds);
  out.signature = params.at("X-Amz-Signature");
  if (auto token = params.find("X-Amz-Security-Token"); token != params.end()) {
    out.session_token = token->second;
  }
  return out;
}

// X-Amz-Algorithm, X-Amz-Credential, ...: compared case-insensitively.
bool IsAmzParameter(std::string_view name) {
  constexpr std::string_view kPrefix = "x-amz-";
  if (name.size() < kPrefix.size()) return false;
  for (size_t i = 0; i < kPrefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != kPrefix[i]) return false;
  }
  return true;
}

}  // namespace

StatusCode SigV4StatusCode(SigV4Error reason) {
  switch (reason) {
    case SigV4Error::kUnsupportedAlgorithm:
    case SigV4Error::kMalformedAuthorization:
    case SigV4Error::kCredentialScopeMismatch:
    case SigV4Error::kContentSha256Mismatch:
      return StatusCode::kInvalidArgument;
    case SigV4Error::kInternalError:
      return StatusCode::kInternal;
    default:
      return StatusCode::kUnauthenticated;
  }
}

Result<ParsedAuthorization> ParseAuthorization(const HttpRequestView& request,
                                               SigV4Rejection* rejection) {
  Failures fail(rejection);
  std::map<std::string, std::string, std::less<>> params;
  // The first X-Amz-* parameter that repeats, in any spelling of its name
  // (X-Amz-Date and x-amz-date are the same parameter to some readers).
  std::string duplicate_amz;
  std::set<std::string> amz_seen;
  for (const auto& [key, value] : SplitRawQuery(request.raw_query)) {
    std::string name = PercentDecode(key);
    params.emplace(name, PercentDecode(value));
    if (duplicate_amz.empty() && IsAmzParameter(name) &&
        !amz_seen.insert(AsciiLower(name)).second) {
      duplicate_amz = name;
    }
  }
  auto header = CanonicalHeaderValue(request, "authorization");
  bool query_auth = params.count("X-Amz-Algorithm") > 0 || params.count("X-Amz-Signature") > 0;
  if (query_auth && !duplicate_amz.empty()) {
    return fail(SigV4Error::kMalformedAuthorization,
                "the presigned query has more than one " + duplicate_amz +
                    " parameter; send each X-Amz-* parameter once");
  }
  if (header && query_auth) {
    return fail(SigV4Error::kMalformedAuthorization,
                "the request carries both an Authorization header and X-Amz-* query "
                "authentication; send only one");
  }
  if (header) return ParseHeaderForm(request, *header, fail);
  if (query_auth) return ParseQueryForm(params, fail);
  if (params.count("AWSAccessKeyId") && params.count("Signature")) {
    return fail(SigV4Error::kUnsupportedAlgorithm,
                "SigV2 presigned URLs are not supported; presign with signature_version='s3v4'");
  }
  return fail(SigV4Error::kMissingAuthentication,
              "the request is not signed; send SigV4 credentials (Authorization header or "
              "presigned X-Amz-* query)");
}

}  // namespace st::auth
