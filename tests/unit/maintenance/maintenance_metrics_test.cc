#include "maintenance/maintenance_metrics.h"

#include <gtest/gtest.h>

namespace st::maintenance {
namespace {

TEST(MaintenanceMetricsTest, CountsRunsFailuresAndKeepsTheLatestShape) {
  MaintenanceMetrics metrics;
  const std::string arn = "arn:aws:s3tables:us-east-1:111122223333:bucket/b/table/t1";
  metrics.RecordRun(arn, catalog::MaintenanceJob::kSnapshotManagement, {false, 3, 300, 0.5});
  metrics.RecordRun(arn, catalog::MaintenanceJob::kSnapshotManagement, {true, 0, 0, 0.25});
  metrics.RecordShape(arn, {10, 4, 2048});
  metrics.RecordShape(arn, {-1, 2, -1});
  std::string text = metrics.Text();
  const std::string labels = "{table=\"" + arn + "\",job=\"icebergSnapshotManagement\"}";
  for (const std::string& line :
       {"streamtables_maintenance_job_runs_total" + labels + " 2",
        "streamtables_maintenance_job_failures_total" + labels + " 1",
        "streamtables_maintenance_files_removed_total" + labels + " 3",
        "streamtables_maintenance_bytes_removed_total" + labels + " 300",
        "streamtables_maintenance_job_duration_seconds_total" + labels + " 0.750000",
        "streamtables_table_live_data_files{table=\"" + arn + "\"} 10",
        "streamtables_table_snapshots{table=\"" + arn + "\"} 2",
        "streamtables_table_metadata_file_bytes{table=\"" + arn + "\"} 2048"}) {
    EXPECT_NE(text.find(line + "\n"), std::string::npos) << line << "\n" << text;
  }
}

}  // namespace
}  // namespace st::maintenance
