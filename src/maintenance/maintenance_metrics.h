// Per table and job counters of the maintenance service, in the Prometheus
// text format of /metrics. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "catalog/maintenance_job_store.h"
#include "common/mutex.h"

namespace st::maintenance {

struct JobRunSample {
  bool failed = false;
  int64_t files_removed = 0;
  int64_t bytes_removed = 0;
  double duration_seconds = 0;
  // Compaction: input files replaced, and the bytes it read and wrote.
  int64_t files_rewritten = 0;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
};

// What a table looks like after a job (gauges); -1 leaves a gauge alone.
struct TableShapeSample {
  int64_t live_data_files = -1;
  int64_t snapshots = -1;
  int64_t metadata_file_bytes = -1;
};

class MaintenanceMetrics {
 public:
  void RecordRun(const std::string& table_arn, catalog::MaintenanceJob job,
                 const JobRunSample& sample) EXCLUDES(mu_);
  void RecordShape(const std::string& table_arn, const TableShapeSample& sample) EXCLUDES(mu_);
  // Families streamtables_maintenance_{job_runs_total, job_failures_total,
  // files_removed_total, bytes_removed_total, files_rewritten_total,
  // bytes_read_total, bytes_written_total, job_duration_seconds_total}
  // labelled {table, job}, and streamtables_table_{live_data_files,
  // snapshots, metadata_file_bytes} labelled {table}.
  std::string Text() const EXCLUDES(mu_);

 private:
  struct JobCounters {
    int64_t runs = 0;
    int64_t failures = 0;
    int64_t files_removed = 0;
    int64_t bytes_removed = 0;
    int64_t files_rewritten = 0;
    int64_t bytes_read = 0;
    int64_t bytes_written = 0;
    double duration_seconds = 0;
  };
  mutable common::Mutex mu_;
  std::map<std::pair<std::string, catalog::MaintenanceJob>, JobCounters> jobs_ GUARDED_BY(mu_);
  std::map<std::string, TableShapeSample> shapes_ GUARDED_BY(mu_);
};

}  // namespace st::maintenance
