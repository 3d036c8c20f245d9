// MaintenanceJobStore on SQLite: one row per (table, job), replaced by each run.
#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

Status SqlMetadataStore::PutMaintenanceJobState(const std::string& table_id, MaintenanceJob job,
                                                const MaintenanceJobState& state) {
  if (state.deleted_data_files < 0 || state.deleted_records < 0 ||
      state.removed_files_size_bytes < 0) {
    return InvalidArgument("A maintenance job state cannot count negative removals.");
  }
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(LoadTable(table_id));
    ST_ASSIGN_OR_RETURN(
        Statement stmt,
        db_->Prepare("INSERT INTO maintenance_jobs(table_id, job, outcome, last_run_ms, "
                     "failure_message, deleted_data_files, deleted_records, removed_bytes) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(table_id, job) DO UPDATE SET "
                     "outcome = excluded.outcome, last_run_ms = excluded.last_run_ms, "
                     "failure_message = excluded.failure_message, "
                     "deleted_data_files = excluded.deleted_data_files, "
                     "deleted_records = excluded.deleted_records, "
                     "removed_bytes = excluded.removed_bytes"));
    const int64_t last_run_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(state.last_run.time_since_epoch())
            .count();
    ST_TRY(stmt.Bind(1, table_id)
               .Bind(2, std::string(MaintenanceJobName(job)))
               .Bind(3, std::string(state.outcome == JobOutcome::kSuccessful ? "successful"
                                                                             : "failed"))
               .Bind(4, last_run_ms)
               .Bind(5, state.failure_message)
               .Bind(6, state.deleted_data_files)
               .Bind(7, state.deleted_records)
               .Bind(8, state.removed_files_size_bytes)
               .Run());
    return txn.Commit();
  });
}

Result<std::map<MaintenanceJob, MaintenanceJobState>> SqlMetadataStore::GetMaintenanceJobStates(
    const std::string& table_id) {
  ConnectionLock lock(*this);
  ST_TRY(LoadTable(table_id));
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("SELECT job, outcome, last_run_ms, failure_message, deleted_data_files, "
                   "deleted_records, removed_bytes FROM maintenance_jobs WHERE table_id = ?"));
  stmt.Bind(1, table_id);
  std::map<MaintenanceJob, MaintenanceJobState> out;
  ST_TRY(stmt.ForEachRow([&](const Statement& row) {
    Result<MaintenanceJob> job = ParseMaintenanceJob(row.Text(0));
    if (!job.has_value()) return;  // Written by a newer version: not ours to report.
    MaintenanceJobState state;
    state.outcome = row.Text(1) == "successful" ? JobOutcome::kSuccessful : JobOutcome::kFailed;
    state.last_run = std::chrono::system_clock::time_point(std::chrono::milliseconds(row.Int64(2)));
    state.failure_message = row.Text(3);
    state.deleted_data_files = row.Int64(4);
    state.deleted_records = row.Int64(5);
    state.removed_files_size_bytes = row.Int64(6);
    out[*job] = std::move(state);
  }));
  return out;
}

}  // namespace st::catalog::sqlstore
