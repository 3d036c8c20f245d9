// Iceberg REST catalog error envelope (api-contract.md §3.7).
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
    case StatusCode::kFailedPrecondition:
      return {400, "BadRequestException"};
    case StatusCode::kNotFound:
      return {404, "NotFoundException"};
    case StatusCode::kAlreadyExists:
      return {409, "AlreadyExistsException"};
    case StatusCode::kConflict:
      return {409, "CommitFailedException"};
    case StatusCode::kCommitStateUnknown:
      return {500, "CommitStateUnknownException"};
    case StatusCode::kUnauthenticated:
      return {401, "NotAuthorizedException"};
    case StatusCode::kAccessDenied:
      return {403, "ForbiddenException"};
    case StatusCode::kUnsupported:
      return {406, "UnsupportedOperationException"};
    case StatusCode::kUnavailable:
      return {503, "ServiceUnavailableException"};
    default:
      return {500, "InternalServerError"};
  }
}

const char* ByHttpStatus(int http) {
  switch (http) {
    case 400:
      return "BadRequestException";
    case 401:
      return "NotAuthorizedException";
    case 403:
      return "ForbiddenException";
    case 404:
      return "NotFoundException";
    case 405:
      return "MethodNotAllowedException";
    case 406:
      return "UnsupportedOperationException";
    case 409:
      return "AlreadyExistsException";
    case 413:
      return "RequestEntityTooLargeException";
    case 419:
      return "AuthenticationTimeoutException";
    case 422:
      return "UnprocessableEntityException";
    case 431:
      return "RequestHeaderFieldsTooLargeException";
    case 503:
      return "SlowDownException";
    default:
      return http < 500 ? "BadRequestException" : "InternalServerError";
  }
}

}  // namespace

Response IcebergErrorWriter::Write(const Request& /*request*/, const HttpError& error) const {
  Shape shape = ByStatusCode(error.status.code());
  std::string type = shape.type;
  if (error.http_status != 0) {
    shape.http = error.http_status;
    type = ByHttpStatus(error.http_status);
  }
  if (!error.wire_code.empty()) type = error.wire_code;

  nlohmann::json body = {
      {"error", {{"message", error.status.message()}, {"type", type}, {"code", shape.http}}}};
  return Response::Json(shape.http, body.dump());
}

}  // namespace st::http
