#include "iceberg/append.h"

#include <map>
#include <utility>

#include "iceberg/snapshot_producer_internal.h"

namespace st::iceberg {

namespace {

// The base's data manifests of `spec_id` that merging would fold into the new
// manifest: the small ones, in list order, until their size reaches the target.
std::vector<size_t> MergeCandidates(const TableMetadata& base,
                                    const std::vector<ManifestFile>& manifests, int32_t spec_id) {
  if (!internal::BoolProperty(base, kManifestMergeEnabled, kManifestMergeEnabledDefault)) {
    return {};
  }
  int64_t min_count = std::max<int64_t>(
      2, internal::IntProperty(base, kManifestMinCountToMerge, kManifestMinCountToMergeDefault));
  int64_t target =
      internal::IntProperty(base, kManifestTargetSizeBytes, kManifestTargetSizeBytesDefault);
  std::vector<size_t> same_spec;
  for (size_t i = 0; i < manifests.size(); ++i) {
    if (manifests[i].content == ManifestContent::kData &&
        manifests[i].partition_spec_id == spec_id) {
      same_spec.push_back(i);
    }
  }
  // The new manifest counts too: merge when this commit would reach the threshold.
  if (static_cast<int64_t>(same_spec.size()) + 1 < min_count) return {};
  std::vector<size_t> picked;
  int64_t bin_bytes = 0;
  for (size_t i : same_spec) {
    if (manifests[i].manifest_length >= target) continue;
    if (bin_bytes + manifests[i].manifest_length > target && !picked.empty()) break;
    bin_bytes += manifests[i].manifest_length;
    picked.push_back(i);
  }
  return picked.size() >= 1 ? picked : std::vector<size_t>();
}

}  // namespace

Result<SnapshotCommit> FastAppend(const TableMetadata& base, const std::vector<DataFile>& files,
                                  const SnapshotSummary& extra_summary, OperationContext ctx) {
  internal::SnapshotProducer producer(base, ctx);
  std::map<int32_t, std::vector<const DataFile*>> by_spec;
  for (const DataFile& file : files) {
    if (file.content != DataFileContent::kData) {
      return Err(InvalidArgument("FastAppend adds data files only; " + file.file_path +
                                 " is a delete file"));
    }
    by_spec[file.spec_id].push_back(&file);
  }
  ST_ASSIGN_OR_RETURN(std::vector<ManifestFile> existing, producer.BaseManifests());

  std::vector<ManifestFile> created;
  std::vector<bool> replaced(existing.size(), false);
  int replaced_count = 0;
  for (const auto& [spec_id, spec_files] : by_spec) {
    ST_ASSIGN_OR_RETURN(auto writer, producer.NewManifestWriter(spec_id));
    for (const DataFile* file : spec_files) {
      ST_TRY(writer->Add(*file));
      producer.counter().Added(*file);
    }
    for (size_t i : MergeCandidates(base, existing, spec_id)) {
      ST_ASSIGN_OR_RETURN(Manifest old, producer.Read(existing[i]));
      for (const ManifestEntry& entry : old.entries) {
        if (entry.status == ManifestEntryStatus::kDeleted) continue;
        ST_TRY(writer->AddExisting(entry));
      }
      replaced[i] = true;
      ++replaced_count;
    }
    ST_ASSIGN_OR_RETURN(ManifestFile manifest, writer->Close());
    created.push_back(std::move(manifest));
  }

  std::vector<ManifestFile> manifests = created;
  int kept = 0;
  for (size_t i = 0; i < existing.size(); ++i) {
    if (replaced[i] || internal::OnlyDeletedEntries(existing[i])) continue;
    manifests.push_back(existing[i]);
    ++kept;
  }
  return producer.Commit("append", manifests, static_cast<int>(created.size()), kept,
                         replaced_count, extra_summary);
}

}  // namespace st::iceberg
