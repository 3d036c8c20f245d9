// Record expiration (docs/api-contract-notes.md §1.4/§1.5): PUT/GET
// /table-record-expiration?tableArn= with {"value": {status, settings:
// {days}}}, and the job status. Expiration does not run yet: an enabled
// configuration reports NotYetRun, a disabled or unset one Disabled.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/wire_json_internal.h"

namespace st::api::s3tables {

namespace {

// What a table without a stored configuration reports.
const char* const kUnsetRecordExpiration = R"({"status":"disabled"})";

Result<nlohmann::json> StoredConfiguration(const S3TablesDeps& deps, const catalog::Table& table) {
  ST_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      deps.store.GetTableRecordExpiration(table.table_id));
  nlohmann::json parsed =
      nlohmann::json::parse(stored.value_or(kUnsetRecordExpiration), nullptr, false);
  if (parsed.is_discarded())
    return Err(Corruption("The stored record expiration of " + table.arn + " is not JSON."));
  return parsed;
}

}  // namespace

Reply GetTableRecordExpirationConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromArnQuery(deps, context));
  ST_ASSIGN_OR_RETURN(nlohmann::json configuration, StoredConfiguration(deps, table));
  return JsonResponse({{"configuration", configuration}});
}

Reply PutTableRecordExpirationConfiguration(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromArnQuery(deps, context));
  ST_ASSIGN_OR_RETURN(ConfigurationValue value, ReadConfigurationValue(context.request));
  nlohmann::json out = nlohmann::json::object();
  if (value.status.has_value()) out["status"] = *value.status;
  const std::optional<nlohmann::json>& settings = value.settings;
  if (settings.has_value()) {
    ST_ASSIGN_OR_RETURN(std::optional<int64_t> days,
                        OptionalInt(*settings, "days", "value.settings."));
    nlohmann::json settings_out = nlohmann::json::object();
    if (days.has_value()) {
      if (*days < 1) {
        return Err(InvalidArgument("The member 'value.settings.days' must be at least 1."));
      }
      settings_out["days"] = *days;
    }
    out["settings"] = settings_out;
  }
  ST_TRY(deps.store.PutTableRecordExpiration(table.table_id, out.dump()));
  return http::Response::Empty(204);
}

Reply GetTableRecordExpirationJobStatus(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromArnQuery(deps, context));
  ST_ASSIGN_OR_RETURN(nlohmann::json configuration, StoredConfiguration(deps, table));
  bool enabled = configuration.value("status", "disabled") == "enabled";
  return JsonResponse({{"status", enabled ? "NotYetRun" : "Disabled"}});
}

}  // namespace st::api::s3tables
