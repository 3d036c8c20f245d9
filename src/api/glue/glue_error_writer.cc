#include <nlohmann/json.hpp>

#include "api/glue/glue_error_writer_internal.h"
#include "api/glue/glue_json_internal.h"
#include "http/error_table.h"

namespace st::api::glue {

namespace {

constexpr http::StatusCodeRow kByCode[] = {
    {StatusCode::kInvalidArgument, 400, "InvalidInputException"},
    {StatusCode::kFailedPrecondition, 400, "InvalidInputException"},
    {StatusCode::kNotFound, 400, "EntityNotFoundException"},
    {StatusCode::kAlreadyExists, 400, "AlreadyExistsException"},
    {StatusCode::kConflict, 400, "ConcurrentModificationException"},
    {StatusCode::kUnsupported, 400, "UnknownOperationException"},
    {StatusCode::kAccessDenied, 403, "AccessDeniedException"},
    {StatusCode::kUnauthenticated, 403, "AccessDeniedException"},
    {StatusCode::kUnavailable, 503, "ThrottlingException"},
};

constexpr http::HttpStatusRow kByHttpStatus[] = {
    {403, "AccessDeniedException"},
};

constexpr http::ErrorTable kTable{kByCode, kByHttpStatus, "InvalidInputException",
                                  "InternalServiceException"};

}  // namespace

http::Response GlueErrorWriter::Write(const http::Request& request,
                                      const http::HttpError& error) const {
  http::WireError wire = http::ResolveWireError(kTable, error);
  nlohmann::json body = {{"__type", wire.name}, {"Message", error.status.message()}};
  return http::AmznJsonErrorResponse(request, wire, body.dump(), kGlueContentType);
}

}  // namespace st::api::glue
