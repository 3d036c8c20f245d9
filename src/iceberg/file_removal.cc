#include <map>
#include <memory>
#include <set>
#include <utility>

#include "iceberg/file_removal_internal.h"

namespace st::iceberg::internal {

Result<RemovalResult> RemoveDataFiles(SnapshotProducer& producer,
                                      const std::vector<std::string>& paths) {
  std::set<std::string> pending;
  for (const std::string& path : paths) {
    if (!pending.insert(path).second) {
      return Err(InvalidArgument("data file " + path + " is listed twice for removal"));
    }
  }
  ST_ASSIGN_OR_RETURN(std::vector<ManifestFile> base, producer.BaseManifests());
  RemovalResult out;
  std::map<int32_t, std::unique_ptr<ManifestWriter>> writers;
  for (const ManifestFile& manifest : base) {
    if (OnlyDeletedEntries(manifest)) continue;
    if (pending.empty() || manifest.content != ManifestContent::kData) {
      out.kept.push_back(manifest);
      continue;
    }
    ST_ASSIGN_OR_RETURN(Manifest contents, producer.Read(manifest));
    bool touched = false;
    for (const ManifestEntry& entry : contents.entries) {
      if (entry.status != ManifestEntryStatus::kDeleted &&
          pending.count(entry.data_file.file_path) > 0) {
        touched = true;
        break;
      }
    }
    if (!touched) {
      out.kept.push_back(manifest);
      continue;
    }
    // Every touched manifest of one spec goes into one new manifest: a
    // compaction of N small files touches N manifests, and keeping N
    // rewritten ones (each with one DELETED entry) would keep the scan
    // planning cost of the N files until the next append drops them.
    auto& writer = writers[manifest.partition_spec_id];
    if (writer == nullptr) {
      ST_ASSIGN_OR_RETURN(writer, producer.NewManifestWriter(manifest.partition_spec_id));
    }
    for (const ManifestEntry& entry : contents.entries) {
      if (entry.status == ManifestEntryStatus::kDeleted) continue;
      auto it = pending.find(entry.data_file.file_path);
      if (it != pending.end()) {
        ST_TRY(writer->AddDeleted(entry));
        producer.counter().Removed(entry.data_file);
        pending.erase(it);
      } else {
        ST_TRY(writer->AddExisting(entry));
      }
    }
    ++out.replaced;
  }
  if (!pending.empty()) {
    std::string missing = *pending.begin();
    return Err(Conflict("data file " + missing + " (and " + std::to_string(pending.size() - 1) +
                        " more) is not live in the current snapshot of " +
                        producer.base().location +
                        "; it was removed concurrently or never added; re-plan on fresh metadata"));
  }
  for (auto& [spec_id, writer] : writers) {
    ST_ASSIGN_OR_RETURN(ManifestFile merged, writer->Close());
    out.rewritten.push_back(std::move(merged));
  }
  return out;
}

}  // namespace st::iceberg::internal
