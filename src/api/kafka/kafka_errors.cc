#include <nlohmann/json.hpp>

#include "api/kafka/kafka_errors_internal.h"
#include "http/error_table.h"

namespace st::api::kafka {

namespace {

constexpr http::StatusCodeRow kByCode[] = {
    {StatusCode::kInvalidArgument, 400, "BadRequestException"},
    {StatusCode::kUnsupported, 400, "BadRequestException"},
    {StatusCode::kFailedPrecondition, 400, "BadRequestException"},
    {StatusCode::kNotFound, 404, "NotFoundException"},
    {StatusCode::kAlreadyExists, 409, "ConflictException"},
    {StatusCode::kConflict, 409, "ConflictException"},
    {StatusCode::kUnauthenticated, 401, "UnauthorizedException"},
    {StatusCode::kAccessDenied, 403, "ForbiddenException"},
    {StatusCode::kUnavailable, 503, "ServiceUnavailableException"},
};

constexpr http::HttpStatusRow kByHttpStatus[] = {
    {401, "UnauthorizedException"},    {403, "ForbiddenException"},
    {404, "NotFoundException"},        {409, "ConflictException"},
    {429, "TooManyRequestsException"}, {503, "ServiceUnavailableException"},
};

constexpr http::ErrorTable kTable{kByCode, kByHttpStatus, "BadRequestException",
                                  "InternalServerErrorException"};

}  // namespace

http::Response KafkaErrorWriter::Write(const http::Request& request,
                                       const http::HttpError& error) const {
  http::WireError wire = http::ResolveWireError(kTable, error);
  nlohmann::json body = {{"message", error.status.message()}};
  for (const auto& [key, value] : error.details) {
    if (key == "invalidParameter") body["invalidParameter"] = value;
  }
  return http::AmznJsonErrorResponse(request, wire, body.dump());
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

http::HttpError ParameterError(const std::string& parameter, const Status& status) {
  http::HttpError error(status);
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kAlreadyExists:
    case StatusCode::kConflict:
    case StatusCode::kAccessDenied:
    case StatusCode::kUnsupported:
    case StatusCode::kFailedPrecondition:
      if (!parameter.empty()) error.details.emplace_back("invalidParameter", parameter);
      break;
    default:
      break;
  }
  return error;
}

}  // namespace st::api::kafka
