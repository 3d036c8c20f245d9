// The compaction job (icebergCompaction): rewrites a table's small data
// files into files of about the target size, in one "replace" snapshot.
//
// Plan (PlanCompaction). Over the current snapshot's live data files, per
// partition (spec id + partition tuple): a candidate is a file smaller than
// 75% of the target (a file that large would gain little from a rewrite, and
// rewriting it again and again is write amplification); candidates are
// bin-packed (first fit, largest first) into groups of at most the target's
// bytes (binpack: one output file per group), or of kOrderedGroupFactor
// targets for sort and z-order (rows are ordered within a group only, so a
// group spans several output files; bounded by kMaxOrderedGroupBytes because
// the group is held in memory); a group is rewritten when it holds at least
// two files, because rewriting one file alone would not lower the file
// count, only cost a rewrite. `min_small_files` > 0 (the hot pass) restricts the plan to
// partitions holding more than that many candidates.
//
// Rewrite. Each group's files are read column chunk by column chunk
// (parquet::FileReader) and written through the batch API into Parquet files
// of the table's current schema (field ids) and write properties (codec, row
// group size, metrics mode), rolling to a new file at the target size.
// Columns are matched by field id; a column a file lacks (added later) is
// written as nulls, int→long and float→double promotions are widened.
// Metrics come from the writer's FileSummary through
// iceberg::ApplyParquetMetrics, the same path delivery's files take.
// Strategies:
//  - binpack: rows keep their file and row-group order.
//  - sort: the group's rows are ordered by the table's default sort order
//    (direction, null order, transforms); output files are consecutive
//    ranges of that order, so they do not overlap on the first sort column
//    (other than at a value equal on both sides of a roll).
//  - z-order: rows ordered by the interleaved bits of order-preserving
//    64-bit keys of the sort order's source columns (S3 Tables: z-order
//    uses the sort order's columns), so each file covers a compact box.
//  - auto: sort when the table has a sort order, else binpack.
// binpack decodes the next row group on a helper thread while the writer
// encodes and compresses (about two input files and three row groups in
// memory); sort and z-order hold a whole group in memory (at most
// kMaxOrderedGroupBytes of compressed input; decompressed pages are larger).
// Files roll between input row groups (binpack) or row slices (ordered), so
// an output may pass the target by up to one of those.
//
// Commit. One iceberg::ReplaceFiles snapshot for every group, through
// catalog::TableCommits. When a concurrent commit (a delivery append) wins
// the compare-and-swap, the same replacement is re-applied on the new base
// (appended files are untouched, so no row is lost or duplicated); when
// ReplaceFiles answers Conflict (a removed file is no longer live) the
// written files are deleted and the table re-planned. A file that cannot be
// read fails the job (Corruption naming the file) after deleting the files
// written so far; nothing is committed.
//
// Tables with delete files are left alone: rewriting a data file would
// detach its position deletes (they name the old path) and its equality
// deletes (they apply to older sequence numbers), resurrecting rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/maintenance_model.h"
#include "catalog/table_commits.h"
#include "common/random.h"
#include "common/status.h"
#include "iceberg/data_file.h"
#include "storage/object_store.h"

namespace st::maintenance {

// A file under this share of the target size is a compaction candidate.
inline constexpr double kSmallFileShare = 0.75;
// The hot pass compacts a partition once it holds more small files than
// this: with freshness 1 s a partition gains 60 files a minute, so 8 keeps
// a reader's file count per hot partition small while a pass rewrites at
// most a few MB.
inline constexpr int kHotPartitionSmallFiles = 8;
// Sort and z-order groups: up to this many targets of input...
inline constexpr int64_t kOrderedGroupFactor = 8;
// ...but never more than this much compressed input in memory at once.
inline constexpr int64_t kMaxOrderedGroupBytes = 1LL << 30;

inline constexpr int64_t kDefaultCompactionMemoryBudgetBytes = 4LL << 30;

struct CompactionOptions {
  // targetFileSizeMB (64–512 MiB, default 512); the table property
  // write.target-file-size-bytes lowers it when set smaller (what Iceberg's
  // own writers would roll at).
  int64_t target_file_size_bytes = catalog::kMaxTargetFileSizeMb << 20;
  catalog::CompactionStrategy strategy = catalog::CompactionStrategy::kAuto;
  // 0: every partition; N > 0: only partitions with more than N candidates.
  int min_small_files = 0;
  // Input bytes plus decoded bytes one job may hold at once (each page is
  // charged from its header before it is decompressed): a file that claims
  // more fails the job ("exceeds the compaction memory budget", naming the
  // file) instead of exhausting the server. binpack holds about two input
  // files and three row groups; sort and z-order hold their whole group
  // (up to kMaxOrderedGroupBytes compressed) decoded.
  int64_t memory_budget_bytes = kDefaultCompactionMemoryBudgetBytes;
};

struct CompactionOutcome {
  int64_t files_rewritten = 0;  // Input files removed.
  int64_t files_written = 0;
  int64_t records_rewritten = 0;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
  int64_t partitions = 0;  // Partitions rewritten.
  std::string strategy;    // "binpack", "sort" or "z-order" as run.
  std::string skipped;     // Why nothing was planned, when something prevented it.
};

struct CompactionContext {
  catalog::TableCommits& commits;
  storage::ObjectStore& objects;
  std::string key_root;  // As TableCommitsOptions::key_root.
  // No clock: compaction decides nothing by time, and its snapshot is
  // stamped by commits.clock().
  Random& random;  // Output file names, snapshot ids, manifest names.
};

// One group of files to rewrite together.
struct CompactionGroup {
  int32_t spec_id = 0;
  Value partition;
  std::vector<iceberg::DataFile> files;
  int64_t bytes = 0;
};

// The plan over `live` data files (rules above), groups in partition order;
// `max_group_bytes` 0 means the target. Errors: InvalidArgument for a
// target below 1 byte.
Result<std::vector<CompactionGroup>> PlanCompaction(const std::vector<iceberg::DataFile>& live,
                                                    int64_t target_file_size_bytes,
                                                    int min_small_files,
                                                    int64_t max_group_bytes = 0);

// Runs the job on `table`. Thread-safety: calls for distinct tables may run
// concurrently (the service runs one job at a time anyway). Errors: Corruption (an input file,
// named), Unsupported (a file whose columns cannot be mapped onto the current schema), Conflict
// (kept losing against other commits), the commit engine's, manifests' and object store's errors.
Result<CompactionOutcome> CompactTable(const CompactionContext& ctx, const catalog::Table& table,
                                       const CompactionOptions& options);

}  // namespace st::maintenance
