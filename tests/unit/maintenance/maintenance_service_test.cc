// The maintenance service: job state in the catalog, the principal's
// authorization, RunNow and the scheduler's pass.
#include "maintenance/maintenance_service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "maintenance/compaction.h"
#include "maintenance/maintenance_principal.h"
#include "maintenance_fixture.h"

namespace st::maintenance {
namespace {

using catalog::JobOutcome;
using catalog::MaintenanceJob;

class MaintenanceServiceTest : public MaintenanceTest {
 protected:
  std::unique_ptr<MaintenanceService> Service(MaintenanceOptions options = {}) {
    return std::make_unique<MaintenanceService>(
        MaintenanceDeps{*store_, *commits_, *objects_, kKeyRoot, authorizer_, clock_, random_,
                        logger_},
        options);
  }

  FakeAuthorizer authorizer_;
  NullLogger logger_;
};

TEST_F(MaintenanceServiceTest, RunNowExpiresRecordsSuccessAndAsksAsTheMaintenancePrincipal) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < 4; ++i) Append(table);
  clock_.Advance(std::chrono::hours(121));
  auto service = Service();
  auto state = service->RunNow(table.table_id, MaintenanceJob::kSnapshotManagement);
  ASSERT_TRUE(state.has_value()) << state.error().ToString();
  EXPECT_EQ(state->outcome, JobOutcome::kSuccessful);
  EXPECT_EQ(state->last_run, clock_.Now());
  EXPECT_EQ(Current(table).snapshots.size(), 1u);

  auto stored = store_->GetMaintenanceJobStates(table.table_id);
  ASSERT_TRUE(stored.has_value());
  ASSERT_EQ(stored->count(MaintenanceJob::kSnapshotManagement), 1u);
  EXPECT_EQ(stored->at(MaintenanceJob::kSnapshotManagement).outcome, JobOutcome::kSuccessful);
  ASSERT_FALSE(authorizer_.seen.empty());
  EXPECT_EQ(authorizer_.seen[0],
            std::string(kMaintenancePrincipal) + " s3tables:PutTableData " + table.arn);

  std::string metrics = service->MetricsText();
  EXPECT_NE(metrics.find("streamtables_maintenance_job_runs_total{table=\"" + table.arn +
                         "\",job=\"icebergSnapshotManagement\"} 1"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("streamtables_table_snapshots{table=\"" + table.arn + "\"} 1"),
            std::string::npos)
      << metrics;
}

TEST_F(MaintenanceServiceTest, AnExplicitDenyFailsTheJobAndChangesNothing) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < 3; ++i) Append(table);
  clock_.Advance(std::chrono::hours(500));
  authorizer_.mode = FakeAuthorizer::Mode::kExplicitDeny;
  auto state = Service()->RunNow(table.table_id, MaintenanceJob::kSnapshotManagement);
  ASSERT_TRUE(state.has_value()) << state.error().ToString();
  EXPECT_EQ(state->outcome, JobOutcome::kFailed);
  EXPECT_NE(state->failure_message.find(kMaintenancePrincipal), std::string::npos)
      << state->failure_message;
  EXPECT_EQ(Current(table).snapshots.size(), 3u);
  EXPECT_EQ(store_->GetMaintenanceJobStates(table.table_id)
                ->at(MaintenanceJob::kSnapshotManagement)
                .outcome,
            JobOutcome::kFailed);
}

TEST_F(MaintenanceServiceTest, DisabledAndUnknownJobsAreRefused) {
  catalog::Table table = MakeTable("t");
  auto service = Service();
  EXPECT_EQ(service->RunNow("no-such-table", MaintenanceJob::kSnapshotManagement).error().code(),
            StatusCode::kNotFound);
  ASSERT_TRUE(store_
                  ->PutTableMaintenance(table.table_id, "icebergSnapshotManagement",
                                        R"({"status":"disabled"})")
                  .ok());
  EXPECT_EQ(service->RunNow(table.table_id, MaintenanceJob::kSnapshotManagement).error().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_TRUE(store_->GetMaintenanceJobStates(table.table_id)->empty());
}

TEST_F(MaintenanceServiceTest, OnePassRunsEveryEnabledTableAndSkipsDisabledOnes) {
  catalog::Table on = MakeTable("on");
  catalog::Table off = MakeTable("off");
  for (int i = 0; i < 3; ++i) {
    Append(on);
    Append(off);
  }
  ASSERT_TRUE(store_
                  ->PutTableMaintenance(off.table_id, "icebergSnapshotManagement",
                                        R"({"status":"disabled"})")
                  .ok());
  ASSERT_TRUE(store_
                  ->PutTableMaintenance(
                      on.table_id, "icebergSnapshotManagement",
                      R"({"settings":{"icebergSnapshotManagement":{"minSnapshotsToKeep":2}}})")
                  .ok());
  clock_.Advance(std::chrono::hours(200));
  ASSERT_TRUE(Service()->RunOnce().ok());
  EXPECT_EQ(Current(on).snapshots.size(), 2u);
  EXPECT_EQ(Current(off).snapshots.size(), 3u);
  // Snapshot expiration ran where enabled; compaction (enabled by default:
  // here it fails, the fixture's files are not Parquet) and unreferenced
  // file removal (a bucket setting, enabled by default) on both.
  EXPECT_EQ(store_->GetMaintenanceJobStates(on.table_id)->size(), 3u);
  auto off_states = store_->GetMaintenanceJobStates(off.table_id);
  ASSERT_TRUE(off_states.has_value());
  EXPECT_EQ(off_states->count(MaintenanceJob::kSnapshotManagement), 0u);
  EXPECT_EQ(off_states->count(MaintenanceJob::kUnreferencedFileRemoval), 1u);
}

TEST_F(MaintenanceServiceTest, TheSchedulerRunsWhenTheInjectedClockSaysItIsDue) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < 3; ++i) Append(table);
  auto service = Service({std::chrono::hours(1), std::chrono::milliseconds(5)});
  service->Start();
  // Not due yet: real time passes, the injected clock does not.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(store_->GetMaintenanceJobStates(table.table_id)->empty());
  clock_.Advance(std::chrono::hours(200));
  for (int i = 0; i < 400 && store_->GetMaintenanceJobStates(table.table_id)->empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  service->Stop();
  EXPECT_EQ(
      store_->GetMaintenanceJobStates(table.table_id)->count(MaintenanceJob::kSnapshotManagement),
      1u);
  EXPECT_EQ(Current(table).snapshots.size(), 1u);
}

// Replicas: only the holder of the run-once lease runs the schedule; a
// replica that takes the lease over runs its first pass an interval later.
TEST_F(MaintenanceServiceTest, OnlyTheLeaseHolderRunsTheSchedule) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < 3; ++i) Append(table);
  std::atomic<bool> leads{false};
  MaintenanceService service(
      MaintenanceDeps{*store_, *commits_, *objects_, kKeyRoot, authorizer_, clock_, random_,
                      logger_, [&leads] { return leads.load(); }},
      {std::chrono::hours(1), std::chrono::milliseconds(5)});
  // A direct pass without the lease stops before the first table.
  ASSERT_TRUE(service.RunOnce().ok());
  EXPECT_TRUE(store_->GetMaintenanceJobStates(table.table_id)->empty());
  service.Start();
  clock_.Advance(std::chrono::hours(200));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(store_->GetMaintenanceJobStates(table.table_id)->empty());
  leads = true;
  clock_.Advance(std::chrono::hours(2));
  for (int i = 0; i < 400 && store_->GetMaintenanceJobStates(table.table_id)->empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  service.Stop();
  EXPECT_EQ(
      store_->GetMaintenanceJobStates(table.table_id)->count(MaintenanceJob::kSnapshotManagement),
      1u);
}

TEST_F(MaintenanceServiceTest, TheHotPassCompactsOnlyPartitionsPastTheBoundAndRecordsOnlyWork) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < kHotPartitionSmallFiles; ++i) Append(table);
  auto service = Service();
  ASSERT_TRUE(service->RunHotCompactionOnce().ok());
  // At the bound: nothing planned, nothing recorded.
  EXPECT_TRUE(store_->GetMaintenanceJobStates(table.table_id)->empty());
  Append(table);
  ASSERT_TRUE(service->RunHotCompactionOnce().ok());
  // Past it the job runs (and fails: the fixture's files are not Parquet),
  // which is recorded with the file named.
  auto states = store_->GetMaintenanceJobStates(table.table_id);
  ASSERT_EQ(states->count(MaintenanceJob::kCompaction), 1u);
  const auto& state = states->at(MaintenanceJob::kCompaction);
  EXPECT_EQ(state.outcome, JobOutcome::kFailed);
  EXPECT_NE(state.failure_message.find(".parquet"), std::string::npos) << state.failure_message;
  EXPECT_EQ(Current(table).snapshots.size(), static_cast<size_t>(kHotPartitionSmallFiles + 1));
}

TEST(OffsetClockTest, ShiftsTheBaseClock) {
  ManualClock base{std::chrono::system_clock::time_point(std::chrono::hours(10))};
  OffsetClock shifted(base, std::chrono::hours(72));
  EXPECT_EQ(shifted.Now(), base.Now() + std::chrono::hours(72));
  base.Advance(std::chrono::minutes(1));
  EXPECT_EQ(shifted.Now(), base.Now() + std::chrono::hours(72));
}

}  // namespace
}  // namespace st::maintenance
