// The record-expiration job: on a table partitioned on a timestamptz column
// (hour, day or identity of it: a streaming table's `ts`), drops every live
// data file whose rows are all older than now − days in one "delete"
// snapshot. A file's newest row is its column upper bound when the manifest
// has one, else the end of its partition (hour h ends at h + 1 hours).
// Files straddling the horizon stay whole (rewriting them without the old
// rows, with the reader and batch operations compaction uses, is not done yet).
//
// The delete commit goes through the shared commit engine; when a delivery
// commit wins the compare-and-swap first, the job re-plans on the new base
// (the dropped files are still live there; appended ones are newer).
// Dropped files stay in storage while older snapshots reference them;
// snapshot expiration deletes them later.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/random.h"
#include "common/status.h"
#include "storage/object_store.h"

namespace st::maintenance {

struct RecordExpirationOutcome {
  int64_t deleted_data_files = 0;
  int64_t deleted_records = 0;
  int64_t removed_files_size_bytes = 0;
};

struct RecordExpirationContext {
  catalog::TableCommits& commits;
  storage::ObjectStore& objects;
  std::string key_root;  // As TableCommitsOptions::key_root.
  const Clock& clock;    // "Now" for the horizon and the snapshot's timestamp.
  Random& random;        // Snapshot ids, manifest names.
};

// Errors: FailedPrecondition (the table's default spec partitions on no
// timestamptz column by hour, day or identity), Conflict (kept losing
// against other commits), and the commit engine's and manifests' errors.
Result<RecordExpirationOutcome> ExpireRecords(const RecordExpirationContext& ctx,
                                              const catalog::Table& table, std::chrono::days days);

// The microsecond timestamp before which a timestamptz partition value of
// `transform` (hour, day, identity) lies entirely: its exclusive end.
// nullopt for other transforms.
std::optional<int64_t> PartitionEndMicros(const iceberg::Transform& transform, int64_t value);

}  // namespace st::maintenance
