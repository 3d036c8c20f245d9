// The shared machinery of snapshot-producing operations: ids, file names,
// manifest writers, summary counters and building the new metadata.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/manifest.h"
#include "iceberg/snapshot_operation.h"

namespace st::iceberg::internal {

// Summary counters (snapshot summary keys, docs/api-contract-notes.md §5.1).
class SummaryCounter {
 public:
  void Added(const DataFile& file);
  void Removed(const DataFile& file);
  // Writes added-*/deleted-*/removed-* (when non-zero), changed-partition-count
  // and total-* carried from `previous` (starting at 0 without a parent).
  void WriteTo(const SnapshotSummary* previous, SnapshotSummary* out) const;

 private:
  struct Counts {
    int64_t data_files = 0;
    int64_t delete_files = 0;
    int64_t position_delete_files = 0;
    int64_t equality_delete_files = 0;
    int64_t records = 0;
    int64_t size_bytes = 0;
    int64_t position_deletes = 0;
    int64_t equality_deletes = 0;
  };
  static void Count(const DataFile& file, Counts* counts);
  Counts added_;
  Counts removed_;
  std::set<std::string> partitions_;
};

class SnapshotProducer {
 public:
  // Picks a fresh positive snapshot id (not used by `base`), the next
  // sequence number and a commit UUID for file names.
  SnapshotProducer(const TableMetadata& base, OperationContext ctx);

  const TableMetadata& base() const { return base_; }
  int64_t snapshot_id() const { return snapshot_id_; }
  int64_t sequence_number() const { return sequence_number_; }
  OperationContext& ctx() { return ctx_; }
  SummaryCounter& counter() { return counter_; }

  // The base's current manifests (empty without a current snapshot).
  // Errors: NotFound, Io, Corruption.
  Result<std::vector<ManifestFile>> BaseManifests();
  // A writer for the next "<uuid>-m<N>.avro" of this commit. Errors: as ManifestWriter::Make.
  Result<std::unique_ptr<ManifestWriter>> NewManifestWriter(int32_t spec_id);
  // Reads a manifest of the base; entries have resolved sequence numbers.
  Result<Manifest> Read(const ManifestFile& manifest);

  // Writes the manifest list and returns the new metadata. `manifests_created`
  // / `kept` / `replaced` go to the summary; `extra` keys never override
  // computed ones. Errors: Io, AlreadyExists (manifest list name collision).
  Result<SnapshotCommit> Commit(const std::string& operation,
                                const std::vector<ManifestFile>& manifests, int manifests_created,
                                int manifests_kept, int manifests_replaced,
                                const SnapshotSummary& extra);

 private:
  const TableMetadata& base_;
  OperationContext ctx_;
  int64_t snapshot_id_ = 0;
  int64_t sequence_number_ = 0;
  std::string commit_uuid_;
  int next_manifest_ = 0;
  SummaryCounter counter_;
  std::vector<std::string> written_files_;
};

// A base manifest holding only DELETED entries (its deletes are recorded in
// the older snapshot that wrote it): new snapshots leave it out. A manifest
// with all counts zero has unknown counts (some v1 writers) and is kept.
inline bool OnlyDeletedEntries(const ManifestFile& m) {
  return m.added_files_count == 0 && m.existing_files_count == 0 && m.deleted_files_count > 0;
}

// Java's rule for snapshot ids: positive 63-bit, never 0.
int64_t NewSnapshotId(Random& random);
// Reads an integer table property, falling back to `fallback` when absent or malformed.
int64_t IntProperty(const TableMetadata& metadata, const std::string& key, int64_t fallback);
bool BoolProperty(const TableMetadata& metadata, const std::string& key, bool fallback);

}  // namespace st::iceberg::internal
