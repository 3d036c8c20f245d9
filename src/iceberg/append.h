// Appending data files: the delivery path's commit (Java FastAppend +
// MergeAppend).
#pragma once

#include <vector>

#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/snapshot.h"
#include "iceberg/snapshot_operation.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

// Adds `files` (data files, any known spec ids) in one new snapshot with
// operation "append". The files go into one new manifest per spec id; every
// existing manifest is reused unchanged, unless manifest merging is due:
// with "commit.manifest-merge.enabled" (default true), when a spec's data
// manifests would reach "commit.manifest.min-count-to-merge" (default 100),
// the new files and that spec's manifests smaller than
// "commit.manifest.target-size-bytes" (default 8 MiB) are written into one
// manifest (carried entries become EXISTING with explicit sequence numbers;
// entries DELETED by older snapshots are dropped). So a commit reads and
// writes O(1) manifests on average, however long the history.
//
// The summary has the counters and running totals of docs/api-contract-notes.md §5.1
// plus manifests-created/-kept/-replaced; `extra_summary` keys are added
// where they do not collide (delivery records channel and offsets there).
//
// Errors: InvalidArgument (a file with an unknown spec id, a partition tuple
// that does not fit its spec, a delete file), NotFound/Corruption reading the
// base's manifests, Io.
Result<SnapshotCommit> FastAppend(const TableMetadata& base, const std::vector<DataFile>& files,
                                  const SnapshotSummary& extra_summary, OperationContext ctx);

}  // namespace st::iceberg
