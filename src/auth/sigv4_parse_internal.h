// Extracting the SigV4 parameters from a request, in either form: the
// Authorization header or the presigned query (X-Amz-*).
#pragma once

#include <chrono>
#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "auth/http_request_view.h"
#include "auth/sigv4.h"
#include "auth/time_format_internal.h"

namespace st::auth {

struct ParsedAuthorization {
  bool presigned = false;
  std::string access_key_id;
  CredentialScope scope;
  std::vector<std::string> signed_headers;  // Lower case, in the order sent.
  std::string signed_headers_text;          // "host;x-amz-date"
  std::string signature;
  std::string amz_date;  // YYYYMMDDTHHMMSSZ (converted from a Date header if needed).
  TimePoint request_time;
  std::chrono::seconds expires{0};  // Presigned only.
  std::string session_token;
};

struct ParseFailure {
  SigV4Error reason;
  std::string message;
};

// Fails with kMissingAuthentication, kUnsupportedAlgorithm or
// kMalformedAuthorization. Does not check the scope against options or time.
tl::expected<ParsedAuthorization, ParseFailure> ParseAuthorization(const HttpRequestView& request);

}  // namespace st::auth
