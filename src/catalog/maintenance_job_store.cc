#include "catalog/maintenance_job_store.h"

#include <array>
#include <utility>

namespace st::catalog {

namespace {

constexpr std::array<std::pair<MaintenanceJob, std::string_view>, 4> kJobNames = {{
    {MaintenanceJob::kCompaction, "icebergCompaction"},
    {MaintenanceJob::kSnapshotManagement, "icebergSnapshotManagement"},
    {MaintenanceJob::kUnreferencedFileRemoval, "icebergUnreferencedFileRemoval"},
    {MaintenanceJob::kRecordExpiration, "recordExpiration"},
}};

}  // namespace

std::string_view MaintenanceJobName(MaintenanceJob job) {
  for (const auto& [value, name] : kJobNames) {
    if (value == job) return name;
  }
  return "unknown";
}

Result<MaintenanceJob> ParseMaintenanceJob(std::string_view name) {
  for (const auto& [value, known] : kJobNames) {
    if (known == name) return value;
  }
  return Err(InvalidArgument("'" + std::string(name) +
                             "' is not a maintenance job; use icebergCompaction, "
                             "icebergSnapshotManagement, icebergUnreferencedFileRemoval or "
                             "recordExpiration."));
}

}  // namespace st::catalog
