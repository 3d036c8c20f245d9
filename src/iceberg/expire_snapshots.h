// Snapshot expiration (Java ExpireSnapshots): drops old snapshots from the
// metadata and reports which files only they reached.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "iceberg/file_io.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

struct ExpireOptions {
  // Snapshots with timestamp-ms strictly below this may expire.
  int64_t older_than_ms = 0;
  // The newest `retain_last` snapshots of main's history (head and its
  // ancestors) always stay, whatever their age. At least 1.
  int retain_last = 1;
};

struct ExpireResult {
  // Base after the remove-snapshots update (table_update.h ApplyUpdates:
  // snapshot-log history up to the last expired entry goes too);
  // last-updated-ms advanced. Equal to the base when nothing expired.
  TableMetadata metadata;
  std::vector<int64_t> expired_snapshot_ids;
  // Files no remaining snapshot reaches, for maintenance to delete once the
  // new metadata is committed (sorted, no duplicates).
  std::vector<std::string> manifest_lists;
  std::vector<std::string> manifests;
  std::vector<std::string> data_files;  // Data and delete files.
};

// Never expires the current snapshot or any ref's snapshot. Reachability is
// computed by reading the manifest lists and manifests of every snapshot
// (remaining ones must be readable; files of expired snapshots that are
// already gone are skipped). Errors: InvalidArgument (retain_last < 1),
// NotFound/Io/Corruption reading a remaining snapshot's files.
Result<ExpireResult> ExpireSnapshots(const TableMetadata& base, const ExpireOptions& options,
                                     FileIO& io, const Clock& clock);

}  // namespace st::iceberg
