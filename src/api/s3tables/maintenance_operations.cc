// Maintenance configuration (api-contract.md §1.5): the type is a path label,
// the body is {"value": {status?, settings?: {<type>: {...}}}}; GETs report
// the documented defaults for types never put. Maintenance jobs do not run
// yet, so every job reports Not_Yet_Run (or Disabled when turned off).
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "catalog/maintenance_defaults.h"

namespace st::api::s3tables {

namespace {

struct IntSetting {
  const char* name;
  int64_t min;
  int64_t max;
};

// The normalized `value` document for `type`, with only the model's members.
Result<nlohmann::json> ReadMaintenanceValue(const Ctx& context, const std::string& type,
                                            const std::vector<IntSetting>& ints,
                                            const std::vector<std::string>& strategies) {
  ST_ASSIGN_OR_RETURN(ConfigurationValue value, ReadConfigurationValue(context.request));
  nlohmann::json out = nlohmann::json::object();
  if (value.status.has_value()) out["status"] = *value.status;
  const std::optional<nlohmann::json>& settings = value.settings;
  if (!settings.has_value()) return out;
  for (const auto& [key, unused] : settings->items()) {
    if (key != type) {
      return Err(InvalidArgument("value.settings may only hold '" + type + "' for the " + type +
                                 " configuration, not '" + key + "'."));
    }
  }
  std::string where = "value.settings." + type + ".";
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> typed,
                      OptionalObject(*settings, type, "value.settings."));
  nlohmann::json typed_out = nlohmann::json::object();
  if (typed.has_value()) {
    for (const IntSetting& setting : ints) {
      ST_ASSIGN_OR_RETURN(std::optional<int64_t> number, OptionalInt(*typed, setting.name, where));
      if (!number.has_value()) continue;
      if (*number < setting.min || *number > setting.max) {
        return Err(InvalidArgument("The member '" + where + setting.name + "' must be from " +
                                   std::to_string(setting.min) + " to " +
                                   std::to_string(setting.max) + ", not " +
                                   std::to_string(*number) + "."));
      }
      typed_out[setting.name] = *number;
    }
    if (!strategies.empty()) {
      ST_ASSIGN_OR_RETURN(std::optional<std::string> strategy,
                          OptionalString(*typed, "strategy", where));
      if (strategy.has_value()) {
        if (std::find(strategies.begin(), strategies.end(), *strategy) == strategies.end()) {
          return Err(InvalidArgument("The strategy '" + *strategy +
                                     "' is not valid; use auto, binpack, sort or z-order."));
        }
        typed_out["strategy"] = *strategy;
      }
    }
  }
  out["settings"] = {{type, typed_out}};
  return out;
}

nlohmann::json ConfigurationJson(const catalog::MaintenanceConfigs& configs) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [type, value] : configs) {
    nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
    if (!parsed.is_discarded()) out[type] = parsed;
  }
  return out;
}

nlohmann::json JobStatus(const catalog::MaintenanceConfigs& effective, const std::string& type) {
  auto it = effective.find(type);
  if (it != effective.end()) {
    nlohmann::json value = nlohmann::json::parse(it->second, nullptr, false);
    if (value.is_object() && value.value("status", "enabled") == "disabled") {
      return {{"status", "Disabled"}};
    }
  }
  return {{"status", "Not_Yet_Run"}};
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
  if (type != catalog::kIcebergUnreferencedFileRemoval) {
    return Err(InvalidArgument("The table bucket maintenance type '" + type +
                               "' is not valid; use icebergUnreferencedFileRemoval."));
  }
  ST_ASSIGN_OR_RETURN(
      nlohmann::json value,
      ReadMaintenanceValue(context, type,
                           {{"unreferencedDays", 1, INT32_MAX}, {"nonCurrentDays", 1, INT32_MAX}},
                           {}));
  ST_TRY(deps.store.PutTableBucketMaintenance(bucket.arn, type, value.dump()));
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
  Result<nlohmann::json> value = Err(Internal("unset"));
  if (type == catalog::kIcebergCompaction) {
    // The documented range of compaction target sizes is 64–512 MB.
    value = ReadMaintenanceValue(context, type, {{"targetFileSizeMB", 64, 512}},
                                 {"auto", "binpack", "sort", "z-order"});
  } else if (type == catalog::kIcebergSnapshotManagement) {
    value = ReadMaintenanceValue(
        context, type,
        {{"minSnapshotsToKeep", 1, INT32_MAX}, {"maxSnapshotAgeHours", 1, INT32_MAX}}, {});
  } else {
    return Err(InvalidArgument("The table maintenance type '" + type +
                               "' is not valid; use icebergCompaction or "
                               "icebergSnapshotManagement."));
  }
  if (!value.has_value()) return Err(value.error());
  ST_TRY(deps.store.PutTableMaintenance(table.table_id, type, value->dump()));
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
  nlohmann::json status = {
      {catalog::kIcebergCompaction, JobStatus(table_effective, catalog::kIcebergCompaction)},
      {catalog::kIcebergSnapshotManagement,
       JobStatus(table_effective, catalog::kIcebergSnapshotManagement)},
      {catalog::kIcebergUnreferencedFileRemoval,
       JobStatus(bucket_effective, catalog::kIcebergUnreferencedFileRemoval)}};
  return JsonResponse({{"tableARN", table.arn}, {"status", status}});
}

}  // namespace st::api::s3tables
