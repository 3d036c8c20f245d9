// The MSK (Kafka) REST-JSON error shape (docs/msk-channel-api-notes.md §1): header
// `x-amzn-ErrorType: <Exception>`, header `x-amzn-RequestId`, body
// {"message": "...", "invalidParameter": "<camelCase member>"}.
#pragma once

#include <string>

#include "http/http_error.h"

namespace st::api::kafka {

// StatusCode → 400 BadRequestException (InvalidArgument, Unsupported,
// FailedPrecondition), 404 NotFoundException, 409 ConflictException
// (AlreadyExists, Conflict), 401 UnauthorizedException (Unauthenticated),
// 403 ForbiddenException (AccessDenied), 503 ServiceUnavailableException,
// else 500 InternalServerErrorException. HttpError::wire_code overrides the
// name; a detail {"invalidParameter", name} fills that body member.
class KafkaErrorWriter final : public http::ErrorWriter {
 public:
  http::Response Write(const http::Request& request, const http::HttpError& error) const override;
};

// 400 BadRequestException naming the offending wire member.
http::HttpError BadParameter(std::string parameter, std::string message);
// 404 NotFoundException naming the path label or member.
http::HttpError NotFoundParameter(std::string parameter, std::string message);
// `status` about `parameter`: invalidParameter is filled for a client's
// error (invalid argument, not found, already exists, conflict, access
// denied, unsupported, failed precondition), left out for the server's own.
http::HttpError ParameterError(const std::string& parameter, const Status& status);

}  // namespace st::api::kafka
