#include "maintenance/maintenance_service.h"

#include <utility>
#include <vector>

#include "catalog/id_generation.h"
#include "catalog/maintenance_defaults.h"
#include "catalog/maintenance_model.h"
#include "maintenance/compaction.h"
#include "maintenance/maintenance_principal.h"
#include "maintenance/record_expiration.h"
#include "maintenance/snapshot_expiration.h"
#include "maintenance/unreferenced_files.h"

namespace st::maintenance {

namespace {

using catalog::MaintenanceJob;
using catalog::MaintenanceType;

// The typed configuration of `type` among stored values with defaults added.
std::optional<catalog::MaintenanceConfiguration> Configured(const catalog::MaintenanceConfigs& all,
                                                            MaintenanceType type) {
  auto it = all.find(std::string(catalog::MaintenanceTypeName(type)));
  if (it == all.end()) return std::nullopt;
  Result<catalog::MaintenanceConfiguration> parsed =
      catalog::ParseMaintenanceValue(type, it->second);
  if (!parsed.has_value()) return std::nullopt;
  return *std::move(parsed);
}

// The jobs a scheduler pass runs, in this order: record expiration first
// (its delete snapshot is then old enough for a later expiration, and
// compaction does not rewrite files about to be dropped), compaction, then
// snapshot expiration before unreferenced file removal, so the files it
// deletes are not counted as unreferenced in the same pass.
constexpr MaintenanceJob kScheduledJobs[] = {
    MaintenanceJob::kRecordExpiration, MaintenanceJob::kCompaction,
    MaintenanceJob::kSnapshotManagement, MaintenanceJob::kUnreferencedFileRemoval};

int64_t SummaryCount(const iceberg::Snapshot* snapshot, const char* key) {
  if (snapshot == nullptr) return 0;
  auto it = snapshot->summary.find(key);
  if (it == snapshot->summary.end()) return -1;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return -1;
  }
}

}  // namespace

MaintenanceService::MaintenanceService(MaintenanceDeps deps, MaintenanceOptions options)
    : deps_(std::move(deps)), options_(options) {}

MaintenanceService::~MaintenanceService() { Stop(); }

void MaintenanceService::Start() {
  {
    common::MutexLock lock(mu_);
    if (thread_.joinable()) return;
    stopping_ = false;
  }
  thread_ = std::thread([this] { Loop(); });
}

void MaintenanceService::Stop() {
  {
    common::MutexLock lock(mu_);
    stopping_ = true;
  }
  wake_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

bool MaintenanceService::Stopping() {
  common::MutexLock lock(mu_);
  return stopping_;
}

void MaintenanceService::Loop() {
  const bool hot = options_.hot_compaction_interval.count() > 0;
  auto next_due = deps_.clock.Now() + options_.interval;
  auto next_hot = deps_.clock.Now() + options_.hot_compaction_interval;
  auto wait = std::min(options_.tick, options_.interval);
  if (hot) wait = std::min(wait, options_.hot_compaction_interval);
  while (true) {
    {
      common::MutexLock lock(mu_);
      if (stopping_) return;
      wake_.WaitFor(mu_, wait);
      if (stopping_) return;
    }
    const auto now = deps_.clock.Now();
    if (!Leads()) {
      // Another replica runs the schedule; keep ours counting so that a
      // take-over runs its first pass an interval on, not at once.
      if (now >= next_due) next_due = now + options_.interval;
      if (hot && now >= next_hot) next_hot = now + options_.hot_compaction_interval;
      continue;
    }
    if (now >= next_due) {
      if (Status pass = RunOnce(); !pass.ok()) {
        deps_.logger.Log(LogLevel::kWarn, "maintenance_pass_failed", {{"error", pass.ToString()}});
      }
      next_due = deps_.clock.Now() + options_.interval;
      next_hot = deps_.clock.Now() + options_.hot_compaction_interval;  // The full pass compacted.
    } else if (hot && now >= next_hot) {
      if (Status pass = RunHotCompactionOnce(); !pass.ok()) {
        deps_.logger.Log(LogLevel::kWarn, "maintenance_hot_pass_failed",
                         {{"error", pass.ToString()}});
      }
      next_hot = deps_.clock.Now() + options_.hot_compaction_interval;
    }
  }
}

Result<bool> MaintenanceService::Enabled(const catalog::Table& table, MaintenanceJob job) {
  switch (job) {
    case MaintenanceJob::kCompaction:
    case MaintenanceJob::kSnapshotManagement: {
      ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs stored,
                          deps_.store.GetTableMaintenance(table.table_id));
      auto config = Configured(catalog::EffectiveTableMaintenance(std::move(stored)),
                               job == MaintenanceJob::kCompaction
                                   ? MaintenanceType::kIcebergCompaction
                                   : MaintenanceType::kIcebergSnapshotManagement);
      return config.has_value() && config->enabled();
    }
    case MaintenanceJob::kUnreferencedFileRemoval: {
      ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs stored,
                          deps_.store.GetTableBucketMaintenance(table.bucket_arn));
      auto config = Configured(catalog::EffectiveTableBucketMaintenance(std::move(stored)),
                               MaintenanceType::kIcebergUnreferencedFileRemoval);
      return config.has_value() && config->enabled();
    }
    case MaintenanceJob::kRecordExpiration: {
      ST_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                          deps_.store.GetTableRecordExpiration(table.table_id));
      if (!stored.has_value()) return false;
      Result<catalog::RecordExpirationConfiguration> config =
          catalog::ParseRecordExpirationValue(*stored);
      return config.has_value() && config->enabled() && config->days.has_value();
    }
  }
  return false;
}

Result<catalog::MaintenanceJobState> MaintenanceService::RunJobLocked(const catalog::Table& table,
                                                                      MaintenanceJob job,
                                                                      int min_small_files) {
  const auto started = std::chrono::steady_clock::now();
  catalog::MaintenanceJobState state;
  state.last_run = deps_.clock.Now();
  JobRunSample sample;
  Status outcome = Status::OK();
  bool idle = false;  // Nothing to do (the hot pass does not record those).
  // An SSE-KMS table: the key policy must let the maintenance principal use
  // the key, as S3 Tables documents; otherwise every job fails saying so.
  if (Status key = AuthorizeMaintenanceKey(deps_.authorizer, table); !key.ok()) {
    outcome = key;
  } else {
    switch (job) {
      case MaintenanceJob::kCompaction: {
        ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs stored,
                            deps_.store.GetTableMaintenance(table.table_id));
        auto config = Configured(catalog::EffectiveTableMaintenance(std::move(stored)),
                                 MaintenanceType::kIcebergCompaction);
        CompactionOptions options;
        options.min_small_files = min_small_files;
        options.memory_budget_bytes = options_.compaction_memory_budget_bytes;
        if (config.has_value()) {
          if (config->compaction.target_file_size_mb.has_value()) {
            options.target_file_size_bytes = *config->compaction.target_file_size_mb << 20;
          }
          options.strategy = config->compaction.strategy.value_or(options.strategy);
        }
        outcome = AuthorizeMaintenance(deps_.authorizer,
                                       {"s3tables:GetTableData", "s3tables:PutTableData",
                                        "s3tables:UpdateTableMetadataLocation"},
                                       table);
        if (outcome.ok()) {
          Result<CompactionOutcome> compacted = CompactTable(
              {deps_.commits, deps_.objects, deps_.key_root, deps_.random}, table, options);
          if (compacted.has_value()) {
            sample.files_rewritten = compacted->files_rewritten;
            sample.bytes_read = compacted->bytes_read;
            sample.bytes_written = compacted->bytes_written;
            idle = compacted->files_rewritten == 0;
            if (!compacted->skipped.empty()) {
              deps_.logger.Log(LogLevel::kInfo, "compaction_skipped",
                               {{"table", table.arn}, {"reason", compacted->skipped}});
            }
          } else {
            outcome = compacted.error();
          }
        }
        break;
      }
      case MaintenanceJob::kSnapshotManagement: {
        ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs stored,
                            deps_.store.GetTableMaintenance(table.table_id));
        auto config = Configured(catalog::EffectiveTableMaintenance(std::move(stored)),
                                 MaintenanceType::kIcebergSnapshotManagement);
        SnapshotExpirationRules rules =
            RulesFrom(config ? config->snapshot_management : catalog::SnapshotManagementSettings{});
        outcome = AuthorizeMaintenance(
            deps_.authorizer, {"s3tables:PutTableData", "s3tables:UpdateTableMetadataLocation"},
            table);
        if (outcome.ok()) {
          Result<SnapshotExpirationOutcome> expired = ExpireTableSnapshots(
              {deps_.commits, deps_.objects, deps_.key_root, deps_.clock}, table, rules);
          if (expired.has_value()) {
            sample.files_removed = expired->deleted_files;
            sample.bytes_removed = expired->deleted_bytes;
            state.deleted_data_files = expired->deleted_data_files;
            state.removed_files_size_bytes = expired->deleted_bytes;
          } else {
            outcome = expired.error();
          }
        }
        break;
      }
      case MaintenanceJob::kUnreferencedFileRemoval: {
        ST_ASSIGN_OR_RETURN(catalog::MaintenanceConfigs stored,
                            deps_.store.GetTableBucketMaintenance(table.bucket_arn));
        auto config = Configured(catalog::EffectiveTableBucketMaintenance(std::move(stored)),
                                 MaintenanceType::kIcebergUnreferencedFileRemoval);
        UnreferencedFileRules rules =
            UnreferencedRulesFrom(config ? config->unreferenced_file_removal
                                         : catalog::UnreferencedFileRemovalSettings{});
        outcome = AuthorizeMaintenance(deps_.authorizer, "s3tables:PutTableData", table);
        if (outcome.ok()) {
          Result<UnreferencedFilesOutcome> removed = RemoveUnreferencedFiles(
              {deps_.commits, deps_.objects, deps_.key_root, deps_.clock}, table, rules);
          if (removed.has_value()) {
            sample.files_removed = removed->deleted_files;
            sample.bytes_removed = removed->deleted_bytes;
            state.removed_files_size_bytes = removed->deleted_bytes;
          } else {
            outcome = removed.error();
          }
        }
        break;
      }
      case MaintenanceJob::kRecordExpiration: {
        ST_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                            deps_.store.GetTableRecordExpiration(table.table_id));
        std::chrono::days days{0};
        if (stored.has_value()) {
          if (auto config = catalog::ParseRecordExpirationValue(*stored); config && config->days) {
            days = *config->days;
          }
        }
        if (days.count() < 1) {
          outcome = FailedPrecondition("Record expiration of " + table.arn + " has no days set.");
        }
        if (outcome.ok()) {
          outcome = AuthorizeMaintenance(
              deps_.authorizer, {"s3tables:PutTableData", "s3tables:UpdateTableMetadataLocation"},
              table);
        }
        if (outcome.ok()) {
          Result<RecordExpirationOutcome> expired = ExpireRecords(
              {deps_.commits, deps_.objects, deps_.key_root, deps_.clock, deps_.random}, table,
              days, options_.compaction_memory_budget_bytes);
          if (expired.has_value()) {
            state.deleted_data_files = expired->deleted_data_files;
            state.deleted_records = expired->deleted_records;
            state.removed_files_size_bytes = expired->removed_files_size_bytes;
          } else {
            outcome = expired.error();
          }
        }
        break;
      }
    }
  }
  if (outcome.ok() && idle && min_small_files > 0) return state;
  if (!outcome.ok()) {
    state.outcome = catalog::JobOutcome::kFailed;
    state.failure_message = outcome.ToString();
    sample.failed = true;
    deps_.logger.Log(LogLevel::kWarn, "maintenance_job_failed",
                     {{"table", table.arn},
                      {"job", std::string(catalog::MaintenanceJobName(job))},
                      {"error", outcome.ToString()}});
  }
  sample.duration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  metrics_.RecordRun(table.arn, job, sample);

  // The table's shape after the job, for /metrics.
  if (Result<catalog::LoadedTable> loaded = deps_.commits.LoadTable(table.table_id);
      loaded.has_value() && loaded->metadata.has_value()) {
    TableShapeSample shape;
    const iceberg::TableMetadata& metadata = loaded->metadata->metadata;
    shape.snapshots = static_cast<int64_t>(metadata.snapshots.size());
    shape.live_data_files = SummaryCount(metadata.CurrentSnapshot(), "total-data-files");
    iceberg::FileIO io = catalog::TableFileIO(deps_.objects, loaded->table, deps_.key_root);
    if (Result<std::string> key = io.KeyFor(loaded->metadata->location); key.has_value()) {
      if (auto info = deps_.objects.Head(*key); info.has_value()) {
        shape.metadata_file_bytes = info->size_bytes;
      }
    }
    metrics_.RecordShape(table.arn, shape);
  }

  ST_TRY(deps_.store.PutMaintenanceJobState(table.table_id, job, state));
  return state;
}

Result<catalog::MaintenanceJobState> MaintenanceService::RunNow(const std::string& table_id,
                                                                MaintenanceJob job) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, deps_.store.GetTableById(table_id));
  ST_ASSIGN_OR_RETURN(bool enabled, Enabled(table, job));
  if (!enabled) {
    return Err(FailedPrecondition("The maintenance job " +
                                  std::string(catalog::MaintenanceJobName(job)) +
                                  " is disabled for table " + table.arn +
                                  "; enable it with Put*MaintenanceConfiguration first."));
  }
  common::MutexLock lock(run_mu_);
  return RunJobLocked(table, job);
}

Status MaintenanceService::RunTableLocked(const catalog::Table& table) {
  for (MaintenanceJob job : kScheduledJobs) {
    ST_ASSIGN_OR_RETURN(bool enabled, Enabled(table, job));
    if (!enabled) continue;
    ST_TRY(RunJobLocked(table, job));
  }
  return Status::OK();
}

template <typename Fn>
Status MaintenanceService::ForEachTableLocked(Fn&& fn) {
  catalog::PageRequest accounts_page;
  while (true) {
    ST_ASSIGN_OR_RETURN(catalog::Page<catalog::Account> accounts,
                        deps_.store.ListAccounts(accounts_page));
    for (const catalog::Account& account : accounts.items) {
      catalog::PageRequest buckets_page;
      while (true) {
        ST_ASSIGN_OR_RETURN(catalog::Page<catalog::TableBucket> buckets,
                            deps_.store.ListTableBuckets(account.account_id, buckets_page));
        for (const catalog::TableBucket& bucket : buckets.items) {
          catalog::PageRequest tables_page;
          while (true) {
            Result<catalog::Page<catalog::Table>> tables =
                deps_.store.ListTables(bucket.arn, std::nullopt, tables_page);
            if (!tables.has_value()) break;  // The bucket went away meanwhile.
            for (const catalog::Table& table : tables->items) {
              if (Stopping()) return Status::OK();  // Shutdown waits for one job at most.
              if (!Leads()) return Status::OK();    // Another replica took over the schedule.
              if (Status ran = fn(table); !ran.ok()) {
                // One table's catalog trouble must not starve the others.
                deps_.logger.Log(LogLevel::kWarn, "maintenance_table_skipped",
                                 {{"table", table.arn}, {"error", ran.ToString()}});
              }
            }
            if (tables->continuation_token.empty()) break;
            tables_page.continuation_token = tables->continuation_token;
          }
        }
        if (buckets.continuation_token.empty()) break;
        buckets_page.continuation_token = buckets.continuation_token;
      }
    }
    if (accounts.continuation_token.empty()) return Status::OK();
    accounts_page.continuation_token = accounts.continuation_token;
  }
}

Status MaintenanceService::RunOnce() {
  common::MutexLock lock(run_mu_);
  return ForEachTableLocked([this](const catalog::Table& table)
                                REQUIRES(run_mu_) { return RunTableLocked(table); });
}

Status MaintenanceService::RunHotCompactionOnce() {
  common::MutexLock lock(run_mu_);
  return ForEachTableLocked([this](const catalog::Table& table) REQUIRES(run_mu_) -> Status {
    ST_ASSIGN_OR_RETURN(bool enabled, Enabled(table, MaintenanceJob::kCompaction));
    if (!enabled) return Status::OK();
    ST_TRY(RunJobLocked(table, MaintenanceJob::kCompaction, kHotPartitionSmallFiles));
    return Status::OK();
  });
}

}  // namespace st::maintenance
