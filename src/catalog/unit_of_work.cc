// The delivery commit over a unit of work, shared by every backend.
#include "catalog/unit_of_work.h"

#include "catalog/names.h"
#include "catalog/table_guard.h"

namespace st::catalog {

Status ValidateMetadataLocation(const std::string& location) {
  if (location.empty() || location.size() > 2048) {
    return InvalidArgument("A metadata location must be 1 to 2048 characters long.");
  }
  return Status::OK();
}

Status ValidateOffsetRanges(const OffsetRanges& ranges) {
  if (ranges.empty()) {
    return InvalidArgument(
        "A channel commit needs the offset range of at least one "
        "partition.");
  }
  for (const auto& [partition, range] : ranges) {
    if (partition < 0 || range.from < 0 || range.to < range.from) {
      return InvalidArgument("The offset range [" + std::to_string(range.from) + ", " +
                             std::to_string(range.to) + ") of partition " +
                             std::to_string(partition) + " is not valid.");
    }
  }
  return Status::OK();
}

namespace {

// One attempt of CommitWithOffsets on an open unit.
Result<Table> CommitOnce(UnitOfWork& unit, const std::string& table_id,
                         const std::string& expected_version_token,
                         const std::string& new_metadata_location, const std::string& channel_arn,
                         const OffsetRanges& ranges, const std::string& modified_by) {
  ST_ASSIGN_OR_RETURN(Table table, unit.tables().LoadTable(table_id));
  if (table.managed_by_channel != channel_arn) {
    ST_TRY(CheckTableWritable(table, channel_arn, "commit offsets to"));
    return Err(Status(StatusCode::kAccessDenied,
                      "Table " + table.namespace_name + "." + table.name +
                          " is not a streaming table of channel " + channel_arn + "."));
  }
  // The fence comes before the swap, so a zombie writer learns about the
  // offsets (its actual problem) even when its token is stale as well.
  ST_TRY(unit.channel_offsets().AdvanceChannelOffsets(channel_arn, table_id, ranges));
  ST_ASSIGN_OR_RETURN(Table swapped, unit.tables().SwapMetadataLocation(
                                         table_id, expected_version_token, new_metadata_location,
                                         TableWriter{modified_by, channel_arn}));
  ST_TRY(unit.Commit());
  return swapped;
}

}  // namespace

Result<Table> CommitWithOffsets(UnitOfWorkSource& store, const std::string& table_id,
                                const std::string& expected_version_token,
                                const std::string& new_metadata_location,
                                const std::string& channel_arn, const OffsetRanges& ranges,
                                const std::string& modified_by) {
  ST_TRY(ValidateMetadataLocation(new_metadata_location));
  ST_TRY(ValidateAccountId(modified_by));
  if (channel_arn.empty()) return Err(InvalidArgument("A channel commit needs the channel ARN."));
  ST_TRY(ValidateOffsetRanges(ranges));
  for (int attempt = 1;; ++attempt) {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<UnitOfWork> unit, store.BeginUnitOfWork());
    Result<Table> committed = CommitOnce(*unit, table_id, expected_version_token,
                                         new_metadata_location, channel_arn, ranges, modified_by);
    if (committed.has_value() || !unit->ShouldRetry() || attempt == kCommitAttempts) {
      return committed;
    }
  }
}

}  // namespace st::catalog
