// The Glue operations: one handler and one resource resolver each.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "api/glue/glue_surface.h"
#include "http/response.h"

namespace st::api::glue {

// One request as the operations see it.
struct Call {
  const GlueDeps& deps;
  const nlohmann::json& body;
  const std::string& account_id;  // The caller's account: the owner of named resources.
};

using OperationHandler = Result<http::Response> (*)(const Call& call);
// The ARN the operation is authorized on ("*" when the request names none).
using ResourceResolver = Result<std::string> (*)(const Call& call);

struct Operation {
  std::string_view name;  // "GetSchemaVersion": the X-Amz-Target suffix and IAM action name.
  ResourceResolver resource;
  OperationHandler handler;
};

// nullptr when unsupported.
const Operation* FindOperation(std::string_view name);
// "CreateRegistry, GetRegistry, ..." for the unknown-operation message.
std::string SupportedOperations();

// Resource resolvers shared by several operations.
Result<std::string> NoResource(const Call& call);
Result<std::string> RegistryResource(const Call& call);
Result<std::string> SchemaResource(const Call& call);

Result<http::Response> CreateRegistry(const Call& call);
Result<std::string> CreateRegistryResource(const Call& call);
Result<http::Response> GetRegistry(const Call& call);
Result<http::Response> ListRegistries(const Call& call);

Result<http::Response> CreateSchema(const Call& call);
Result<std::string> CreateSchemaResource(const Call& call);
Result<http::Response> GetSchema(const Call& call);
Result<http::Response> ListSchemas(const Call& call);
Result<std::string> ListSchemasResource(const Call& call);

Result<http::Response> RegisterSchemaVersion(const Call& call);
Result<http::Response> GetSchemaVersion(const Call& call);
Result<std::string> SchemaVersionResource(const Call& call);
Result<http::Response> GetSchemaByDefinition(const Call& call);
Result<http::Response> ListSchemaVersions(const Call& call);
Result<http::Response> PutSchemaVersionMetadata(const Call& call);

}  // namespace st::api::glue
