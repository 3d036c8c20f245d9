#include "maintenance/snapshot_expiration.h"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include "catalog/id_generation.h"
#include "iceberg/expire_snapshots.h"
#include "iceberg/table_paths.h"
#include "iceberg/table_update.h"

namespace st::maintenance {

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Deletes `uri`, adding its size to the outcome when it was there.
void DeleteCounted(iceberg::FileIO& io, storage::ObjectStore& objects, const std::string& uri,
                   bool data_file, SnapshotExpirationOutcome* out) {
  Result<std::string> key = io.KeyFor(uri);
  if (!key.has_value()) return;  // Outside the table: never ours to delete.
  Result<storage::ObjectInfo> info = objects.Head(*key);
  if (!info.has_value()) return;
  if (!objects.Delete(*key).ok()) return;
  ++out->deleted_files;
  if (data_file) ++out->deleted_data_files;
  out->deleted_bytes += info->size_bytes;
}

// Metadata files older than every one the current metadata still names.
// Versions are written in increasing order and a concurrent commit only
// writes a version above the current one, so a file below the oldest
// logged version can be neither current, logged, nor about to be swapped in.
void DeleteOldMetadataFiles(iceberg::FileIO& io, storage::ObjectStore& objects,
                            const iceberg::MetadataVersion& current,
                            SnapshotExpirationOutcome* out) {
  int64_t oldest = iceberg::MetadataFileVersion(current.location);
  for (const iceberg::MetadataLogEntry& entry : current.metadata.metadata_log) {
    int64_t version = iceberg::MetadataFileVersion(entry.metadata_file);
    if (version >= 0) oldest = std::min(oldest, version);
  }
  if (oldest <= 0) return;
  Result<std::string> current_key = io.KeyFor(current.location);
  if (!current_key.has_value()) return;
  std::string dir = current_key->substr(0, current_key->rfind('/') + 1);
  Result<std::vector<storage::ObjectInfo>> listed = objects.List(dir);
  if (!listed.has_value()) return;
  for (const storage::ObjectInfo& object : *listed) {
    if (!EndsWith(object.key, ".metadata.json")) continue;
    int64_t version = iceberg::MetadataFileVersion(object.key);
    if (version < 0 || version >= oldest) continue;
    if (!objects.Delete(object.key).ok()) continue;
    ++out->deleted_files;
    out->deleted_bytes += object.size_bytes;
  }
}

}  // namespace

SnapshotExpirationRules RulesFrom(const catalog::SnapshotManagementSettings& settings) {
  SnapshotExpirationRules rules;
  if (settings.min_snapshots_to_keep) rules.min_snapshots_to_keep = *settings.min_snapshots_to_keep;
  if (settings.max_snapshot_age) rules.max_snapshot_age = *settings.max_snapshot_age;
  return rules;
}

Result<SnapshotExpirationOutcome> ExpireTableSnapshots(const SnapshotExpirationContext& ctx,
                                                       const catalog::Table& table,
                                                       const SnapshotExpirationRules& rules) {
  SnapshotExpirationOutcome out;
  ST_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, ctx.commits.LoadTable(table.table_id));
  if (!loaded.metadata.has_value()) return out;
  iceberg::FileIO io = catalog::TableFileIO(ctx.objects, loaded.table, ctx.key_root);

  iceberg::ExpireOptions options;
  options.older_than_ms =
      ctx.clock.NowMillis() -
      std::chrono::duration_cast<std::chrono::milliseconds>(rules.max_snapshot_age).count();
  options.retain_last = static_cast<int>(
      std::clamp<int64_t>(rules.min_snapshots_to_keep, 1, std::numeric_limits<int>::max()));
  ST_ASSIGN_OR_RETURN(iceberg::ExpireResult expired,
                      iceberg::ExpireSnapshots(loaded.metadata->metadata, options, io, ctx.clock));
  iceberg::MetadataVersion current = *loaded.metadata;
  if (!expired.expired_snapshot_ids.empty()) {
    catalog::CommitOptions commit;
    commit.account_id = loaded.table.owner_account_id;
    // A streaming table accepts commits from its writer only; maintenance
    // commits in its name without offsets (it never adds rows).
    commit.acting_channel = loaded.table.managed_by_channel;
    ST_ASSIGN_OR_RETURN(
        catalog::LoadedTable committed,
        ctx.commits.CommitTable(table.table_id, {},
                                {iceberg::RemoveSnapshots{expired.expired_snapshot_ids}}, commit));
    out.expired_snapshots = static_cast<int64_t>(expired.expired_snapshot_ids.size());
    current = *committed.metadata;
    // Only now is nothing current able to reach these files. A delivery
    // commit re-applied on top never references them: it appends to the
    // current snapshot, whose files all stay.
    for (const std::string& uri : expired.manifest_lists) {
      DeleteCounted(io, ctx.objects, uri, false, &out);
    }
    for (const std::string& uri : expired.manifests)
      DeleteCounted(io, ctx.objects, uri, false, &out);
    for (const std::string& uri : expired.data_files)
      DeleteCounted(io, ctx.objects, uri, true, &out);
  }
  DeleteOldMetadataFiles(io, ctx.objects, current, &out);
  out.live_snapshots = static_cast<int64_t>(current.metadata.snapshots.size());
  return out;
}

}  // namespace st::maintenance
