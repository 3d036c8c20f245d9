// The three error shapes our API surfaces speak (docs/api-contract-notes.md §1.1, §3.7,
// §4.3). Each writer maps st::StatusCode (or an explicit HTTP status) to a
// status and an exception/code name through its own ErrorTable
// (error_table.h); HttpError::wire_code overrides the name.
//
// clang-format off
//   StatusCode           S3 Tables (JSON)                  Iceberg REST (JSON)                   S3 (XML)
//   kInvalidArgument     400 BadRequestException           400 BadRequestException               400 InvalidArgument
//   kNotFound            404 NotFoundException             404 NotFoundException                 404 NoSuchKey
//   kAlreadyExists       409 ConflictException             409 AlreadyExistsException            412 PreconditionFailed
//   kConflict            409 ConflictException             409 CommitFailedException             409 ConditionalRequestConflict
//   kCommitStateUnknown  500 InternalServerErrorException  500 CommitStateUnknownException       500 InternalError
//   kFailedPrecondition  409 ConflictException             400 BadRequestException (*)           412 PreconditionFailed
//   kUnauthenticated     403 ForbiddenException            401 NotAuthorizedException            403 AccessDenied
//   kAccessDenied        403 AccessDeniedException         403 ForbiddenException                403 AccessDenied
//   kUnsupported         400 BadRequestException           406 UnsupportedOperationException     501 NotImplemented
//   kUnavailable         503 ServiceUnavailableException   503 ServiceUnavailableException       503 SlowDown
//   others               500 InternalServerErrorException  500 InternalServerError               500 InternalError
// clang-format on
//
// (*) never 409 on the Iceberg surface: Java clients retry a 409 commit as
// CommitFailedException, and a refused commit must not be retried.
#pragma once

#include "http/http_error.h"

namespace st::http {

// S3 Tables control plane: header `x-amzn-ErrorType: <Exception>`, body
// `{"__type":"<Exception>","message":"..."}`, header `x-amzn-RequestId`.
class S3TablesErrorWriter final : public ErrorWriter {
 public:
  Response Write(const Request& request, const HttpError& error) const override;
};

// Iceberg REST catalog: body `{"error":{"message","type","code"}}`, all three
// required by pyiceberg's model; `code` is the HTTP status.
class IcebergErrorWriter final : public ErrorWriter {
 public:
  Response Write(const Request& request, const HttpError& error) const override;
};

// S3 data plane: `<Error><Code/><Message/><Resource/>...<RequestId/><HostId/></Error>`,
// headers x-amz-request-id and x-amz-id-2. A HEAD error has no body.
class S3ErrorWriter final : public ErrorWriter {
 public:
  Response Write(const Request& request, const HttpError& error) const override;
};

}  // namespace st::http
