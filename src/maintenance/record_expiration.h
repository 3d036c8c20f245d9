// The record-expiration job: on a table partitioned on a timestamptz column
// (hour, day or identity of it: a streaming table's `ts`), removes every row
// older than now − days (the horizon) in one snapshot:
// - a live data file whose rows are all older (newest row: its column upper
//   bound when the manifest has one, else the end of its partition; hour h
//   ends at h + 1 hours) is dropped whole;
// - a live data file with rows on both sides (oldest row, its lower bound or
//   else its partition start, before the horizon; newest at or after it)
//   straddles the horizon and is rewritten without the old rows into a new
//   file under the table's data location (iceberg::DataFileWriter, so the
//   new file has full metrics; its name comes from the injected Random). A
//   row whose timestamp is null is kept: its age is unknown, and a null
//   partition source puts it in the null partition, which never expires.
// With no straddling file the snapshot is a "delete"; otherwise it is an
// "overwrite" (iceberg::OverwriteFiles: rows change, so not a "replace").
//
// Why the row path (parquet::FileReader::ReadRows, one Value per row) is fine
// here while compaction streams column batches: the horizon lies in one
// partition (hour or day), so a run rewrites the few files of that partition
// at most, and filtering rows needs every column of each row anyway. Each
// straddling file is read whole into memory (at most the table's target file
// size).
//
// The commit goes through the shared commit engine; when a delivery commit
// wins the compare-and-swap first, the job deletes the files it wrote and
// re-plans on the new base (the removed files are still live there; appended
// ones are newer). Removed files stay in storage while older snapshots
// reference them; snapshot expiration deletes them later.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/random.h"
#include "common/status.h"
#include "maintenance/compaction.h"
#include "storage/object_store.h"

namespace st::maintenance {

// As S3 Tables' record-expiration job status reports them: the data files
// removed from the table (dropped ones and the straddling originals that were
// rewritten), every removed row (the dropped files' records plus the rows
// left out of rewritten files), and the removed files' total size (the
// rewritten files' new size is not subtracted).
struct RecordExpirationOutcome {
  int64_t deleted_data_files = 0;
  int64_t deleted_records = 0;
  int64_t removed_files_size_bytes = 0;
  int64_t rewritten_data_files = 0;  // Straddling files among deleted_data_files.
};

struct RecordExpirationContext {
  catalog::TableCommits& commits;
  storage::ObjectStore& objects;
  std::string key_root;  // As TableCommitsOptions::key_root.
  // "Now" for the horizon (the snapshot's timestamp is commits.clock()'s).
  const Clock& clock;
  Random& random;  // Snapshot ids, manifest names.
};

// A straddling file's bytes, its decoded batches and its rows are charged
// to a parquet::DecodeBudget of `memory_budget_bytes` (the server's
// --compaction-memory-budget-mb, the bound compaction has), the file's size
// before it is read and each page from its header before it is decoded.
// Errors: FailedPrecondition (the table's default spec partitions on no
// timestamptz column by hour, day or identity; a straddling file past the
// budget: "exceeds the compaction memory budget"), Conflict (kept losing
// against other commits), the commit engine's and manifests' errors, and for
// a straddling file the reader's (Corruption, Unsupported) and the writer's
// (InvalidArgument when its rows do not fit the current schema). A
// straddling file's error names it; nothing is committed.
Result<RecordExpirationOutcome> ExpireRecords(
    const RecordExpirationContext& ctx, const catalog::Table& table, std::chrono::days days,
    int64_t memory_budget_bytes = kDefaultCompactionMemoryBudgetBytes);

// The microsecond timestamp before which a timestamptz partition value of
// `transform` (hour, day, identity) lies entirely: its exclusive end.
// nullopt for other transforms.
std::optional<int64_t> PartitionEndMicros(const iceberg::Transform& transform, int64_t value);
// Its inclusive start. nullopt for other transforms.
std::optional<int64_t> PartitionStartMicros(const iceberg::Transform& transform, int64_t value);

}  // namespace st::maintenance
