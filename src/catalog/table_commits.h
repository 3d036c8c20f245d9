// The Iceberg commit engine: loads a table's current metadata, creates
// tables with their first metadata file, and commits new metadata versions
// through the store's single compare-and-swap (TableStore::
// SwapMetadataLocation, or the unit of work of CommitWithOffsets), so an Iceberg REST commit, an
// S3 Tables UpdateTableMetadataLocation and a delivery commit can never both
// win against the same version.
//
// Storage layout: a table's warehouse location s3://<wh>--table-s3 maps to
// object keys "<key_root><wh>--table-s3/...", which the S3 read endpoint must
// share (TableFileIO below).
//
// A metadata file is written (never overwritten) before the pointer moves;
// when the swap loses, the file is an orphan that nothing references and is
// deleted best-effort. The pointer is never half-updated.
//
// Thread-safe when the store, object store, clock and random are (all of
// ours are); the engine keeps no per-table state.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/channel_offset_store.h"
#include "catalog/channel_offsets.h"
#include "catalog/metadata_store.h"
#include "catalog/table_store.h"
#include "catalog/unit_of_work.h"
#include "common/clock.h"
#include "common/random.h"
#include "iceberg/file_io.h"
#include "iceberg/table_commit.h"
#include "iceberg/table_update.h"
#include "storage/object_store.h"

namespace st::catalog {

// The FileIO of one table (URIs under its warehouse location).
iceberg::FileIO TableFileIO(storage::ObjectStore& objects, const Table& table,
                            const std::string& key_root);

struct TableCommitsOptions {
  // Prefix of every table's object keys ("" or ending in '/').
  std::string key_root;
  // A commit whose requirements still hold on the newer metadata is re-applied
  // on it this many times after losing the swap (the REST spec lets the
  // server resolve such conflicts); 0 returns the first Conflict.
  int max_conflict_retries = 4;
};

// A table with its current metadata (absent before the first metadata file).
struct LoadedTable {
  Table table;
  std::optional<iceberg::MetadataVersion> metadata;
};

// The initial Iceberg metadata of a new table (S3 Tables CreateTable
// `metadata.iceberg`, Iceberg REST createTable).
struct InitialMetadata {
  iceberg::Schema schema;
  iceberg::PartitionSpec spec;
  iceberg::SortOrder sort_order;
  std::map<std::string, std::string> properties;
};

// Extra context of a commit.
struct CommitOptions {
  // Account id recorded as modified_by.
  std::string account_id;
  // Set by the API layer when the caller is the delivery channel; a streaming
  // table accepts commits only from its own channel.
  std::optional<std::string> acting_channel;
  // With acting_channel: the Kafka offset ranges this commit delivers; the
  // commit then goes through CommitWithOffsets (unit_of_work.h: offset fence).
  OffsetRanges offset_ranges;
};

// The parts of the catalog the engine uses (often one MetadataStore as all).
struct TableCommitsStores {
  TableStore& tables;
  // Read after a lost delivery commit, to tell a fence failure from a race.
  ChannelOffsetStore& offsets;
  // The delivery commit's unit of work.
  UnitOfWorkSource& units;
};

class TableCommits {
 public:
  // Every reference must outlive the engine.
  TableCommits(TableCommitsStores stores, storage::ObjectStore& objects, const Clock& clock,
               Random& random, TableCommitsOptions options = {});
  TableCommits(MetadataStore& store, storage::ObjectStore& objects, const Clock& clock,
               Random& random, TableCommitsOptions options = {})
      : TableCommits(TableCommitsStores{store, store, store}, objects, clock, random,
                     std::move(options)) {}

  // The clock that stamps commits (metadata last-updated-ms, the metadata
  // log). Operations built for a commit through this engine take their
  // snapshot timestamps from it too, so a snapshot is never stamped after
  // the metadata that records it (the maintenance jobs' own clock may carry
  // the test-only offset; readers such as DuckDB pick metadata by time).
  const Clock& clock() const { return clock_; }

  // The table and its parsed current metadata. Errors: NotFound (table, or
  // its metadata file), Corruption (unparseable metadata), Io.
  Result<LoadedTable> LoadTable(const std::string& table_id);

  // Creates the table row and, when `metadata` is given, writes version 0 at
  // the table's warehouse location and points the table at it (if that
  // fails, the row is removed again). Errors: those of
  // TableStore::CreateTable, InvalidArgument (spec/order do not fit the
  // schema), Io.
  Result<LoadedTable> CreateTable(const NewTable& table,
                                  const std::optional<InitialMetadata>& metadata);

  // Gives a table row that has no metadata yet (a staged Iceberg REST create
  // that was never committed, or an S3 Tables CreateTable without metadata)
  // its version 0, as CreateTable does, through the store's compare-and-swap
  // on `table`'s version token. The row stays; nothing is written when the
  // table already has metadata. Errors: AlreadyExists (the table has
  // metadata, or got it concurrently), AccessDenied (a streaming table),
  // NotFound, InvalidArgument, Io.
  Result<LoadedTable> InitializeTable(const Table& table, const InitialMetadata& metadata,
                                      const TableWriter& writer);

  // The Iceberg REST commit: load current → CheckRequirements → ApplyUpdates
  // → write <location>/metadata/<NNNNN>-<uuid>.metadata.json → swap. A table
  // without metadata commits as a create (requirements see no table, so only
  // assert-create holds). Errors: NotFound, Conflict (a requirement failed,
  // or the swap kept losing: REST 409 CommitFailedException), InvalidArgument
  // (bad updates, a location change), AccessDenied (streaming table, not its
  // channel), Conflict from the offset fence (a zombie delivery worker; never
  // retried), CommitStateUnknown, Io.
  Result<LoadedTable> CommitTable(const std::string& table_id,
                                  const std::vector<iceberg::TableRequirement>& requirements,
                                  const std::vector<iceberg::TableUpdate>& updates,
                                  const CommitOptions& options);

  // S3 Tables UpdateTableMetadataLocation: the same swap, for a file the
  // client wrote. `location` must lie under the warehouse location and end in
  // .metadata.json or .metadata.json.gz. Errors: InvalidArgument, NotFound,
  // Conflict (stale token), AccessDenied (streaming table), CommitStateUnknown.
  Result<Table> UpdateTableMetadataLocation(const std::string& table_id,
                                            const std::string& version_token,
                                            const std::string& location, const TableWriter& writer);

 private:
  // Writes version 0 of `metadata` for `table` and swaps it in; *written is
  // the file's location once it exists.
  Result<LoadedTable> WriteFirstMetadata(const Table& table, const InitialMetadata& metadata,
                                         const TableWriter& writer,
                                         std::optional<std::string>* written);

  // One attempt: Conflict from the swap comes back as is.
  Result<LoadedTable> CommitOnce(const std::string& table_id,
                                 const std::vector<iceberg::TableRequirement>& requirements,
                                 const std::vector<iceberg::TableUpdate>& updates,
                                 const CommitOptions& options, bool* lost_swap);

  TableStore& tables_;
  ChannelOffsetStore& offsets_;
  UnitOfWorkSource& units_;
  storage::ObjectStore& objects_;
  const Clock& clock_;
  Random& random_;
  TableCommitsOptions options_;
};

}  // namespace st::catalog
