// The part every API surface's error writer shares: a table per surface that
// maps st::StatusCode (or an explicit HTTP status) to the HTTP status and the
// wire error name, and the envelope of the AWS JSON protocols (S3 Tables,
// MSK REST-JSON, Glue JSON 1.1). Each surface keeps its own table and builds
// its own body; see error_shapes.h for the tables this module serves.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/status.h"
#include "http/http_error.h"
#include "http/request.h"
#include "http/response.h"

namespace st::http {

// What one StatusCode becomes on a surface.
struct StatusCodeRow {
  StatusCode code;
  int http_status;
  std::string_view name;
};

// The wire name an explicit HttpError::http_status gets on a surface.
struct HttpStatusRow {
  int http_status;
  std::string_view name;
};

// One surface's error vocabulary. Rows are searched in order, the first match
// wins; the viewed arrays must outlive the table (constexpr arrays do).
struct ErrorTable {
  std::span<const StatusCodeRow> by_code;
  std::span<const HttpStatusRow> by_http_status;
  // The name of an explicit HTTP status below 500 that by_http_status lacks.
  std::string_view client_error;
  // The name of an explicit HTTP status of 500 or more that by_http_status
  // lacks, and of a StatusCode that by_code lacks (which is sent as 500).
  std::string_view server_error;
};

// The HTTP status and wire name an error goes out with.
struct WireError {
  int http_status = 500;
  std::string name;
};

// By error.status.code(); a non-zero error.http_status replaces the status
// and picks the name by HTTP status instead; a non-empty error.wire_code
// replaces the name. Never fails.
WireError ResolveWireError(const ErrorTable& table, const HttpError& error);

// The AWS JSON error envelope: status wire.http_status, `body` with
// Content-Type `content_type`, header `x-amzn-ErrorType: <wire.name>`, and
// `x-amzn-RequestId` when the request has an id.
Response AmznJsonErrorResponse(const Request& request, const WireError& wire, std::string body,
                               std::string_view content_type = "application/json");

}  // namespace st::http
