// MaintenanceJobStore conformance (maintenance_job_store.h).
#pragma once

#include "catalog/maintenance_job_store.h"
#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

class MaintenanceJobStoreConformance : public StoreConformance {
 protected:
  MaintenanceJobStore& jobs() { return *store_; }
};

TEST_P(MaintenanceJobStoreConformance, NeverRunIsEmptyThenEachRunReplacesItsJob) {
  Table table = MakeTable();
  auto none = jobs().GetMaintenanceJobStates(table.table_id);
  ASSERT_TRUE(none.has_value()) << none.error().ToString();
  EXPECT_TRUE(none->empty());

  MaintenanceJobState ok;
  ok.last_run = std::chrono::system_clock::time_point(std::chrono::milliseconds(1733250000123));
  ok.deleted_data_files = 3;
  ok.deleted_records = 30;
  ok.removed_files_size_bytes = 4096;
  ASSERT_TRUE(
      jobs().PutMaintenanceJobState(table.table_id, MaintenanceJob::kRecordExpiration, ok).ok());
  MaintenanceJobState failed;
  failed.outcome = JobOutcome::kFailed;
  failed.last_run = ok.last_run + std::chrono::seconds(5);
  failed.failure_message = "the manifest list is gone";
  ASSERT_TRUE(
      jobs()
          .PutMaintenanceJobState(table.table_id, MaintenanceJob::kSnapshotManagement, failed)
          .ok());

  auto got = jobs().GetMaintenanceJobStates(table.table_id);
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->size(), 2u);
  const MaintenanceJobState& expiration = got->at(MaintenanceJob::kRecordExpiration);
  EXPECT_EQ(expiration.outcome, JobOutcome::kSuccessful);
  EXPECT_EQ(expiration.last_run, ok.last_run);
  EXPECT_EQ(expiration.deleted_data_files, 3);
  EXPECT_EQ(expiration.deleted_records, 30);
  EXPECT_EQ(expiration.removed_files_size_bytes, 4096);
  const MaintenanceJobState& snapshots = got->at(MaintenanceJob::kSnapshotManagement);
  EXPECT_EQ(snapshots.outcome, JobOutcome::kFailed);
  EXPECT_EQ(snapshots.failure_message, "the manifest list is gone");

  // A later run replaces the earlier one.
  MaintenanceJobState again;
  again.last_run = failed.last_run + std::chrono::hours(1);
  ASSERT_TRUE(
      jobs()
          .PutMaintenanceJobState(table.table_id, MaintenanceJob::kSnapshotManagement, again)
          .ok());
  got = jobs().GetMaintenanceJobStates(table.table_id);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->at(MaintenanceJob::kSnapshotManagement).outcome, JobOutcome::kSuccessful);
  EXPECT_EQ(got->at(MaintenanceJob::kSnapshotManagement).failure_message, "");
  EXPECT_EQ(got->at(MaintenanceJob::kSnapshotManagement).last_run, again.last_run);
}

TEST_P(MaintenanceJobStoreConformance, UnknownTableAndBadCountsAreRefused) {
  MaintenanceJobState state;
  EXPECT_EQ(
      jobs().PutMaintenanceJobState("no-such-table", MaintenanceJob::kCompaction, state).code(),
      StatusCode::kNotFound);
  EXPECT_EQ(jobs().GetMaintenanceJobStates("no-such-table").error().code(), StatusCode::kNotFound);
  Table table = MakeTable();
  state.deleted_records = -1;
  EXPECT_EQ(
      jobs().PutMaintenanceJobState(table.table_id, MaintenanceJob::kCompaction, state).code(),
      StatusCode::kInvalidArgument);
}

TEST_P(MaintenanceJobStoreConformance, DeletingTheTableDeletesItsStates) {
  Table table = MakeTable();
  ASSERT_TRUE(jobs()
                  .PutMaintenanceJobState(table.table_id, MaintenanceJob::kCompaction,
                                          MaintenanceJobState{})
                  .ok());
  ASSERT_TRUE(store_->DeleteTable(table.table_id, std::nullopt).ok());
  Table again = MakeTable();  // Same name, new id: starts with no history.
  auto got = jobs().GetMaintenanceJobStates(again.table_id);
  ASSERT_TRUE(got.has_value());
  EXPECT_TRUE(got->empty());
}

TEST(MaintenanceJobNames, RoundTripAndUnknownIsInvalid) {
  for (MaintenanceJob job :
       {MaintenanceJob::kCompaction, MaintenanceJob::kSnapshotManagement,
        MaintenanceJob::kUnreferencedFileRemoval, MaintenanceJob::kRecordExpiration}) {
    auto parsed = ParseMaintenanceJob(MaintenanceJobName(job));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, job);
  }
  EXPECT_EQ(ParseMaintenanceJob("vacuum").error().code(), StatusCode::kInvalidArgument);
}

}  // namespace st::catalog::conformance
