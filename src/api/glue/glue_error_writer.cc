#include <nlohmann/json.hpp>

#include "api/glue/glue_error_writer_internal.h"
#include "api/glue/glue_json_internal.h"

namespace st::api::glue {

namespace {

struct Shape {
  int http;
  const char* type;
};

Shape ByStatusCode(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kFailedPrecondition:
      return {400, "InvalidInputException"};
    case StatusCode::kNotFound:
      return {400, "EntityNotFoundException"};
    case StatusCode::kAlreadyExists:
      return {400, "AlreadyExistsException"};
    case StatusCode::kConflict:
      return {400, "ConcurrentModificationException"};
    case StatusCode::kUnsupported:
      return {400, "UnknownOperationException"};
    case StatusCode::kAccessDenied:
    case StatusCode::kUnauthenticated:
      return {403, "AccessDeniedException"};
    case StatusCode::kUnavailable:
      return {503, "ThrottlingException"};
    default:
      return {500, "InternalServiceException"};
  }
}

}  // namespace

http::Response GlueErrorWriter::Write(const http::Request& request,
                                      const http::HttpError& error) const {
  Shape shape = ByStatusCode(error.status.code());
  std::string type = shape.type;
  if (error.http_status != 0) {
    shape.http = error.http_status;
    type = error.http_status == 403  ? "AccessDeniedException"
           : error.http_status < 500 ? "InvalidInputException"
                                     : "InternalServiceException";
  }
  if (!error.wire_code.empty()) type = error.wire_code;
  nlohmann::json body = {{"__type", type}, {"Message", error.status.message()}};
  http::Response response = JsonResponse(shape.http, body);
  response.headers.Set("x-amzn-ErrorType", type);
  if (!request.request_id.empty()) response.headers.Set("x-amzn-RequestId", request.request_id);
  return response;
}

}  // namespace st::api::glue
