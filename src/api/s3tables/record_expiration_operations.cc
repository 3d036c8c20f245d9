// Record expiration (docs/api-contract-notes.md §1.4/§1.5): PUT/GET
// /table-record-expiration?tableArn= with {"value": {status, settings:
// {days}}}, and the job status: the last run the maintenance service
// recorded (NotYetRun before the first), Disabled when unset or disabled.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "catalog/maintenance_model.h"

namespace st::api::s3tables {

namespace {

// The stored configuration through the model; unset reads as disabled.
Result<catalog::RecordExpirationConfiguration> StoredConfiguration(const S3TablesDeps& deps,
                                                                   const catalog::Table& table) {
  ST_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      deps.store.GetTableRecordExpiration(table.table_id));
  if (!stored.has_value()) {
    catalog::RecordExpirationConfiguration unset;
    unset.status = catalog::MaintenanceStatus::kDisabled;
    return unset;
  }
  Result<catalog::RecordExpirationConfiguration> parsed =
      catalog::ParseRecordExpirationValue(*stored);
  if (!parsed) {
    return Err(Corruption("The stored record expiration of " + table.arn +
                          " does not parse: " + parsed.error().message()));
  }
  return parsed;
}

}  // namespace

Reply GetTableRecordExpirationConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromArnQuery(deps, context));
  ST_ASSIGN_OR_RETURN(catalog::RecordExpirationConfiguration configuration,
                      StoredConfiguration(deps, table));
  return JsonResponse(
      {{"configuration",
        nlohmann::json::parse(catalog::SerializeRecordExpirationValue(configuration))}});
}

Reply PutTableRecordExpirationConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromArnQuery(deps, context));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> value, OptionalObject(body, "value"));
  if (!value.has_value()) return Err(InvalidArgument("The required member 'value' is missing."));
  ST_ASSIGN_OR_RETURN(catalog::RecordExpirationConfiguration configuration,
                      catalog::ParseRecordExpirationValue(value->dump()));
  ST_TRY(deps.store.PutTableRecordExpiration(
      table.table_id, catalog::SerializeRecordExpirationValue(configuration)));
  return http::Response::Empty(204);
}

Reply GetTableRecordExpirationJobStatus(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromArnQuery(deps, context));
  ST_ASSIGN_OR_RETURN(catalog::RecordExpirationConfiguration configuration,
                      StoredConfiguration(deps, table));
  ST_ASSIGN_OR_RETURN(auto runs, deps.store.GetMaintenanceJobStates(table.table_id));
  auto run = runs.find(catalog::MaintenanceJob::kRecordExpiration);
  return JsonResponse(MaintenanceJobStatusJson(
      run == runs.end() ? std::nullopt : std::optional<catalog::MaintenanceJobState>(run->second),
      configuration.enabled(), /*record_expiration=*/true));
}

}  // namespace st::api::s3tables
