// The AWS Glue Schema Registry API subset (AWS JSON 1.1; docs/msk-channel-api-notes.md
// §14) over the embedded registry, mounted at "/glue" on the API endpoint:
// clients use endpoint_url "<api>/glue" and SigV4 signing name "glue".
//
// One route, POST / (also "/glue" without a trailing slash); the operation
// is the X-Amz-Target header "AWSGlue.<Op>":
//   CreateRegistry, GetRegistry, ListRegistries, CreateSchema, GetSchema,
//   ListSchemas, RegisterSchemaVersion, GetSchemaVersion,
//   GetSchemaByDefinition, ListSchemaVersions, PutSchemaVersionMetadata.
// Each is authorized as the IAM action "glue:<Op>" on the registry or schema
// ARN the request names (GetSchemaVersion by id: the version's schema), else
// "*". Resources belong to the caller's account unless an ARN names another.
//
// Errors: HTTP 400 {"__type": "<Exception>", "Message": "..."} with
// EntityNotFoundException (the exact messages "Schema is not found." and
// "Schema version is not found." that GSR clients match), AlreadyExistsException,
// InvalidInputException, UnknownOperationException; 403 AccessDeniedException;
// 500 InternalServiceException. Content-Type application/x-amz-json-1.1.
// PutSchemaVersionMetadata checks the version exists and stores nothing.
#pragma once

#include <string>

#include "common/clock.h"
#include "http/router.h"
#include "registry/schema_registry.h"

namespace st::api::glue {

// Everything referenced must outlive the mounted router; the registry must be
// thread-safe (SchemaRegistry is).
struct GlueDeps {
  registry::SchemaRegistry& registry;
  std::string region;  // Must equal the registry's region; ARNs of other regions are not found.
  const Clock& clock;
};

// The surface "glue" at prefix "/glue".
http::Surface MakeGlueSurface(const GlueDeps& deps);

}  // namespace st::api::glue
