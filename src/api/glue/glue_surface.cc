// The route table: a single POST / whose AccessResolver turns X-Amz-Target
// into the IAM action glue:<Op> and the request's registry/schema ARN into the
// resource, so the router authorizes every operation before its handler.
#include "api/glue/glue_surface.h"

#include <memory>

#include "api/glue/glue_error_writer_internal.h"
#include "api/glue/glue_json_internal.h"
#include "api/glue/operations_internal.h"
#include "auth/arn.h"

namespace st::api::glue {

namespace {

constexpr std::string_view kTargetPrefix = "AWSGlue.";

Result<const Operation*> TargetOperation(const http::Request& request) {
  std::optional<std::string_view> target = request.headers.Get("X-Amz-Target");
  if (!target.has_value() || target->substr(0, kTargetPrefix.size()) != kTargetPrefix) {
    return Err(Status(StatusCode::kUnsupported,
                      "the X-Amz-Target header must be AWSGlue.<Operation>; supported: " +
                          SupportedOperations()));
  }
  std::string_view name = target->substr(kTargetPrefix.size());
  const Operation* operation = FindOperation(name);
  if (operation == nullptr) {
    return Err(Status(StatusCode::kUnsupported, "operation " + std::string(name) +
                                                    " is not supported by this Glue endpoint; "
                                                    "supported: " +
                                                    SupportedOperations()));
  }
  return operation;
}

}  // namespace

const Operation* FindOperation(std::string_view name) {
  static const Operation kOperations[] = {
      {"CreateRegistry", CreateRegistryResource, CreateRegistry},
      {"GetRegistry", RegistryResource, GetRegistry},
      {"ListRegistries", NoResource, ListRegistries},
      {"CreateSchema", CreateSchemaResource, CreateSchema},
      {"GetSchema", SchemaResource, GetSchema},
      {"ListSchemas", ListSchemasResource, ListSchemas},
      {"RegisterSchemaVersion", SchemaResource, RegisterSchemaVersion},
      {"GetSchemaVersion", SchemaVersionResource, GetSchemaVersion},
      {"GetSchemaByDefinition", SchemaResource, GetSchemaByDefinition},
      {"ListSchemaVersions", SchemaResource, ListSchemaVersions},
      {"PutSchemaVersionMetadata", SchemaVersionResource, PutSchemaVersionMetadata},
  };
  for (const Operation& operation : kOperations) {
    if (operation.name == name) return &operation;
  }
  return nullptr;
}

std::string SupportedOperations() {
  return "CreateRegistry, GetRegistry, ListRegistries, CreateSchema, GetSchema, ListSchemas, "
         "RegisterSchemaVersion, GetSchemaVersion, GetSchemaByDefinition, ListSchemaVersions, "
         "PutSchemaVersionMetadata";
}

http::Surface MakeGlueSurface(const GlueDeps& deps_in) {
  auto deps = std::make_shared<const GlueDeps>(deps_in);
  http::AccessResolver resolve = [deps](const http::Request& request, const http::PathParams&,
                                        auth::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(const Operation* operation, TargetOperation(request));
    access.action = "glue:" + std::string(operation->name);
    ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseBody(request));
    // The router has authenticated the caller and recorded its ARN.
    std::string account_id = auth::ArnAccount(request.principal_arn);
    ST_ASSIGN_OR_RETURN(access.resource, operation->resource(Call{*deps, body, account_id}));
    return Status::OK();
  };
  http::RouteHandler handler = [deps](http::RouteContext& context) -> Result<http::Response> {
    ST_ASSIGN_OR_RETURN(const Operation* operation, TargetOperation(context.request));
    context.request.operation = std::string(operation->name);
    ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseBody(context.request));
    return operation->handler(Call{*deps, body, context.principal.account_id});
  };
  std::vector<http::Route> routes;
  routes.push_back(
      http::Route{"POST", "/", {}, "AWSGlue", http::Requires("glue:*", resolve), handler});
  return http::Surface{"glue", "/glue", std::make_shared<GlueErrorWriter>(), std::move(routes)};
}

}  // namespace st::api::glue
