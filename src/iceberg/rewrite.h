// Replacing data files by others in one snapshot: with the same rows
// (compaction; Java RewriteFiles) or with rows removed (record expiration;
// Java OverwriteFiles).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/snapshot.h"
#include "iceberg/snapshot_operation.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

// Removes the data files at `removed_paths` and adds `added` in one snapshot
// with operation "replace" (readers see the same rows before and after). The
// manifests holding removed files are rewritten with them DELETED (explicit
// sequence numbers) and the others EXISTING; untouched manifests are reused;
// the added files go into one new manifest per spec. Summary as FastAppend,
// plus deleted-data-files, deleted-records and removed-files-size.
//
// Errors: Conflict when a removed path is not a live data file of the base's
// current snapshot (a concurrent commit removed it: re-plan); InvalidArgument
// (nothing to remove, duplicate paths, bad added files); read/write errors.
Result<SnapshotCommit> ReplaceFiles(const TableMetadata& base,
                                    const std::vector<std::string>& removed_paths,
                                    const std::vector<DataFile>& added,
                                    const SnapshotSummary& extra_summary, OperationContext ctx);

// As ReplaceFiles, with operation "overwrite": the added files hold fewer
// rows than the removed ones (record expiration rewrites a file without its
// expired rows), so readers must not treat the snapshot as a no-op rewrite.
// `added` may be empty (the removed files' rows are all gone). Same summary,
// same errors.
Result<SnapshotCommit> OverwriteFiles(const TableMetadata& base,
                                      const std::vector<std::string>& removed_paths,
                                      const std::vector<DataFile>& added,
                                      const SnapshotSummary& extra_summary, OperationContext ctx);

}  // namespace st::iceberg
