// POST /admin/maintenance/run: one maintenance job on one table, now.
#include "api/admin/admin_operations_internal.h"
#include "catalog/arns.h"
#include "common/utc_time.h"

namespace st::api::admin {

Reply RunMaintenanceJob(const AdminDeps& deps, http::RouteContext& context) {
  const std::string table_arn(context.request.query().Get("tableArn").value_or(""));
  ST_ASSIGN_OR_RETURN(catalog::TableArnParts parts, catalog::ParseTableArn(table_arn));
  ST_ASSIGN_OR_RETURN(
      catalog::MaintenanceJob job,
      catalog::ParseMaintenanceJob(context.request.query().Get("job").value_or("")));
  if (!deps.run_maintenance) {
    return Err(Unsupported("This server runs no maintenance service."));
  }
  // The ARN must name this very table (not one of the same id in another bucket).
  ST_ASSIGN_OR_RETURN(catalog::Table table, deps.store.GetTableById(parts.table_id));
  if (table.arn != table_arn) {
    return Err(NotFound("The table " + table_arn + " does not exist."));
  }
  ST_ASSIGN_OR_RETURN(catalog::MaintenanceJobState state,
                      deps.run_maintenance(parts.table_id, job));
  nlohmann::json body = {
      {"tableARN", table.arn},
      {"job", std::string(catalog::MaintenanceJobName(job))},
      {"status", state.outcome == catalog::JobOutcome::kSuccessful ? "Successful" : "Failed"},
      {"lastRunTimestamp", FormatUtcMillis(state.last_run)},
      {"deletedDataFiles", state.deleted_data_files},
      {"deletedRecords", state.deleted_records},
      {"removedFilesSize", state.removed_files_size_bytes}};
  if (state.outcome == catalog::JobOutcome::kFailed) body["failureMessage"] = state.failure_message;
  return JsonReply(200, body);
}

}  // namespace st::api::admin
