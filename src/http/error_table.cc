#include "http/error_table.h"

namespace st::http {

WireError ResolveWireError(const ErrorTable& table, const HttpError& error) {
  WireError wire{500, std::string(table.server_error)};
  if (error.http_status != 0) {
    wire.http_status = error.http_status;
    wire.name = error.http_status < 500 ? table.client_error : table.server_error;
    for (const HttpStatusRow& row : table.by_http_status) {
      if (row.http_status == error.http_status) {
        wire.name = row.name;
        break;
      }
    }
  } else {
    for (const StatusCodeRow& row : table.by_code) {
      if (row.code == error.status.code()) {
        wire = {row.http_status, std::string(row.name)};
        break;
      }
    }
  }
  if (!error.wire_code.empty()) wire.name = error.wire_code;
  return wire;
}

Response AmznJsonErrorResponse(const Request& request, const WireError& wire, std::string body,
                               std::string_view content_type) {
  Response response;
  response.status = wire.http_status;
  response.body = std::move(body);
  response.headers.Set("Content-Type", std::string(content_type));
  response.headers.Set("x-amzn-ErrorType", wire.name);
  if (!request.request_id.empty()) response.headers.Set("x-amzn-RequestId", request.request_id);
  return response;
}

}  // namespace st::http
