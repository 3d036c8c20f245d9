// S3 Tables control-plane error shape (api-contract.md §1.1).
#include <nlohmann/json.hpp>

#include "http/error_shapes.h"

namespace st::http {

namespace {

struct Shape {
  int http;
  const char* type;
};

Shape ByStatusCode(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kUnsupported:
      return {400, "BadRequestException"};
    case StatusCode::kNotFound:
      return {404, "NotFoundException"};
    case StatusCode::kAlreadyExists:
    case StatusCode::kConflict:
    case StatusCode::kFailedPrecondition:
      return {409, "ConflictException"};
    case StatusCode::kUnauthenticated:
      return {403, "ForbiddenException"};
    case StatusCode::kAccessDenied:
      return {403, "AccessDeniedException"};
    case StatusCode::kUnavailable:
      return {503, "ServiceUnavailableException"};
    default:
      return {500, "InternalServerErrorException"};
  }
}

const char* ByHttpStatus(int http) {
  switch (http) {
    case 400:
      return "BadRequestException";
    case 401:
    case 403:
      return "ForbiddenException";
    case 404:
      return "NotFoundException";
    case 405:
      return "MethodNotAllowedException";
    case 409:
      return "ConflictException";
    case 413:
      return "RequestEntityTooLargeException";
    case 429:
      return "TooManyRequestsException";
    case 431:
      return "RequestHeaderFieldsTooLargeException";
    case 503:
      return "ServiceUnavailableException";
    default:
      return http < 500 ? "BadRequestException" : "InternalServerErrorException";
  }
}

}  // namespace

Response S3TablesErrorWriter::Write(const Request& request, const HttpError& error) const {
  Shape shape = ByStatusCode(error.status.code());
  std::string type = shape.type;
  if (error.http_status != 0) {
    shape.http = error.http_status;
    type = ByHttpStatus(error.http_status);
  }
  if (!error.wire_code.empty()) type = error.wire_code;

  nlohmann::json body = {{"__type", type}, {"message", error.status.message()}};
  Response response = Response::Json(shape.http, body.dump());
  response.headers.Set("x-amzn-ErrorType", type);
  if (!request.request_id.empty()) response.headers.Set("x-amzn-RequestId", request.request_id);
  return response;
}

}  // namespace st::http
