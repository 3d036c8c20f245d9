// RegisterSchemaVersion, GetSchemaVersion, GetSchemaByDefinition,
// ListSchemaVersions, PutSchemaVersionMetadata.
#include "api/glue/glue_json_internal.h"
#include "api/glue/operations_internal.h"
#include "common/utc_time.h"

namespace st::api::glue {

namespace {

// SchemaVersionId, or SchemaId + SchemaVersionNumber {LatestVersion | VersionNumber}.
Result<registry::SchemaVersion> ReadVersion(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::optional<std::string> id, OptionalString(call.body, "SchemaVersionId"));
  bool has_schema_id = call.body.contains("SchemaId") && !call.body["SchemaId"].is_null();
  if (id.has_value() == has_schema_id) {
    return Err(InvalidArgument(
        "name the version with either SchemaVersionId or SchemaId plus SchemaVersionNumber"));
  }
  if (id.has_value()) return call.deps.registry.GetSchemaVersionById(*id);
  ST_ASSIGN_OR_RETURN(registry::SchemaRef ref,
                      ReadSchemaId(call.body, "SchemaId", call.account_id, call.deps.region));
  const nlohmann::json& number = call.body.contains("SchemaVersionNumber")
                                     ? call.body["SchemaVersionNumber"]
                                     : nlohmann::json();
  if (!number.is_object()) {
    return Err(InvalidArgument(
        "SchemaVersionNumber {\"LatestVersion\": true} or {\"VersionNumber\": n} is required "
        "with SchemaId"));
  }
  bool latest = number.contains("LatestVersion") && number["LatestVersion"].is_boolean() &&
                number["LatestVersion"].get<bool>();
  ST_ASSIGN_OR_RETURN(std::optional<int64_t> version, OptionalInt(number, "VersionNumber"));
  if (latest == version.has_value()) {
    return Err(InvalidArgument(
        "SchemaVersionNumber needs exactly one of LatestVersion: true and VersionNumber"));
  }
  if (version.has_value() && (*version < 1 || *version > 100000)) {
    return Err(InvalidArgument("VersionNumber must be between 1 and 100000"));
  }
  return call.deps.registry.GetSchemaVersion(ref, version);
}

}  // namespace

Result<std::string> SchemaVersionResource(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::optional<std::string> id, OptionalString(call.body, "SchemaVersionId"));
  if (!id.has_value()) return SchemaResource(call);
  // Authorize on the version's schema; an unknown id is reported by the handler.
  Result<registry::SchemaVersion> version = call.deps.registry.GetSchemaVersionById(*id);
  if (!version.has_value()) return std::string("*");
  return version->schema_arn;
}

Result<http::Response> RegisterSchemaVersion(const Call& call) {
  ST_ASSIGN_OR_RETURN(registry::SchemaRef ref,
                      ReadSchemaId(call.body, "SchemaId", call.account_id, call.deps.region));
  ST_ASSIGN_OR_RETURN(std::string definition, RequiredString(call.body, "SchemaDefinition"));
  ST_ASSIGN_OR_RETURN(registry::SchemaVersion version,
                      call.deps.registry.RegisterSchemaVersion(ref, definition));
  return JsonResponse(200, {{"SchemaVersionId", version.schema_version_id},
                            {"VersionNumber", version.version_number},
                            {"Status", version.status}});
}

Result<http::Response> GetSchemaVersion(const Call& call) {
  ST_ASSIGN_OR_RETURN(registry::SchemaVersion version, ReadVersion(call));
  return JsonResponse(200, {{"SchemaVersionId", version.schema_version_id},
                            {"SchemaDefinition", version.definition},
                            {"DataFormat", version.data_format},
                            {"SchemaArn", version.schema_arn},
                            {"VersionNumber", version.version_number},
                            {"Status", version.status},
                            {"CreatedTime", FormatUtcMillis(version.created_at)}});
}

Result<http::Response> GetSchemaByDefinition(const Call& call) {
  ST_ASSIGN_OR_RETURN(registry::SchemaRef ref,
                      ReadSchemaId(call.body, "SchemaId", call.account_id, call.deps.region));
  ST_ASSIGN_OR_RETURN(std::string definition, RequiredString(call.body, "SchemaDefinition"));
  ST_ASSIGN_OR_RETURN(registry::SchemaVersion version,
                      call.deps.registry.GetSchemaByDefinition(ref, definition));
  return JsonResponse(200, {{"SchemaVersionId", version.schema_version_id},
                            {"SchemaArn", version.schema_arn},
                            {"DataFormat", version.data_format},
                            {"Status", version.status},
                            {"CreatedTime", FormatUtcMillis(version.created_at)}});
}

Result<http::Response> ListSchemaVersions(const Call& call) {
  ST_ASSIGN_OR_RETURN(registry::SchemaRef ref,
                      ReadSchemaId(call.body, "SchemaId", call.account_id, call.deps.region));
  ST_ASSIGN_OR_RETURN(std::optional<int64_t> max_results, OptionalInt(call.body, "MaxResults"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> token, OptionalString(call.body, "NextToken"));
  if (max_results.has_value() && (*max_results < 1 || *max_results > 100)) {
    return Err(InvalidArgument("MaxResults must be between 1 and 100"));
  }
  ST_ASSIGN_OR_RETURN(registry::SchemaVersionPage page,
                      call.deps.registry.ListSchemaVersions(
                          ref, token.value_or(""), static_cast<int>(max_results.value_or(100))));
  nlohmann::json out = {{"Schemas", nlohmann::json::array()}};
  for (const registry::SchemaVersion& version : page.versions) {
    out["Schemas"].push_back({{"SchemaArn", version.schema_arn},
                              {"SchemaVersionId", version.schema_version_id},
                              {"VersionNumber", version.version_number},
                              {"Status", version.status},
                              {"CreatedTime", FormatUtcMillis(version.created_at)}});
  }
  if (!page.next_token.empty()) out["NextToken"] = page.next_token;
  return JsonResponse(200, out);
}

Result<http::Response> PutSchemaVersionMetadata(const Call& call) {
  const nlohmann::json& pair =
      call.body.contains("MetadataKeyValue") ? call.body["MetadataKeyValue"] : nlohmann::json();
  ST_ASSIGN_OR_RETURN(std::string key, RequiredString(pair, "MetadataKey"));
  ST_ASSIGN_OR_RETURN(std::string value, RequiredString(pair, "MetadataValue"));
  ST_ASSIGN_OR_RETURN(registry::SchemaVersion version, ReadVersion(call));
  ST_ASSIGN_OR_RETURN(
      registry::SchemaVersion latest,
      call.deps.registry.GetSchemaVersion(
          {version.account_id, version.registry_name, version.schema_name}, std::nullopt));
  // Accepted and not stored: nothing in streamtables reads version metadata.
  return JsonResponse(200, {{"SchemaArn", version.schema_arn},
                            {"SchemaName", version.schema_name},
                            {"RegistryName", version.registry_name},
                            {"LatestVersion", latest.version_number == version.version_number},
                            {"VersionNumber", version.version_number},
                            {"SchemaVersionId", version.schema_version_id},
                            {"MetadataKey", key},
                            {"MetadataValue", value}});
}

}  // namespace st::api::glue
