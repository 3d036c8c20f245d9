// Removing whole data files (record expiration; Java DeleteFiles).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "iceberg/snapshot.h"
#include "iceberg/snapshot_operation.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

// Removes the data files at `paths` in one snapshot with operation "delete":
// the manifests holding them are rewritten with those entries DELETED
// (explicit sequence numbers), the rest reused. Summary: deleted-data-files,
// deleted-records, removed-files-size, changed-partition-count, totals.
// Errors: Conflict when a path is not a live data file of the current
// snapshot; InvalidArgument (empty or duplicate paths); read/write errors.
Result<SnapshotCommit> DeleteFiles(const TableMetadata& base, const std::vector<std::string>& paths,
                                   const SnapshotSummary& extra_summary, OperationContext ctx);

}  // namespace st::iceberg
