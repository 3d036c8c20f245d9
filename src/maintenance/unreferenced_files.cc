#include "maintenance/unreferenced_files.h"

#include <set>
#include <utility>
#include <vector>

#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"

namespace st::maintenance {

namespace {

// Object keys of every file `version` reaches.
Status AddReachable(iceberg::FileIO& io, const iceberg::MetadataVersion& version,
                    std::set<std::string>* keys) {
  auto add = [&](const std::string& uri) {
    // A URI outside the table (a client's external file) is not under the
    // listed prefix anyway.
    if (Result<std::string> key = io.KeyFor(uri); key.has_value()) keys->insert(*key);
  };
  add(version.location);
  for (const iceberg::MetadataLogEntry& entry : version.metadata.metadata_log) {
    add(entry.metadata_file);
  }
  std::set<std::string> manifests_seen;
  for (const iceberg::Snapshot& snapshot : version.metadata.snapshots) {
    add(snapshot.manifest_list);
    ST_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestFile> manifests,
                        iceberg::ReadManifestList(io, snapshot.manifest_list));
    for (const iceberg::ManifestFile& manifest : manifests) {
      if (!manifests_seen.insert(manifest.manifest_path).second) continue;
      add(manifest.manifest_path);
      ST_ASSIGN_OR_RETURN(iceberg::Manifest contents, iceberg::ReadManifest(io, manifest));
      for (const iceberg::ManifestEntry& entry : contents.entries) add(entry.data_file.file_path);
    }
  }
  return Status::OK();
}

}  // namespace

UnreferencedFileRules UnreferencedRulesFrom(
    const catalog::UnreferencedFileRemovalSettings& settings) {
  UnreferencedFileRules rules;
  if (settings.unreferenced) rules.unreferenced = *settings.unreferenced;
  if (settings.non_current) rules.non_current = *settings.non_current;
  return rules;
}

Result<UnreferencedFilesOutcome> RemoveUnreferencedFiles(const UnreferencedFilesContext& ctx,
                                                         const catalog::Table& table,
                                                         const UnreferencedFileRules& rules) {
  UnreferencedFilesOutcome out;
  ST_ASSIGN_OR_RETURN(catalog::LoadedTable before, ctx.commits.LoadTable(table.table_id));
  if (!before.metadata.has_value()) return out;
  iceberg::FileIO io = catalog::TableFileIO(ctx.objects, before.table, ctx.key_root);
  // The table's own directory of keys; never the store's root.
  std::string root = io.key_prefix();
  if (root.empty() || root == "/") {
    return Err(Internal("table " + table.arn + " has no key prefix of its own; not listing"));
  }
  if (root.back() != '/') root += '/';

  std::set<std::string> reachable;
  ST_TRY(AddReachable(io, *before.metadata, &reachable));
  ST_ASSIGN_OR_RETURN(std::vector<storage::ObjectInfo> listed, ctx.objects.List(root));
  // A commit that landed while we listed may reference an old object (a
  // client's add-files): what it reaches is kept too.
  ST_ASSIGN_OR_RETURN(catalog::LoadedTable after, ctx.commits.LoadTable(table.table_id));
  if (after.metadata.has_value() && after.metadata->location != before.metadata->location) {
    ST_TRY(AddReachable(io, *after.metadata, &reachable));
  }

  const auto now = ctx.clock.Now();
  for (const storage::ObjectInfo& object : listed) {
    if (reachable.count(object.key) > 0) continue;
    const auto age = now - object.last_modified;
    if (age < rules.unreferenced) continue;
    if (age < rules.unreferenced + rules.non_current) {
      ++out.noncurrent_files;
      continue;
    }
    if (!ctx.objects.Delete(object.key).ok()) continue;
    ++out.deleted_files;
    out.deleted_bytes += object.size_bytes;
  }
  return out;
}

}  // namespace st::maintenance
