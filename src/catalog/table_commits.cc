#include "catalog/table_commits.h"

#include <utility>

#include "catalog/id_generation.h"
#include "catalog/table_guard.h"
#include "common/uuid.h"
#include "iceberg/table_paths.h"

namespace st::catalog {

namespace {

std::string WithoutTrailingSlash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

// Whether a failed swap certainly left the pointer alone, so the new
// metadata file is an orphan that may be deleted.
bool SwapDefinitelyFailed(StatusCode code) {
  switch (code) {
    case StatusCode::kConflict:
    case StatusCode::kNotFound:
    case StatusCode::kAccessDenied:
    case StatusCode::kInvalidArgument:
    case StatusCode::kFailedPrecondition:
    case StatusCode::kUnavailable:  // The transaction never began or was rolled back.
      return true;
    default:
      return false;
  }
}

}  // namespace

iceberg::FileIO TableFileIO(storage::ObjectStore& objects, const Table& table,
                            const std::string& key_root) {
  return iceberg::FileIO(objects, table.warehouse_location,
                         key_root + WarehouseBucketName(table.warehouse_location));
}

TableCommits::TableCommits(TableCommitsStores stores, storage::ObjectStore& objects,
                           const Clock& clock, Random& random, TableCommitsOptions options)
    : tables_(stores.tables),
      offsets_(stores.offsets),
      units_(stores.units),
      objects_(objects),
      clock_(clock),
      random_(random),
      options_(std::move(options)) {}

Result<LoadedTable> TableCommits::LoadTable(const std::string& table_id) {
  ST_ASSIGN_OR_RETURN(Table table, tables_.GetTableById(table_id));
  LoadedTable out{std::move(table), std::nullopt};
  if (out.table.metadata_location.has_value()) {
    iceberg::FileIO io = TableFileIO(objects_, out.table, options_.key_root);
    ST_ASSIGN_OR_RETURN(out.metadata, iceberg::ReadMetadata(io, *out.table.metadata_location));
  }
  return out;
}

Result<LoadedTable> TableCommits::WriteFirstMetadata(const Table& table,
                                                     const InitialMetadata& metadata,
                                                     const TableWriter& writer,
                                                     std::optional<std::string>* written) {
  ST_TRY(iceberg::CheckLocationProperties(metadata.properties, table.warehouse_location));
  iceberg::FileIO io = TableFileIO(objects_, table, options_.key_root);
  ST_ASSIGN_OR_RETURN(
      iceberg::TableMetadata initial,
      iceberg::NewTableMetadata(metadata.schema, metadata.spec, metadata.sort_order,
                                table.warehouse_location, metadata.properties,
                                Uuid::Generate(random_).ToString(), clock_.NowMillis()));
  ST_ASSIGN_OR_RETURN(iceberg::MetadataVersion version,
                      iceberg::WriteInitialMetadata(io, std::move(initial), random_));
  *written = version.location;
  ST_ASSIGN_OR_RETURN(
      Table swapped,
      tables_.SwapMetadataLocation(table.table_id, table.version_token, version.location, writer));
  return LoadedTable{std::move(swapped), std::move(version)};
}

Result<LoadedTable> TableCommits::CreateTable(const NewTable& spec,
                                              const std::optional<InitialMetadata>& metadata) {
  ST_ASSIGN_OR_RETURN(Table table, tables_.CreateTable(spec));
  if (!metadata.has_value()) return LoadedTable{std::move(table), std::nullopt};

  std::optional<std::string> written;
  Result<LoadedTable> created = WriteFirstMetadata(
      table, *metadata, TableWriter{spec.created_by, spec.managed_by_channel}, &written);
  if (!created.has_value()) {
    // A table that failed to get its first metadata must not linger half-made.
    (void)tables_.DeleteTable(table.table_id, std::nullopt);
    if (written.has_value() && SwapDefinitelyFailed(created.error().code())) {
      iceberg::FileIO io = TableFileIO(objects_, table, options_.key_root);
      (void)io.Delete(*written);
    }
  }
  return created;
}

Result<LoadedTable> TableCommits::InitializeTable(const Table& table,
                                                  const InitialMetadata& metadata,
                                                  const TableWriter& writer) {
  auto exists = [&] {
    return AlreadyExists("Table already exists: " + table.namespace_name + "." + table.name +
                         " (it has metadata); load it, or create under another name.");
  };
  if (table.metadata_location.has_value()) return Err(exists());
  ST_TRY(CheckTableWritable(table, writer.acting_channel, "create a table over"));
  std::optional<std::string> written;
  Result<LoadedTable> initialized = WriteFirstMetadata(table, metadata, writer, &written);
  if (!initialized.has_value()) {
    if (written.has_value() && SwapDefinitelyFailed(initialized.error().code())) {
      iceberg::FileIO io = TableFileIO(objects_, table, options_.key_root);
      (void)io.Delete(*written);
    }
    // Lost the swap: someone committed the table's first metadata meanwhile.
    if (initialized.error().code() == StatusCode::kConflict) return Err(exists());
  }
  return initialized;
}

Result<LoadedTable> TableCommits::CommitOnce(
    const std::string& table_id, const std::vector<iceberg::TableRequirement>& requirements,
    const std::vector<iceberg::TableUpdate>& updates, const CommitOptions& options,
    bool* lost_swap) {
  *lost_swap = false;
  ST_ASSIGN_OR_RETURN(LoadedTable current, LoadTable(table_id));
  const Table& table = current.table;
  ST_TRY(CheckTableWritable(table, options.acting_channel, "commit to"));
  const iceberg::TableMetadata* base =
      current.metadata.has_value() ? &current.metadata->metadata : nullptr;
  ST_TRY(iceberg::CheckRequirements(requirements, base));

  ST_ASSIGN_OR_RETURN(
      iceberg::TableMetadata next,
      iceberg::ApplyUpdates(base ? *base : iceberg::TableMetadata{}, updates, clock_.NowMillis()));
  if (base == nullptr) {
    if (next.location.empty()) next.location = table.warehouse_location;
    if (next.table_uuid.empty()) next.table_uuid = Uuid::Generate(random_).ToString();
  }
  if (WithoutTrailingSlash(next.location) != WithoutTrailingSlash(table.warehouse_location)) {
    return Err(InvalidArgument("The location of table " + table.namespace_name + "." + table.name +
                               " is fixed at its warehouse location " + table.warehouse_location +
                               "; remove the set-location update."));
  }
  ST_TRY(iceberg::CheckLocationProperties(next.properties, table.warehouse_location));

  iceberg::FileIO io = TableFileIO(objects_, table, options_.key_root);
  iceberg::MetadataVersion version;
  if (current.metadata.has_value()) {
    ST_ASSIGN_OR_RETURN(
        iceberg::NewVersion written,
        iceberg::WriteNextMetadata(io, *current.metadata, std::move(next), random_));
    version = std::move(written.version);
  } else {
    ST_ASSIGN_OR_RETURN(version, iceberg::WriteInitialMetadata(io, std::move(next), random_));
  }

  Result<Table> swapped =
      options.offset_ranges.empty()
          ? tables_.SwapMetadataLocation(table_id, table.version_token, version.location,
                                         TableWriter{options.account_id, options.acting_channel})
          // CommitTable refuses offset ranges without an acting channel.
          : CommitWithOffsets(units_, table_id, table.version_token, version.location,
                              *options.acting_channel, options.offset_ranges, options.account_id);
  if (!swapped.has_value()) {
    if (SwapDefinitelyFailed(swapped.error().code())) (void)io.Delete(version.location);
    if (swapped.error().code() == StatusCode::kConflict) {
      *lost_swap = true;
      if (!options.offset_ranges.empty()) {
        // A fence failure means another worker owns a partition: never retry it.
        for (const auto& [partition, range] : options.offset_ranges) {
          auto next_offset = offsets_.GetChannelOffset(*options.acting_channel, partition);
          if (!next_offset.has_value() || *next_offset != range.from) *lost_swap = false;
        }
      }
    }
    return Err(swapped.error());
  }
  return LoadedTable{*std::move(swapped), std::move(version)};
}

Result<LoadedTable> TableCommits::CommitTable(
    const std::string& table_id, const std::vector<iceberg::TableRequirement>& requirements,
    const std::vector<iceberg::TableUpdate>& updates, const CommitOptions& options) {
  if (!options.offset_ranges.empty() && !options.acting_channel.has_value()) {
    return Err(InvalidArgument("Offset ranges can only be committed by a delivery channel."));
  }
  for (int attempt = 0;; ++attempt) {
    bool lost_swap = false;
    Result<LoadedTable> result = CommitOnce(table_id, requirements, updates, options, &lost_swap);
    if (result.has_value() || !lost_swap || attempt >= options_.max_conflict_retries) {
      return result;
    }
  }
}

Result<Table> TableCommits::UpdateTableMetadataLocation(const std::string& table_id,
                                                        const std::string& version_token,
                                                        const std::string& location,
                                                        const TableWriter& writer) {
  ST_ASSIGN_OR_RETURN(Table table, tables_.GetTableById(table_id));
  ST_TRY(CheckTableWritable(table, writer.acting_channel, "update the metadata location of"));
  ST_TRY(iceberg::CheckLocationUnder(location, table.warehouse_location, "The metadata location"));
  if (!(location.ends_with(".metadata.json") || location.ends_with(".metadata.json.gz"))) {
    return Err(InvalidArgument("The metadata location '" + location +
                               "' is not valid: it must be " +
                               "under the table's warehouse location " + table.warehouse_location +
                               " and end in .metadata.json or .metadata.json.gz."));
  }
  return tables_.SwapMetadataLocation(table_id, version_token, location, writer);
}

}  // namespace st::catalog
