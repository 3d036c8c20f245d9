// A minimal blocking HTTP/1.1 client for the service commands (one request
// per connection). Boost.Beast stays inside service_http.cc.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace st::cli {

struct HttpCall {
  std::string host;  // "127.0.0.1"
  std::string port;  // "8181"
  std::string method;
  std::string target;  // Origin form, already percent-encoded: "/buckets?prefix=a".
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct HttpReply {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // The first value of `name` (case-insensitive), "" when absent.
  std::string Header(std::string_view name) const;
};

// Errors: kUnavailable when the server cannot be reached (names host:port and
// says to start the server), kIo for a broken exchange.
Result<HttpReply> SendHttp(const HttpCall& call);

// Splits "http://host:port[/base]" into its parts. Errors: kInvalidArgument
// (no http:// scheme; https is not spoken by this client).
struct EndpointParts {
  std::string host;
  std::string port;
  std::string base_path;  // "" or "/prefix" without trailing '/'.
};
Result<EndpointParts> ParseEndpoint(std::string_view url);

}  // namespace st::cli
