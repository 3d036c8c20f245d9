// The icebergSnapshotManagement job: expires old snapshots of one table,
// commits the removal through the shared commit engine, then deletes the
// manifest lists, manifests and data files only expired snapshots reached,
// and the metadata files that fell off the metadata log.
#pragma once

#include <cstdint>
#include <string>

#include "catalog/maintenance_model.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/status.h"
#include "storage/object_store.h"

namespace st::maintenance {

// The rules as S3 Tables defines them: a snapshot expires only when it is
// older than max age AND is not among the min_to_keep newest of main's
// history; the current snapshot and every ref's (branch, tag) snapshot stay.
struct SnapshotExpirationRules {
  int64_t min_snapshots_to_keep = 1;
  std::chrono::hours max_snapshot_age{120};
};
// The configured settings over the documented defaults (maintenance_defaults.h).
SnapshotExpirationRules RulesFrom(const catalog::SnapshotManagementSettings& settings);

struct SnapshotExpirationOutcome {
  int64_t expired_snapshots = 0;
  // Manifest lists, manifests, data files and metadata files deleted.
  int64_t deleted_files = 0;
  int64_t deleted_data_files = 0;
  int64_t deleted_bytes = 0;
  // After the run.
  int64_t live_snapshots = 0;
};

// Everything the job needs; references outlive the call.
struct SnapshotExpirationContext {
  catalog::TableCommits& commits;
  storage::ObjectStore& objects;
  std::string key_root;  // As TableCommitsOptions::key_root.
  const Clock& clock;    // "Now" for snapshot age.
};

// A table without metadata or without expired snapshots commits nothing
// (old metadata files are still cleaned). The commit is a remove-snapshots
// update that the engine re-applies on a newer base when a delivery commit
// lands in between, so no delivery commit is lost; files are deleted only
// after the commit succeeded, and a file deletion that fails is left for
// unreferenced file removal. Errors: those of TableCommits::CommitTable and
// iceberg::ExpireSnapshots (a remaining snapshot's manifests unreadable).
Result<SnapshotExpirationOutcome> ExpireTableSnapshots(const SnapshotExpirationContext& ctx,
                                                       const catalog::Table& table,
                                                       const SnapshotExpirationRules& rules);

}  // namespace st::maintenance
