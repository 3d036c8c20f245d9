// Extracting the SigV4 parameters from a request, in either form: the
// Authorization header or the presigned query (X-Amz-*).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "auth/http_request_view.h"
#include "auth/sigv4.h"
#include "auth/time_format_internal.h"
#include "common/status.h"

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

// The StatusCode of a SigV4 failure (SigV4Verifier::Verify documents the
// mapping): kInvalidArgument for malformed input, kInternal for
// kInternalError, kUnauthenticated otherwise.
StatusCode SigV4StatusCode(SigV4Error reason);

// Fails with kMissingAuthentication, kUnsupportedAlgorithm,
// kMalformedAuthorization or kCredentialScopeMismatch: the Status is
// SigV4StatusCode(reason) with "<SigV4ErrorCode(reason)>: <why>", and
// `rejection` (when not null) gets the reason. Does not check the scope
// against options or time.
Result<ParsedAuthorization> ParseAuthorization(const HttpRequestView& request,
                                               SigV4Rejection* rejection = nullptr);

}  // namespace st::auth
