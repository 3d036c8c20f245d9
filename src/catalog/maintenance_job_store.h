// MaintenanceJobStore: the outcome of each table's last maintenance job run
// (what GetTableMaintenanceJobStatus and GetTableRecordExpirationJobStatus
// report). One of the per-entity interfaces that MetadataStore aggregates
// (metadata_store.h states the shared contract). A job that never ran has
// no state (it reports Not_Yet_Run); deleting a table deletes its states.
//
// Thread-safety: implementations are thread-safe; every method is atomic.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace st::catalog {

// A job that runs per table. Unreferenced file removal is configured on the
// bucket but runs, and reports, per table.
enum class MaintenanceJob {
  kCompaction,               // icebergCompaction
  kSnapshotManagement,       // icebergSnapshotManagement
  kUnreferencedFileRemoval,  // icebergUnreferencedFileRemoval
  kRecordExpiration,         // The record-expiration job.
};
// "icebergCompaction", ..., "recordExpiration": the stored and CLI spelling.
std::string_view MaintenanceJobName(MaintenanceJob job);
// Errors: InvalidArgument naming the valid names.
Result<MaintenanceJob> ParseMaintenanceJob(std::string_view name);

enum class JobOutcome { kSuccessful, kFailed };

struct MaintenanceJobState {
  JobOutcome outcome = JobOutcome::kSuccessful;
  std::chrono::system_clock::time_point last_run;
  // For kFailed: what went wrong and the fix.
  std::string failure_message;
  // What the last successful run removed (record expiration reports them as
  // deletedDataFiles / deletedRecords / removedFilesSize).
  int64_t deleted_data_files = 0;
  int64_t deleted_records = 0;
  int64_t removed_files_size_bytes = 0;
};

class MaintenanceJobStore {
 public:
  virtual ~MaintenanceJobStore() = default;

  // Replaces the job's state. Errors: NotFound (table), InvalidArgument
  // (negative counts).
  virtual Status PutMaintenanceJobState(const std::string& table_id, MaintenanceJob job,
                                        const MaintenanceJobState& state) = 0;
  // Every job of the table that has run. Errors: NotFound (table).
  virtual Result<std::map<MaintenanceJob, MaintenanceJobState>> GetMaintenanceJobStates(
      const std::string& table_id) = 0;
};

}  // namespace st::catalog
