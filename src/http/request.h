// One parsed HTTP request as route handlers see it. Library-free: the server's
// Beast adapter fills it; tests build it by hand with MakeRequest().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "http/headers.h"
#include "http/request_target.h"

namespace st::http {

struct Request {
  std::string method;      // Upper case as sent: "GET", "PUT", "HEAD", ...
  std::string raw_target;  // The request-target exactly as received.
  // raw_path, raw_query (for SigV4), decoded segments and query parameters.
  RequestTarget target;
  Headers headers;
  // The whole body, chunked transfer-coding already removed. Bounded by
  // Server::Options::max_body_bytes.
  std::string body;
  std::string remote_address;  // Peer IP address, no port ("127.0.0.1", "::1").
  uint16_t remote_port = 0;
  // Unique per request; echoed in x-amz-request-id / x-amzn-RequestId, in
  // error bodies and in every log line about the request.
  std::string request_id;

  // Filled in by the router for the access log; empty until matched.
  std::string operation;      // "GetTable"
  std::string principal_arn;  // The authenticated caller.

  const std::string& raw_path() const { return target.raw_path; }
  const std::string& raw_query() const { return target.raw_query; }
  const std::vector<std::string>& segments() const { return target.segments; }
  const QueryParams& query() const { return target.query; }
  bool is_head() const { return method == "HEAD"; }
};

// Builds a Request from a method and an origin-form target (for tests and
// internal callers). Errors: those of ParseRequestTarget.
Result<Request> MakeRequest(std::string method, std::string_view target, std::string body = "");

}  // namespace st::http
