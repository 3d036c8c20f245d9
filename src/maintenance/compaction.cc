#include "maintenance/compaction.h"

#include <algorithm>
#include <utility>

#include "common/uuid.h"
#include "iceberg/data_file_writer.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"
#include "iceberg/parquet_schema.h"
#include "iceberg/rewrite.h"
#include "maintenance/compaction_rewrite_internal.h"

namespace st::maintenance {

namespace {

constexpr int kMaxReplans = 5;
// Re-applications of one finished rewrite on newer bases (each a lost
// compare-and-swap against a delivery commit, which lands every few seconds).
constexpr int kMaxReapplies = 20;

struct LiveFiles {
  std::vector<iceberg::DataFile> data;
  bool has_deletes = false;
};

Result<LiveFiles> ReadLiveFiles(iceberg::FileIO& io, const iceberg::Snapshot& snapshot) {
  LiveFiles live;
  ST_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestFile> manifests,
                      iceberg::ReadManifestList(io, snapshot.manifest_list));
  for (const iceberg::ManifestFile& manifest : manifests) {
    ST_ASSIGN_OR_RETURN(iceberg::Manifest contents, iceberg::ReadManifest(io, manifest));
    for (iceberg::ManifestEntry& entry : contents.entries) {
      if (entry.status == iceberg::ManifestEntryStatus::kDeleted) continue;
      if (manifest.content == iceberg::ManifestContent::kDeletes ||
          entry.data_file.content != iceberg::DataFileContent::kData) {
        live.has_deletes = true;
        continue;
      }
      live.data.push_back(std::move(entry.data_file));
    }
  }
  return live;
}

RowOrder OrderFor(catalog::CompactionStrategy strategy, const iceberg::SortOrder* order,
                  std::string* name) {
  const bool sorted = order != nullptr && !order->fields.empty();
  switch (strategy) {
    case catalog::CompactionStrategy::kSort:
    case catalog::CompactionStrategy::kZOrder:
      if (!sorted) break;  // Nothing to order by: documented as binpack.
      *name = strategy == catalog::CompactionStrategy::kSort ? "sort" : "z-order";
      return strategy == catalog::CompactionStrategy::kSort ? RowOrder::kSort : RowOrder::kZOrder;
    case catalog::CompactionStrategy::kAuto:
      if (!sorted) break;
      *name = "sort";
      return RowOrder::kSort;
    case catalog::CompactionStrategy::kBinpack:
      break;
  }
  *name = "binpack";
  return RowOrder::kInput;
}

void DeleteFiles(iceberg::FileIO& io, const std::vector<iceberg::DataFile>& files) {
  for (const iceberg::DataFile& file : files) (void)io.Delete(file.file_path);
}

}  // namespace

Result<CompactionOutcome> CompactTable(const CompactionContext& ctx, const catalog::Table& table,
                                       const CompactionOptions& options) {
  for (int replan = 0;; ++replan) {
    CompactionOutcome out;
    ST_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, ctx.commits.LoadTable(table.table_id));
    if (!loaded.metadata.has_value()) return out;
    const iceberg::TableMetadata& base = loaded.metadata->metadata;
    const iceberg::Snapshot* current = base.CurrentSnapshot();
    const iceberg::Schema* schema = base.CurrentSchema();
    if (current == nullptr || schema == nullptr) return out;

    iceberg::FileIO io = catalog::TableFileIO(ctx.objects, loaded.table, ctx.key_root);
    ST_ASSIGN_OR_RETURN(LiveFiles live, ReadLiveFiles(io, *current));
    if (live.has_deletes) {
      out.skipped = "the table has delete files; compacting would detach them from their rows";
      return out;
    }
    ST_ASSIGN_OR_RETURN(
        iceberg::DataFileWriterOptions write,
        iceberg::DataFileWriterOptionsFromProperties(base.location, base.properties));
    int64_t target = options.target_file_size_bytes;
    if (base.properties.contains("write.target-file-size-bytes")) {
      target = std::min(target, write.target_file_size_bytes);
    }
    const iceberg::SortOrder* order = base.DefaultSortOrder();
    const RowOrder row_order = OrderFor(options.strategy, order, &out.strategy);
    const int64_t group_bytes =
        row_order == RowOrder::kInput
            ? target
            : std::max(target, std::min(target * kOrderedGroupFactor, kMaxOrderedGroupBytes));
    ST_ASSIGN_OR_RETURN(std::vector<CompactionGroup> plan,
                        PlanCompaction(live.data, target, options.min_small_files, group_bytes));
    if (plan.empty()) return out;

    ST_ASSIGN_OR_RETURN(parquet::Schema parquet_schema, iceberg::ToParquetSchema(*schema));
    parquet::DecodeBudget budget(options.memory_budget_bytes, "the compaction memory budget");
    RewriteTarget rewrite{io,     *schema, parquet_schema,
                          write,  target,  Uuid::Generate(ctx.random).ToString() + "-compacted",
                          &budget};
    int file_counter = 0;
    std::vector<std::string> removed;
    std::vector<iceberg::DataFile> added;
    for (const CompactionGroup& group : plan) {
      const iceberg::PartitionSpec* spec = base.SpecById(group.spec_id);
      if (spec == nullptr) continue;  // Not in the metadata: leave the files alone.
      Result<GroupRewrite> rewritten =
          RewriteGroup(rewrite, group, *spec, row_order, order, &file_counter);
      if (!rewritten.has_value()) {
        DeleteFiles(io, added);  // Nothing of this run is committed.
        return Err(rewritten.error().WithContext("compaction of " + table.arn));
      }
      for (const iceberg::DataFile& file : group.files) removed.push_back(file.file_path);
      out.files_rewritten += static_cast<int64_t>(group.files.size());
      out.files_written += static_cast<int64_t>(rewritten->written.size());
      out.records_rewritten += rewritten->records;
      out.bytes_read += rewritten->bytes_read;
      out.bytes_written += rewritten->bytes_written;
      ++out.partitions;
      for (iceberg::DataFile& file : rewritten->written) added.push_back(std::move(file));
    }
    if (removed.empty()) return out;

    // Commit, re-applying the same replacement while only appends intervene.
    iceberg::OperationContext op{io, ctx.commits.clock(), ctx.random};
    const iceberg::SnapshotSummary summary = {{"streamtables.maintenance", "compaction"},
                                              {"streamtables.compaction-strategy", out.strategy}};
    catalog::CommitOptions commit;
    commit.account_id = loaded.table.owner_account_id;
    // In the streaming table's writer's name, without offsets (no rows added).
    commit.acting_channel = loaded.table.managed_by_channel;
    iceberg::TableMetadata attempt_base = base;
    bool replan_needed = false;
    for (int reapply = 0;; ++reapply) {
      Result<iceberg::SnapshotCommit> snapshot =
          iceberg::ReplaceFiles(attempt_base, removed, added, summary, op);
      if (!snapshot.has_value()) {
        if (snapshot.error().code() != StatusCode::kConflict) {
          DeleteFiles(io, added);
          return Err(snapshot.error());
        }
        replan_needed = true;  // A removed file is gone: our rewrite is stale.
        break;
      }
      Result<catalog::LoadedTable> committed = ctx.commits.CommitTable(
          table.table_id, snapshot->requirements, snapshot->updates, commit);
      if (committed.has_value()) return out;
      for (const std::string& written : snapshot->written_files) (void)io.Delete(written);
      if (committed.error().code() != StatusCode::kConflict || reapply >= kMaxReapplies) {
        // CommitStateUnknown keeps the files: the commit may have landed;
        // unreferenced file removal collects them if it did not.
        if (committed.error().code() != StatusCode::kCommitStateUnknown) DeleteFiles(io, added);
        return Err(committed.error());
      }
      ST_ASSIGN_OR_RETURN(catalog::LoadedTable newer, ctx.commits.LoadTable(table.table_id));
      if (!newer.metadata.has_value()) {
        DeleteFiles(io, added);
        return Err(Conflict("the table " + table.arn + " lost its metadata during compaction"));
      }
      attempt_base = newer.metadata->metadata;
      // A concurrent commit may have added delete files naming the removed
      // files (or older sequence numbers): replacing them would resurrect
      // deleted rows.
      if (const iceberg::Snapshot* head = attempt_base.CurrentSnapshot(); head != nullptr) {
        Result<LiveFiles> newer_live = ReadLiveFiles(io, *head);
        if (!newer_live.has_value() || newer_live->has_deletes) {
          DeleteFiles(io, added);
          if (!newer_live.has_value()) return Err(newer_live.error());
          CompactionOutcome skipped;
          skipped.strategy = out.strategy;
          skipped.skipped = "delete files were committed during compaction; nothing replaced";
          return skipped;
        }
      }
    }
    DeleteFiles(io, added);
    if (!replan_needed || replan >= kMaxReplans) {
      return Err(Conflict("compaction of " + table.arn +
                          " kept losing to commits that removed its input files"));
    }
  }
}

}  // namespace st::maintenance
