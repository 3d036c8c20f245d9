#include "iceberg/rewrite.h"

#include <map>
#include <utility>

#include "iceberg/delete.h"
#include "iceberg/file_removal_internal.h"

namespace st::iceberg {

namespace {

Result<SnapshotCommit> RemoveAndAdd(const std::string& operation, const TableMetadata& base,
                                    const std::vector<std::string>& removed_paths,
                                    const std::vector<DataFile>& added,
                                    const SnapshotSummary& extra_summary, OperationContext ctx) {
  if (removed_paths.empty()) {
    return Err(
        InvalidArgument(operation + " on " + base.location + " names no data files to remove"));
  }
  internal::SnapshotProducer producer(base, ctx);
  std::map<int32_t, std::vector<const DataFile*>> by_spec;
  for (const DataFile& file : added) {
    if (file.content != DataFileContent::kData) {
      return Err(InvalidArgument(operation + " adds data files only; " + file.file_path +
                                 " is a delete file"));
    }
    by_spec[file.spec_id].push_back(&file);
  }
  // Removal first: its Conflict is the likely failure, and it leaves no
  // orphaned manifest of added files behind.
  ST_ASSIGN_OR_RETURN(internal::RemovalResult removal,
                      internal::RemoveDataFiles(producer, removed_paths));
  std::vector<ManifestFile> manifests;
  for (const auto& [spec_id, files] : by_spec) {
    ST_ASSIGN_OR_RETURN(auto writer, producer.NewManifestWriter(spec_id));
    for (const DataFile* file : files) {
      ST_TRY(writer->Add(*file));
      producer.counter().Added(*file);
    }
    ST_ASSIGN_OR_RETURN(ManifestFile manifest, writer->Close());
    manifests.push_back(std::move(manifest));
  }
  int created = static_cast<int>(manifests.size() + removal.rewritten.size());
  int kept = static_cast<int>(removal.kept.size());
  for (ManifestFile& m : removal.rewritten) manifests.push_back(std::move(m));
  for (ManifestFile& m : removal.kept) manifests.push_back(std::move(m));
  return producer.Commit(operation, manifests, created, kept, removal.replaced, extra_summary);
}

}  // namespace

Result<SnapshotCommit> ReplaceFiles(const TableMetadata& base,
                                    const std::vector<std::string>& removed_paths,
                                    const std::vector<DataFile>& added,
                                    const SnapshotSummary& extra_summary, OperationContext ctx) {
  return RemoveAndAdd("replace", base, removed_paths, added, extra_summary, ctx);
}

Result<SnapshotCommit> OverwriteFiles(const TableMetadata& base,
                                      const std::vector<std::string>& removed_paths,
                                      const std::vector<DataFile>& added,
                                      const SnapshotSummary& extra_summary, OperationContext ctx) {
  return RemoveAndAdd("overwrite", base, removed_paths, added, extra_summary, ctx);
}

Result<SnapshotCommit> DeleteFiles(const TableMetadata& base, const std::vector<std::string>& paths,
                                   const SnapshotSummary& extra_summary, OperationContext ctx) {
  return RemoveAndAdd("delete", base, paths, {}, extra_summary, ctx);
}

}  // namespace st::iceberg
