// Removing data files from a snapshot's manifests (shared by ReplaceFiles
// and DeleteFiles).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "iceberg/snapshot_producer_internal.h"

namespace st::iceberg::internal {

struct RemovalResult {
  std::vector<ManifestFile> rewritten;  // One per spec: the DELETED and carried entries.
  std::vector<ManifestFile> kept;       // Untouched base manifests.
  int replaced = 0;                     // Base manifests the rewritten ones replace.
};

// Rewrites the base data manifests holding a live entry for one of `paths`
// into one new manifest per partition spec: those entries become DELETED
// (counted as removed in the producer's summary), the touched manifests'
// other live entries EXISTING, their old DELETED entries are dropped.
// Errors: Conflict when a path is not a live data file of the base's current
// snapshot (removed concurrently, or never there); InvalidArgument for
// duplicate paths; read/write errors.
Result<RemovalResult> RemoveDataFiles(SnapshotProducer& producer,
                                      const std::vector<std::string>& paths);

}  // namespace st::iceberg::internal
