// The maintenance service of `streamtables server`: one scheduler thread
// that, every `interval` of the injected clock, runs each table's enabled
// jobs as the maintenance principal, records each run's outcome in the
// catalog (MaintenanceJobStore) and counts it for /metrics. RunNow runs one
// job on one table at once (the admin route and CLI).
//
// Jobs run one at a time (a mutex serialises the scheduler and RunNow), so
// two expirations of one table never race each other; against delivery they
// race only through the commit engine's compare-and-swap, which re-applies
// the maintenance commit on the newer base, so delivery never waits for
// more than one of its own commit retries.
//
// Jobs: icebergCompaction (compaction.h), icebergSnapshotManagement
// (snapshot_expiration.h), icebergUnreferencedFileRemoval
// (unreferenced_files.h) and record expiration (record_expiration.h).
//
// Besides the full pass, a hot-partition pass every `hot_compaction_interval`
// runs compaction alone with kHotPartitionSmallFiles: a partition is
// compacted once it holds more than that many small files, so a streaming
// table's current hour never holds more than that bound plus the files
// appended during one pass. It records the job's state only when it
// rewrote something or failed (an idle table is not written to every
// minute).
//
// Among replicas on one catalog, only the holder of the run-once lease
// (MaintenanceDeps::is_leader) runs the scheduled passes.
//
// Thread-safety: every public method is thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "auth/authorizer.h"
#include "catalog/maintenance_job_store.h"
#include "catalog/metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/logger.h"
#include "common/mutex.h"
#include "common/random.h"
#include "common/status.h"
#include "maintenance/compaction.h"
#include "maintenance/maintenance_metrics.h"
#include "storage/object_store.h"

namespace st::maintenance {

// References outlive the service.
struct MaintenanceDeps {
  catalog::MetadataStore& store;
  catalog::TableCommits& commits;
  storage::ObjectStore& objects;
  std::string key_root;  // As TableCommitsOptions::key_root.
  const auth::Authorizer& authorizer;
  // Job timestamps, snapshot and file ages, and the schedule; the server's
  // test-only clock offset shifts only this clock.
  const Clock& clock;
  Random& random;  // Snapshot ids and file names of record expiration's commits.
  Logger& logger;
  // Whether this replica holds the run-once lease (server/lease_keeper.h):
  // among replicas sharing a catalog only the holder runs the schedule, and
  // a pass stops between tables once the lease is lost. Empty: always (one
  // process on SQLite, and tests). RunNow runs on any replica.
  std::function<bool()> is_leader = {};
};

struct MaintenanceOptions {
  // How often every table's enabled jobs run. S3 Tables runs maintenance a
  // few times a day; an hour keeps streaming tables' snapshot count near
  // what an hour of commits adds.
  std::chrono::milliseconds interval = std::chrono::hours(1);
  // How often the scheduler looks at the clock (an offset clock can jump).
  std::chrono::milliseconds tick = std::chrono::seconds(1);
  // How often the hot-partition compaction pass runs; zero turns it off. A
  // minute bounds a freshness-1 s table's current partition to about 8 + 60
  // small files while rewriting only partitions past the bound.
  std::chrono::milliseconds hot_compaction_interval = std::chrono::seconds(60);
  // CompactionOptions::memory_budget_bytes of every compaction run; also the
  // budget of record expiration's rewrite of straddling files.
  int64_t compaction_memory_budget_bytes = kDefaultCompactionMemoryBudgetBytes;
};

class MaintenanceService {
 public:
  MaintenanceService(MaintenanceDeps deps, MaintenanceOptions options);
  ~MaintenanceService();  // Stops the scheduler.
  MaintenanceService(const MaintenanceService&) = delete;
  MaintenanceService& operator=(const MaintenanceService&) = delete;

  // Starts the scheduler thread; the first pass runs one interval later.
  void Start() EXCLUDES(mu_);
  // Waits for the running job to finish (a pass stops between tables).
  // Idempotent.
  void Stop() EXCLUDES(mu_);

  // Runs `job` on the table now and records its outcome (a job that ran and
  // failed is a recorded Failed state, not an error). Errors: NotFound
  // (table), FailedPrecondition (the job is disabled for the table), the
  // store's errors.
  Result<catalog::MaintenanceJobState> RunNow(const std::string& table_id,
                                              catalog::MaintenanceJob job) EXCLUDES(run_mu_);
  // One scheduler pass over every table of every account. Errors: listing
  // the catalog failed (a job's own failure is recorded, not returned).
  Status RunOnce() EXCLUDES(run_mu_);
  // One hot-partition compaction pass (see above). Errors as RunOnce.
  Status RunHotCompactionOnce() EXCLUDES(run_mu_);

  // Prometheus text (maintenance_metrics.h).
  std::string MetricsText() const { return metrics_.Text(); }

 private:
  // Whether `job` is enabled for `table` under its (or its bucket's) settings,
  // and the snapshot rules when it is snapshot management.
  Result<bool> Enabled(const catalog::Table& table, catalog::MaintenanceJob job);
  // Runs and records one job; run_mu_ held.
  // min_small_files: the compaction plan's (0 outside the hot pass); a hot
  // run that did nothing is not recorded.
  Result<catalog::MaintenanceJobState> RunJobLocked(const catalog::Table& table,
                                                    catalog::MaintenanceJob job,
                                                    int min_small_files = 0) REQUIRES(run_mu_);
  // Calls `fn` for every table of every account until Stop; run_mu_ held.
  template <typename Fn>
  Status ForEachTableLocked(Fn&& fn) REQUIRES(run_mu_);
  Status RunTableLocked(const catalog::Table& table) REQUIRES(run_mu_);
  void Loop() EXCLUDES(mu_);
  bool Stopping() EXCLUDES(mu_);
  bool Leads() const { return !deps_.is_leader || deps_.is_leader(); }

  MaintenanceDeps deps_;
  MaintenanceOptions options_;
  MaintenanceMetrics metrics_;
  // Serialises job runs (the scheduler's passes and RunNow).
  common::Mutex run_mu_;
  common::Mutex mu_;
  common::CondVar wake_;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread thread_;  // Started and joined by Start/Stop only.
};

}  // namespace st::maintenance
