// UnitOfWork: writes to several catalog entities that must happen together,
// staged through per-entity views and made visible by one Commit(). The
// delivery commit is the reason it exists: the table's metadata pointer swap
// and the channel's Kafka offsets advance atomically, or not at all
// (docs/ARCHITECTURE.md "Exactly-once delivery"); CommitWithOffsets below is that
// flow, written once over the interface so every backend gets the same
// checks in the same order.
//
// A backend maps a unit to one database transaction (SQLite: one BEGIN
// IMMEDIATE ... COMMIT; PostgreSQL: one transaction). Single-entity writes do
// not need a unit: each store method is already atomic on its own.
//
// Lifetime and errors:
//  - Open one with UnitOfWorkSource::BeginUnitOfWork(); destroying it
//    without a successful Commit() rolls everything back.
//  - Reads through a view see the unit's own staged writes.
//  - Sticky failure: once a staged write fails, every later call (Commit
//    included) returns that error and nothing is committed.
//  - After Commit() (successful or not) the unit is finished: further calls
//    return FailedPrecondition.
//
// Thread-safety: a unit belongs to the thread that opened it. While it is
// open it holds the backend's write lock: other threads' writes to the same
// store (SQLite: every call, since one connection serves the store) wait
// until it ends, and the opening thread must not call the store itself
// (SQLite: a broken invariant that aborts instead of deadlocking). Keep
// units short: no object-store, network or Kafka I/O while one is open.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "catalog/channel_offsets.h"
#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

// Table writes a unit can stage (see table_store.h for the entity).
class TableWrites {
 public:
  virtual ~TableWrites() = default;

  // The table as this unit sees it. Errors: NotFound.
  virtual Result<Table> LoadTable(const std::string& table_id) = 0;
  // TableStore::SwapMetadataLocation's check and pointer swap, staged.
  // Errors: as there, except CommitStateUnknown (only Commit() returns it).
  virtual Result<Table> SwapMetadataLocation(const std::string& table_id,
                                             const std::string& expected_version_token,
                                             const std::string& new_metadata_location,
                                             const TableWriter& writer) = 0;
  // TableStore::DeleteTable, staged. Errors: NotFound, Conflict (stale token).
  virtual Status DeleteTable(const std::string& table_id,
                             const std::optional<std::string>& expected_version_token) = 0;
};

// Channel offset writes a unit can stage (see channel_offset_store.h).
class ChannelOffsetWrites {
 public:
  virtual ~ChannelOffsetWrites() = default;

  // The offset fence of a delivery commit: every range's `from` must equal
  // the channel's next offset for that partition (a partition without a
  // row: the channel's default start offset); then each partition's next
  // offset becomes its `to`, recorded as delivered into `table_id`. Errors:
  // InvalidArgument (ValidateOffsetRanges), FailedPrecondition (offsets never
  // initialised), Conflict (offset mismatch: a zombie writer).
  virtual Status AdvanceChannelOffsets(const std::string& channel_arn, const std::string& table_id,
                                       const OffsetRanges& ranges) = 0;
  // ChannelOffsetStore::DeleteChannelOffsets, staged; idempotent.
  virtual Status DeleteChannelOffsets(const std::string& channel_arn) = 0;
};

class UnitOfWork {
 public:
  // Rolls back unless Commit() succeeded.
  virtual ~UnitOfWork() = default;

  virtual TableWrites& tables() = 0;
  virtual ChannelOffsetWrites& channel_offsets() = 0;

  // Makes every staged write visible at once. Errors: the sticky error of a
  // failed staged write (nothing committed), FailedPrecondition (already
  // finished), Unavailable (the database stayed busy; nothing committed),
  // CommitStateUnknown (the database failed while committing a unit that
  // swapped a metadata pointer: re-read, do not blindly retry), Io (the same
  // failure for any other unit).
  virtual Status Commit() = 0;

  // After a failure (of a staged write or of Commit): true when the backend
  // knows nothing was committed and the failure came from a concurrent
  // transaction or a lost connection (PostgreSQL 40001/40P01, or the
  // connection lost before COMMIT), so running the whole unit again from
  // fresh reads is safe and likely to succeed. Never true for
  // CommitStateUnknown. SQLite (one writer at a time) never asks for it.
  virtual bool ShouldRetry() const { return false; }
};

class UnitOfWorkSource {
 public:
  virtual ~UnitOfWorkSource() = default;

  // Opens a unit (takes the write lock up front, so no staged write fails
  // half-way for a lock upgrade). Errors: Unavailable (another writer held
  // the database past the busy timeout), Io.
  virtual Result<std::unique_ptr<UnitOfWork>> BeginUnitOfWork() = 0;
};

// A metadata location: 1 to 2048 characters. Errors: InvalidArgument.
Status ValidateMetadataLocation(const std::string& location);

// Offset ranges of a delivery commit: at least one partition, partitions and
// offsets non-negative, from <= to. Errors: InvalidArgument.
Status ValidateOffsetRanges(const OffsetRanges& ranges);

// The exactly-once delivery commit, as one unit of work: the table must be
// managed by `channel_arn`, its token must equal `expected_version_token`
// and the channel's offsets must pass AdvanceChannelOffsets' fence; then the
// pointer is swapped and the offsets advance. Errors: InvalidArgument
// (location, account id, empty channel ARN or ranges, bad range), NotFound,
// AccessDenied (not the table's channel), FailedPrecondition (offsets never
// initialised), Conflict (stale token or offset mismatch; nothing changed),
// Unavailable, CommitStateUnknown. A unit that fails with ShouldRetry() is
// run again from its reads, up to kCommitAttempts times in all: the fence
// and the token are re-checked each time, so a retry never applies a
// commit twice.
inline constexpr int kCommitAttempts = 5;
Result<Table> CommitWithOffsets(UnitOfWorkSource& store, const std::string& table_id,
                                const std::string& expected_version_token,
                                const std::string& new_metadata_location,
                                const std::string& channel_arn, const OffsetRanges& ranges,
                                const std::string& modified_by);

}  // namespace st::catalog
