// S3 Tables control-plane error shape (docs/api-contract-notes.md §1.1).
#include <nlohmann/json.hpp>

#include "http/error_shapes.h"
#include "http/error_table.h"

namespace st::http {

namespace {

constexpr StatusCodeRow kByCode[] = {
    {StatusCode::kInvalidArgument, 400, "BadRequestException"},
    {StatusCode::kUnsupported, 400, "BadRequestException"},
    {StatusCode::kNotFound, 404, "NotFoundException"},
    {StatusCode::kAlreadyExists, 409, "ConflictException"},
    {StatusCode::kConflict, 409, "ConflictException"},
    {StatusCode::kFailedPrecondition, 409, "ConflictException"},
    {StatusCode::kUnauthenticated, 403, "ForbiddenException"},
    {StatusCode::kAccessDenied, 403, "AccessDeniedException"},
    {StatusCode::kUnavailable, 503, "ServiceUnavailableException"},
};

constexpr HttpStatusRow kByHttpStatus[] = {
    {400, "BadRequestException"},
    {401, "ForbiddenException"},
    {403, "ForbiddenException"},
    {404, "NotFoundException"},
    {405, "MethodNotAllowedException"},
    {409, "ConflictException"},
    {413, "RequestEntityTooLargeException"},
    {429, "TooManyRequestsException"},
    {431, "RequestHeaderFieldsTooLargeException"},
    {503, "ServiceUnavailableException"},
};

constexpr ErrorTable kTable{kByCode, kByHttpStatus, "BadRequestException",
                            "InternalServerErrorException"};

}  // namespace

Response S3TablesErrorWriter::Write(const Request& request, const HttpError& error) const {
  WireError wire = ResolveWireError(kTable, error);
  nlohmann::json body = {{"__type", wire.name}, {"message", error.status.message()}};
  return AmznJsonErrorResponse(request, wire, body.dump());
}

}  // namespace st::http
