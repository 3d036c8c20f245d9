// Maintenance configuration (docs/api-contract-notes.md §1.5): the type is a path label,
// the body is {"value": {status?, settings?: {<type>: {...}}}}, read and
// stored through catalog/maintenance_model.h; GETs report the documented
// defaults for types never put. Job status is the last run the maintenance
// service recorded in the catalog (MaintenanceJobStore), or Not_Yet_Run;
// Disabled when the job is turned off.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "catalog/maintenance_defaults.h"
#include "catalog/maintenance_model.h"

namespace st::api::s3tables {

namespace {

// The `value` object of a Put*MaintenanceConfiguration body, read by the
// model's codec.
Result<catalog::MaintenanceConfiguration> ReadMaintenanceValue(const Ctx& context,
                                                               catalog::MaintenanceType type) {
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> value, OptionalObject(body, "value"));
  if (!value.has_value()) return Err(InvalidArgument("The required member 'value' is missing."));
  return catalog::ParseMaintenanceValue(type, value->dump());
}

// Stored values through the model; a value that does not parse (written by
// hand into the database) is left out.
std::map<catalog::MaintenanceType, catalog::MaintenanceConfiguration> Typed(
    const catalog::MaintenanceConfigs& configs) {
  std::map<catalog::MaintenanceType, catalog::MaintenanceConfiguration> out;
  for (const auto& [name, value] : configs) {
    Result<catalog::MaintenanceType> type = catalog::ParseMaintenanceType(name);
    if (!type) continue;
    Result<catalog::MaintenanceConfiguration> config = catalog::ParseMaintenanceValue(*type, value);
    if (config) out.emplace(*type, *std::move(config));
  }
  return out;
}

nlohmann::json ConfigurationJson(const catalog::MaintenanceConfigs& configs) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [type, config] : Typed(configs)) {
    out[std::string(catalog::MaintenanceTypeName(type))] =
        nlohmann::json::parse(catalog::SerializeMaintenanceValue(config));
  }
  return out;
}

nlohmann::json JobStatus(
    const catalog::MaintenanceConfigs& effective, catalog::MaintenanceType type,
    catalog::MaintenanceJob job,
    const std::map<catalog::MaintenanceJob, catalog::MaintenanceJobState>& runs) {
  auto typed = Typed(effective);
  auto it = typed.find(type);
  bool enabled = it == typed.end() || it->second.enabled();
  auto run = runs.find(job);
  return MaintenanceJobStatusJson(
      run == runs.end() ? std::nullopt : std::optional<catalog::MaintenanceJobState>(run->second),
      enabled, /*record_expiration=*/false);
}

}  // namespace

Reply GetTableBucketMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs stored,
                      deps.store.GetTableBucketMaintenance(bucket.arn));
  return JsonResponse(
      {{"tableBucketARN", bucket.arn},
       {"configuration", ConfigurationJson(catalog::EffectiveTableBucketMaintenance(stored))}});
}

Reply PutTableBucketMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  const std::string& type = context.params.Get("type");
  Result<catalog::MaintenanceType> parsed = catalog::ParseMaintenanceType(type);
  if (!parsed || catalog::IsTableMaintenance(*parsed)) {
    return Err(InvalidArgument("The table bucket maintenance type '" + type +
                               "' is not valid; use icebergUnreferencedFileRemoval."));
  }
  ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfiguration value,
                      ReadMaintenanceValue(context, *parsed));
  ST_TRY(deps.store.PutTableBucketMaintenance(bucket.arn, type,
                                              catalog::SerializeMaintenanceValue(value)));
  return http::Response::Empty(204);
}

Reply GetTableMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs stored,
                      deps.store.GetTableMaintenance(table.table_id));
  return JsonResponse(
      {{"tableARN", table.arn},
       {"configuration", ConfigurationJson(catalog::EffectiveTableMaintenance(stored))}});
}

Reply PutTableMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  const std::string& type = context.params.Get("type");
  Result<catalog::MaintenanceType> parsed = catalog::ParseMaintenanceType(type);
  if (!parsed || !catalog::IsTableMaintenance(*parsed)) {
    return Err(InvalidArgument("The table maintenance type '" + type +
                               "' is not valid; use icebergCompaction or "
                               "icebergSnapshotManagement."));
  }
  ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfiguration value,
                      ReadMaintenanceValue(context, *parsed));
  ST_TRY(deps.store.PutTableMaintenance(table.table_id, type,
                                        catalog::SerializeMaintenanceValue(value)));
  return http::Response::Empty(204);
}

Reply GetTableMaintenanceJobStatus(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs table_configs,
                      deps.store.GetTableMaintenance(table.table_id));
  ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs bucket_configs,
                      deps.store.GetTableBucketMaintenance(table.bucket_arn));
  catalog::MaintenanceConfigs table_effective =
      catalog::EffectiveTableMaintenance(std::move(table_configs));
  catalog::MaintenanceConfigs bucket_effective =
      catalog::EffectiveTableBucketMaintenance(std::move(bucket_configs));
  ST_ASSIGN_OR_RETURN(auto runs, deps.store.GetMaintenanceJobStates(table.table_id));
  using catalog::MaintenanceJob;
  using catalog::MaintenanceType;
  nlohmann::json status = {
      {catalog::kIcebergCompaction, JobStatus(table_effective, MaintenanceType::kIcebergCompaction,
                                              MaintenanceJob::kCompaction, runs)},
      {catalog::kIcebergSnapshotManagement,
       JobStatus(table_effective, MaintenanceType::kIcebergSnapshotManagement,
                 MaintenanceJob::kSnapshotManagement, runs)},
      {catalog::kIcebergUnreferencedFileRemoval,
       JobStatus(bucket_effective, MaintenanceType::kIcebergUnreferencedFileRemoval,
                 MaintenanceJob::kUnreferencedFileRemoval, runs)}};
  return JsonResponse({{"tableARN", table.arn}, {"status", status}});
}

}  // namespace st::api::s3tables
