// The icebergUnreferencedFileRemoval job (configured per table bucket, run
// per table): objects under a table's location that nothing the current
// metadata reaches references are noncurrent once older than
// unreferencedDays, and deleted once older than unreferencedDays +
// nonCurrentDays.
//
// "Reaches": the current metadata file, every file of its metadata log, and
// of every remaining snapshot its manifest list, manifests and data and
// delete files (entries of any status, to err towards keeping).
//
// Files a live writer has put but not committed yet (a delivery batch, a
// client's append, a commit's next metadata file) are unreferenced until
// their commit lands; the age rule protects them: unreferencedDays is at
// least 1 day, and a delivery commits within its freshness (at most minutes)
// or drops and deletes its files.
//
// The noncurrent mark is the object's age, not a stored mark: a file that
// was referenced and then stopped being so (e.g. a client's commit dropped
// it without expiring a snapshot) is deleted nonCurrentDays after it became
// older than unreferencedDays, which may be sooner than nonCurrentDays after
// it stopped being referenced.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "catalog/maintenance_model.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/status.h"
#include "storage/object_store.h"

namespace st::maintenance {

struct UnreferencedFileRules {
  std::chrono::days unreferenced{3};
  std::chrono::days non_current{10};
};
// The configured settings over the documented defaults (maintenance_defaults.h).
UnreferencedFileRules UnreferencedRulesFrom(
    const catalog::UnreferencedFileRemovalSettings& settings);

struct UnreferencedFilesOutcome {
  int64_t noncurrent_files = 0;  // Unreferenced, old enough to be noncurrent, kept for now.
  int64_t deleted_files = 0;
  int64_t deleted_bytes = 0;
};

struct UnreferencedFilesContext {
  catalog::TableCommits& commits;
  storage::ObjectStore& objects;
  std::string key_root;  // As TableCommitsOptions::key_root.
  const Clock& clock;    // "Now" for object ages.
};

// A table without metadata is left alone (its files may be a create in
// flight). Errors: reading any reachable manifest list or manifest failed
// (nothing is deleted then: an incomplete reachable set must never delete),
// listing failed; a single delete that fails is skipped.
Result<UnreferencedFilesOutcome> RemoveUnreferencedFiles(const UnreferencedFilesContext& ctx,
                                                         const catalog::Table& table,
                                                         const UnreferencedFileRules& rules);

}  // namespace st::maintenance
