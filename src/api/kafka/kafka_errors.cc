#include <nlohmann/json.hpp>

#include "api/kafka/kafka_errors_internal.h"

namespace st::api::kafka {

namespace {

struct Shape {
  int http;
  const char* type;
};

Shape ByStatusCode(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kUnsupported:
    case StatusCode::kFailedPrecondition:
      return {400, "BadRequestException"};
    case StatusCode::kNotFound:
      return {404, "NotFoundException"};
    case StatusCode::kAlreadyExists:
    case StatusCode::kConflict:
      return {409, "ConflictException"};
    case StatusCode::kUnauthenticated:
      return {401, "UnauthorizedException"};
    case StatusCode::kAccessDenied:
      return {403, "ForbiddenException"};
    case StatusCode::kUnavailable:
      return {503, "ServiceUnavailableException"};
    default:
      return {500, "InternalServerErrorException"};
  }
}

const char* ByHttpStatus(int http) {
  switch (http) {
    case 401:
      return "UnauthorizedException";
    case 403:
      return "ForbiddenException";
    case 404:
      return "NotFoundException";
    case 409:
      return "ConflictException";
    case 429:
      return "TooManyRequestsException";
    case 503:
      return "ServiceUnavailableException";
    default:
      return http < 500 ? "BadRequestException" : "InternalServerErrorException";
  }
}

}  // namespace

http::Response KafkaErrorWriter::Write(const http::Request& request,
                                       const http::HttpError& error) const {
  Shape shape = ByStatusCode(error.status.code());
  std::string type = shape.type;
  if (error.http_status != 0) {
    shape.http = error.http_status;
    type = ByHttpStatus(error.http_status);
  }
  if (!error.wire_code.empty()) type = error.wire_code;
  nlohmann::json body = {{"message", error.status.message()}};
  for (const auto& [key, value] : error.details) {
    if (key == "invalidParameter") body["invalidParameter"] = value;
  }
  http::Response response = http::Response::Json(shape.http, body.dump());
  response.headers.Set("x-amzn-ErrorType", type);
  if (!request.request_id.empty()) response.headers.Set("x-amzn-RequestId", request.request_id);
  return response;
}

http::HttpError BadParameter(std::string parameter, std::string message) {
  http::HttpError error(InvalidArgument(std::move(message)));
  error.details.emplace_back("invalidParameter", std::move(parameter));
  return error;
}

http::HttpError NotFoundParameter(std::string parameter, std::string message) {
  http::HttpError error(NotFound(std::move(message)));
  error.details.emplace_back("invalidParameter", std::move(parameter));
  return error;
}

}  // namespace st::api::kafka
