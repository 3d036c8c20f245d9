// The Glue (AWS JSON 1.1) error shape.
//
//   StatusCode                     HTTP  __type
//   kInvalidArgument, kFailedPrecondition  400  InvalidInputException
//   kNotFound                      400  EntityNotFoundException
//   kAlreadyExists                 400  AlreadyExistsException
//   kConflict                      400  ConcurrentModificationException
//   kUnsupported                   400  UnknownOperationException
//   kAccessDenied, kUnauthenticated 403 AccessDeniedException
//   kUnavailable                   503  ThrottlingException
//   others                         500  InternalServiceException
// HttpError::wire_code overrides __type; an explicit http_status picks
// InvalidInputException (4xx, AccessDeniedException for 403) or
// InternalServiceException (5xx).
#pragma once

#include "http/http_error.h"

namespace st::api::glue {

class GlueErrorWriter final : public http::ErrorWriter {
 public:
  http::Response Write(const http::Request& request, const http::HttpError& error) const override;
};

}  // namespace st::api::glue
