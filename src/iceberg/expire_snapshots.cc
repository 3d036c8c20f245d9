#include "iceberg/expire_snapshots.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"
#include "iceberg/table_update.h"

namespace st::iceberg {

namespace {

// Manifests keyed by path with the record to read them through.
using ManifestsByPath = std::map<std::string, ManifestFile>;

// Adds the manifests of `snapshot` to `out`. With `tolerate_missing`, a
// manifest list that is already gone adds nothing.
Status CollectManifests(FileIO& io, const Snapshot& snapshot, bool tolerate_missing,
                        ManifestsByPath* out) {
  auto list = ReadManifestList(io, snapshot.manifest_list);
  if (!list.has_value()) {
    if (tolerate_missing && list.error().code() == StatusCode::kNotFound) return Status::OK();
    return list.error().WithContext("snapshot " + std::to_string(snapshot.snapshot_id));
  }
  for (ManifestFile& m : *list) out->emplace(m.manifest_path, std::move(m));
  return Status::OK();
}

}  // namespace

Result<ExpireResult> ExpireSnapshots(const TableMetadata& base, const ExpireOptions& options,
                                     FileIO& io, const Clock& clock) {
  if (options.retain_last < 1) {
    return Err(InvalidArgument("ExpireSnapshots needs retain_last >= 1, got " +
                               std::to_string(options.retain_last)));
  }
  std::set<int64_t> keep;
  for (const auto& [name, ref] : base.refs) keep.insert(ref.snapshot_id);
  if (base.current_snapshot_id) keep.insert(*base.current_snapshot_id);
  const Snapshot* ancestor = base.CurrentSnapshot();
  for (int n = 0; ancestor != nullptr && n < options.retain_last; ++n) {
    keep.insert(ancestor->snapshot_id);
    ancestor =
        ancestor->parent_snapshot_id ? base.SnapshotById(*ancestor->parent_snapshot_id) : nullptr;
  }
  for (const Snapshot& s : base.snapshots) {
    if (s.timestamp_ms >= options.older_than_ms) keep.insert(s.snapshot_id);
  }

  ExpireResult out;
  out.metadata = base;
  std::vector<const Snapshot*> expired;
  std::vector<const Snapshot*> retained;
  for (const Snapshot& s : base.snapshots) {
    (keep.count(s.snapshot_id) > 0 ? retained : expired).push_back(&s);
  }
  if (expired.empty()) return out;

  ManifestsByPath retained_manifests;
  for (const Snapshot* s : retained) {
    ST_TRY(CollectManifests(io, *s, /*tolerate_missing=*/false, &retained_manifests));
  }
  ManifestsByPath expired_manifests;
  for (const Snapshot* s : expired) {
    out.expired_snapshot_ids.push_back(s->snapshot_id);
    out.manifest_lists.push_back(s->manifest_list);
    ST_TRY(CollectManifests(io, *s, /*tolerate_missing=*/true, &expired_manifests));
  }
  for (const auto& [path, manifest] : retained_manifests) expired_manifests.erase(path);

  if (!expired_manifests.empty()) {
    std::set<std::string> live;
    for (const auto& [path, manifest] : retained_manifests) {
      ST_ASSIGN_OR_RETURN(Manifest contents, ReadManifest(io, manifest));
      for (const ManifestEntry& e : contents.entries) {
        if (e.status != ManifestEntryStatus::kDeleted) live.insert(e.data_file.file_path);
      }
    }
    std::set<std::string> unreachable;
    for (const auto& [path, manifest] : expired_manifests) {
      out.manifests.push_back(path);
      auto contents = ReadManifest(io, manifest);
      if (!contents.has_value()) {
        if (contents.error().code() == StatusCode::kNotFound) continue;
        return Err(contents.error());
      }
      for (const ManifestEntry& e : contents->entries) {
        if (live.count(e.data_file.file_path) == 0) unreachable.insert(e.data_file.file_path);
      }
    }
    out.data_files.assign(unreachable.begin(), unreachable.end());
  }
  std::sort(out.manifest_lists.begin(), out.manifest_lists.end());

  int64_t now_ms = std::max(clock.NowMillis(), base.last_updated_ms);
  ST_ASSIGN_OR_RETURN(out.metadata,
                      ApplyUpdates(base, {RemoveSnapshots{out.expired_snapshot_ids}}, now_ms));
  return out;
}

}  // namespace st::iceberg
