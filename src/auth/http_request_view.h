// The HTTP request as SigV4 sees it, independent of any HTTP library. The
// server's adapter fills it from whatever it parsed; tests build it by hand.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace st::auth {

// Non-owning: every view must outlive the calls that take the request.
struct HttpRequestView {
  std::string_view method;  // "GET", "PUT", ...: upper case as sent.
  // The request-target path exactly as received, still percent-encoded
  // ("/buckets/arn%3Aaws%3A..."); never decoded or normalised by the caller.
  std::string_view raw_path;
  // Everything after '?', still encoded, without the '?'; empty when none.
  std::string_view raw_query;
  // Header fields in arrival order, names in any case; a repeated header
  // appears once per field line.
  std::vector<std::pair<std::string_view, std::string_view>> headers;
  // The whole body when the adapter has it in memory. When absent, the
  // verifier cannot hash it: requests that declare a 64-hex
  // x-amz-content-sha256 pass with the hash left for the caller to check
  // while streaming (see VerifiedRequest::payload_sha256_to_check), and
  // requests that need the body hashed need `body_sha256_hex` instead.
  std::optional<std::string_view> body;
  // Lower-case hex SHA-256 of the body, when the adapter computed it already.
  std::optional<std::string_view> body_sha256_hex;
};

}  // namespace st::auth
