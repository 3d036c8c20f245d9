// CreateSchema, GetSchema, ListSchemas.
#include "api/glue/glue_json_internal.h"
#include "api/glue/operations_internal.h"
#include "common/utc_time.h"
#include "registry/glue_arns.h"

namespace st::api::glue {

namespace {

nlohmann::json SchemaJson(const registry::SchemaInfo& info) {
  return {{"RegistryName", info.registry_name},
          {"RegistryArn", info.registry_arn},
          {"SchemaName", info.schema_name},
          {"SchemaArn", info.schema_arn},
          {"Description", info.description},
          {"DataFormat", info.data_format},
          {"Compatibility", info.compatibility},
          {"SchemaCheckpoint", info.latest_version > 0 ? 1 : 0},
          {"LatestSchemaVersion", info.latest_version},
          {"NextSchemaVersion", info.latest_version + 1},
          {"SchemaStatus", info.status},
          {"CreatedTime", FormatUtcMillis(info.created_at)},
          {"UpdatedTime", FormatUtcMillis(info.updated_at)}};
}

}  // namespace

Result<std::string> SchemaResource(const Call& call) {
  ST_ASSIGN_OR_RETURN(registry::SchemaRef ref,
                      ReadSchemaId(call.body, "SchemaId", call.account_id, call.deps.region));
  return registry::SchemaArn(
      call.deps.region, ref.account_id,
      ref.registry_name.empty() ? registry::kDefaultRegistryName : ref.registry_name,
      ref.schema_name);
}

Result<std::string> CreateSchemaResource(const Call& call) {
  ST_ASSIGN_OR_RETURN(RegistryTarget target,
                      ReadRegistryId(call.body, call.account_id, call.deps.region));
  ST_ASSIGN_OR_RETURN(std::string name, RequiredString(call.body, "SchemaName"));
  return registry::SchemaArn(call.deps.region, target.account_id, target.registry_name, name);
}

Result<http::Response> CreateSchema(const Call& call) {
  ST_ASSIGN_OR_RETURN(RegistryTarget target,
                      ReadRegistryId(call.body, call.account_id, call.deps.region));
  registry::NewSchema request;
  request.schema.account_id = target.account_id;
  request.schema.registry_name = target.registry_name;
  ST_ASSIGN_OR_RETURN(request.schema.schema_name, RequiredString(call.body, "SchemaName"));
  ST_ASSIGN_OR_RETURN(request.data_format, RequiredString(call.body, "DataFormat"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> compatibility,
                      OptionalString(call.body, "Compatibility"));
  if (compatibility.has_value()) request.compatibility = *compatibility;
  ST_ASSIGN_OR_RETURN(std::optional<std::string> description,
                      OptionalString(call.body, "Description"));
  request.description = description.value_or("");
  ST_ASSIGN_OR_RETURN(request.definition, OptionalString(call.body, "SchemaDefinition"));
  ST_ASSIGN_OR_RETURN(nlohmann::json tags, ReadTags(call.body));
  ST_ASSIGN_OR_RETURN(registry::CreatedSchema created, call.deps.registry.CreateSchema(request));

  nlohmann::json out = SchemaJson(created.schema);
  out.erase("CreatedTime");
  out.erase("UpdatedTime");
  out["Tags"] = std::move(tags);
  if (created.first_version.has_value()) {
    out["SchemaVersionId"] = created.first_version->schema_version_id;
    out["SchemaVersionStatus"] = created.first_version->status;
  }
  return JsonResponse(200, out);
}

Result<http::Response> GetSchema(const Call& call) {
  ST_ASSIGN_OR_RETURN(registry::SchemaRef ref,
                      ReadSchemaId(call.body, "SchemaId", call.account_id, call.deps.region));
  ST_ASSIGN_OR_RETURN(registry::SchemaInfo info, call.deps.registry.GetSchema(ref));
  return JsonResponse(200, SchemaJson(info));
}

Result<std::string> ListSchemasResource(const Call& call) {
  if (!call.body.contains("RegistryId")) return std::string("*");
  return RegistryResource(call);
}

Result<http::Response> ListSchemas(const Call& call) {
  ST_ASSIGN_OR_RETURN(PageWindow window, ReadPageWindow(call.body));
  RegistryTarget target{call.account_id, ""};
  if (call.body.contains("RegistryId")) {
    ST_ASSIGN_OR_RETURN(target, ReadRegistryId(call.body, call.account_id, call.deps.region));
  }
  ST_ASSIGN_OR_RETURN(std::vector<registry::SchemaInfo> all,
                      call.deps.registry.ListSchemas(target.account_id, target.registry_name));
  nlohmann::json out = {{"Schemas", nlohmann::json::array()}};
  for (size_t i = window.offset; i < all.size() && i < window.offset + window.size; ++i) {
    const registry::SchemaInfo& info = all[i];
    out["Schemas"].push_back({{"RegistryName", info.registry_name},
                              {"SchemaName", info.schema_name},
                              {"SchemaArn", info.schema_arn},
                              {"Description", info.description},
                              {"SchemaStatus", info.status},
                              {"CreatedTime", FormatUtcMillis(info.created_at)},
                              {"UpdatedTime", FormatUtcMillis(info.updated_at)}});
  }
  if (window.offset + window.size < all.size()) {
    out["NextToken"] = std::to_string(window.offset + window.size);
  }
  return JsonResponse(200, out);
}

}  // namespace st::api::glue
