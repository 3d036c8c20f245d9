// What every snapshot-producing operation (append.h, rewrite.h, delete.h)
// takes and returns.
//
// An operation reads the base metadata's current snapshot, writes new
// manifests and a manifest list through the FileIO, and returns the base
// metadata with the new snapshot added: sequence number = base
// last-sequence-number + 1, parent = base current snapshot, refs.main and
// current-snapshot-id pointing at it, a snapshot-log entry and
// last-updated-ms = the snapshot's timestamp. Nothing is committed: the
// caller writes a metadata version (table_commit.h) and swaps the catalog
// pointer; if that loses a race it deletes `written_files` and retries on the
// new base.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/random.h"
#include "iceberg/file_io.h"
#include "iceberg/snapshot.h"
#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"

namespace st::iceberg {

// Injected services; none owned, all must outlive the call.
struct OperationContext {
  FileIO& io;
  const Clock& clock;
  Random& random;  // Snapshot ids, file-name UUIDs, Avro sync markers.
};

struct SnapshotCommit {
  TableMetadata metadata;  // Base plus the new snapshot as main's head.
  int64_t snapshot_id = 0;
  std::string manifest_list;
  // Manifests and the manifest list written by the operation (not the reused ones).
  std::vector<std::string> written_files;
  // The same change as REST commit parts: add-snapshot + set-snapshot-ref main,
  // guarded by assert-table-uuid + assert-ref-snapshot-id main = base's head.
  std::vector<TableRequirement> requirements;
  std::vector<TableUpdate> updates;
};

// Table properties read by the operations, with Java's names and defaults.
inline constexpr const char* kManifestMergeEnabled = "commit.manifest-merge.enabled";
inline constexpr bool kManifestMergeEnabledDefault = true;
inline constexpr const char* kManifestMinCountToMerge = "commit.manifest.min-count-to-merge";
inline constexpr int kManifestMinCountToMergeDefault = 100;
inline constexpr const char* kManifestTargetSizeBytes = "commit.manifest.target-size-bytes";
inline constexpr int64_t kManifestTargetSizeBytesDefault = 8 * 1024 * 1024;

}  // namespace st::iceberg
