// Iceberg REST catalog error envelope (docs/api-contract-notes.md §3.7).
#include <nlohmann/json.hpp>

#include "http/error_shapes.h"
#include "http/error_table.h"

namespace st::http {

namespace {

constexpr StatusCodeRow kIcebergByCode[] = {
    {StatusCode::kInvalidArgument, 400, "BadRequestException"},
    {StatusCode::kFailedPrecondition, 400, "BadRequestException"},
    {StatusCode::kNotFound, 404, "NotFoundException"},
    {StatusCode::kAlreadyExists, 409, "AlreadyExistsException"},
    {StatusCode::kConflict, 409, "CommitFailedException"},
    {StatusCode::kCommitStateUnknown, 500, "CommitStateUnknownException"},
    {StatusCode::kUnauthenticated, 401, "NotAuthorizedException"},
    {StatusCode::kAccessDenied, 403, "ForbiddenException"},
    {StatusCode::kUnsupported, 406, "UnsupportedOperationException"},
    {StatusCode::kUnavailable, 503, "ServiceUnavailableException"},
};

constexpr HttpStatusRow kIcebergByHttpStatus[] = {
    {400, "BadRequestException"},
    {401, "NotAuthorizedException"},
    {403, "ForbiddenException"},
    {404, "NotFoundException"},
    {405, "MethodNotAllowedException"},
    {406, "UnsupportedOperationException"},
    {409, "AlreadyExistsException"},
    {413, "RequestEntityTooLargeException"},
    {419, "AuthenticationTimeoutException"},
    {422, "UnprocessableEntityException"},
    {431, "RequestHeaderFieldsTooLargeException"},
    {503, "SlowDownException"},
};

constexpr ErrorTable kIcebergTable{kIcebergByCode, kIcebergByHttpStatus, "BadRequestException",
                                   "InternalServerError"};

}  // namespace

Response IcebergErrorWriter::Write(const Request& /*request*/, const HttpError& error) const {
  WireError wire = ResolveWireError(kIcebergTable, error);
  nlohmann::json body = {
      {"error",
       {{"message", error.status.message()}, {"type", wire.name}, {"code", wire.http_status}}}};
  return Response::Json(wire.http_status, body.dump());
}

}  // namespace st::http
