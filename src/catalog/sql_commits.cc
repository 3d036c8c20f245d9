// The metadata-pointer compare-and-swap, the offset fence of the delivery
// commit (staged by a unit of work, sql_unit_of_work.cc) and the channel
// offsets in the SQLite store.
#include "catalog/id_generation.h"
#include "catalog/names.h"
#include "catalog/sql_metadata_store_internal.h"
#include "catalog/table_guard.h"
#include "catalog/unit_of_work.h"

namespace st::catalog::sqlstore {

namespace {

Status ChannelNotInitialised(const std::string& channel_arn) {
  return FailedPrecondition("The offsets of channel " + channel_arn +
                            " were never initialised; call InitChannelOffsets when the channel "
                            "is created.");
}

}  // namespace

Result<Table> SqlMetadataStore::SwapLocked(const std::string& table_id,
                                           const std::string& expected_version_token,
                                           const std::string& new_metadata_location,
                                           const TableWriter& writer) {
  ST_ASSIGN_OR_RETURN(Table table, LoadTable(table_id));
  ST_TRY(CheckTableWritable(table, writer.acting_channel, "update the metadata of"));
  if (expected_version_token != table.version_token) {
    return Err(Conflict("Provided version token does not match the table version token."));
  }
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("UPDATE tables SET metadata_location = ?, version_token = ?, "
                                   "modified_at_ms = ?, modified_by = ? "
                                   "WHERE table_id = ? AND version_token = ?"));
  ST_TRY(stmt.Bind(1, new_metadata_location)
             .Bind(2, NewVersionToken(random_))
             .Bind(3, NowMs())
             .Bind(4, writer.account_id)
             .Bind(5, table_id)
             .Bind(6, expected_version_token)
             .Run());
  if (db_->Changes() != 1) {
    return Err(Internal("the pointer swap of table " + table_id +
                        " changed no row inside its own transaction"));
  }
  return LoadTable(table_id);
}

Result<Table> SqlMetadataStore::SwapMetadataLocation(const std::string& table_id,
                                                     const std::string& expected_version_token,
                                                     const std::string& new_metadata_location,
                                                     const TableWriter& writer) {
  ST_TRY(ValidateMetadataLocation(new_metadata_location));
  ST_TRY(ValidateAccountId(writer.account_id));
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Result<Table> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(
        Table table, SwapLocked(table_id, expected_version_token, new_metadata_location, writer));
    ST_TRY(txn.Commit(StatusCode::kCommitStateUnknown));
    return table;
  });
}

Status SqlMetadataStore::AdvanceOffsetsLocked(const std::string& channel_arn,
                                              const std::string& table_id,
                                              const OffsetRanges& ranges) {
  if (channel_arn.empty()) return InvalidArgument("A channel commit needs the channel ARN.");
  ST_TRY(ValidateOffsetRanges(ranges));
  ST_ASSIGN_OR_RETURN(Statement start, db_->Prepare("SELECT default_start_offset FROM "
                                                    "channel_offset_starts WHERE channel_arn = ?"));
  ST_ASSIGN_OR_RETURN(bool initialised, start.Bind(1, channel_arn).Step());
  if (!initialised) return ChannelNotInitialised(channel_arn);
  const KafkaOffset default_start = start.Int64(0);
  for (const auto& [partition, range] : ranges) {
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("SELECT next_offset FROM channel_offsets WHERE "
                                     "channel_arn = ? AND kafka_partition = ?"));
    ST_ASSIGN_OR_RETURN(bool has_row,
                        stmt.Bind(1, channel_arn).Bind(2, static_cast<int64_t>(partition)).Step());
    KafkaOffset expected = has_row ? stmt.Int64(0) : default_start;
    if (range.from != expected) {
      return Conflict("Offset fence: partition " + std::to_string(partition) + " of channel " +
                      channel_arn + " continues at offset " + std::to_string(expected) +
                      " but this commit starts at " + std::to_string(range.from) +
                      "; another worker owns the partition now. Re-read the offsets and "
                      "seek there instead of committing.");
    }
  }
  for (const auto& [partition, range] : ranges) {
    ST_ASSIGN_OR_RETURN(
        Statement stmt,
        db_->Prepare("INSERT INTO channel_offsets(channel_arn, kafka_partition, table_id, "
                     "next_offset) VALUES (?, ?, ?, ?) ON CONFLICT(channel_arn, kafka_partition) "
                     "DO UPDATE SET next_offset = excluded.next_offset, table_id = "
                     "excluded.table_id"));
    ST_TRY(stmt.Bind(1, channel_arn)
               .Bind(2, static_cast<int64_t>(partition))
               .Bind(3, table_id)
               .Bind(4, range.to)
               .Run());
  }
  return Status::OK();
}

Status SqlMetadataStore::InitChannelOffsets(const std::string& channel_arn,
                                            const NextOffsets& start_offsets,
                                            KafkaOffset default_start_offset) {
  if (channel_arn.empty()) return InvalidArgument("Channel offsets need the channel ARN.");
  if (default_start_offset < 0) return InvalidArgument("A start offset cannot be negative.");
  for (const auto& [partition, offset] : start_offsets) {
    if (partition < 0 || offset < 0) {
      return InvalidArgument("The start offset " + std::to_string(offset) + " of partition " +
                             std::to_string(partition) + " is not valid.");
    }
  }
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(Statement start,
                        db_->Prepare("INSERT INTO channel_offset_starts(channel_arn, "
                                     "default_start_offset, created_at_ms) VALUES (?, ?, ?)"));
    Status status = start.Bind(1, channel_arn).Bind(2, default_start_offset).Bind(3, NowMs()).Run();
    if (status.code() == StatusCode::kAlreadyExists) {
      return AlreadyExists("The offsets of channel " + channel_arn +
                           " are already initialised; delete them first to start over.");
    }
    ST_TRY(status);
    for (const auto& [partition, offset] : start_offsets) {
      ST_ASSIGN_OR_RETURN(Statement stmt,
                          db_->Prepare("INSERT INTO channel_offsets(channel_arn, kafka_partition, "
                                       "table_id, next_offset) VALUES (?, ?, NULL, ?)"));
      ST_TRY(
          stmt.Bind(1, channel_arn).Bind(2, static_cast<int64_t>(partition)).Bind(3, offset).Run());
    }
    return txn.Commit();
  });
}

Result<NextOffsets> SqlMetadataStore::GetChannelOffsets(const std::string& channel_arn) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement start, db_->Prepare("SELECT 1 FROM channel_offset_starts WHERE "
                                                    "channel_arn = ?"));
  ST_ASSIGN_OR_RETURN(bool initialised, start.Bind(1, channel_arn).Step());
  if (!initialised)
    return Err(NotFound("The offsets of channel " + channel_arn + " do not exist."));
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("SELECT kafka_partition, next_offset FROM "
                                                   "channel_offsets WHERE channel_arn = ?"));
  stmt.Bind(1, channel_arn);
  NextOffsets out;
  ST_TRY(stmt.ForEachRow([&](const Statement& row) {
    out[static_cast<KafkaPartition>(row.Int64(0))] = row.Int64(1);
  }));
  return out;
}

Result<KafkaOffset> SqlMetadataStore::GetChannelOffset(const std::string& channel_arn,
                                                       KafkaPartition partition) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("SELECT s.default_start_offset, o.next_offset FROM channel_offset_starts s "
                   "LEFT JOIN channel_offsets o ON o.channel_arn = s.channel_arn AND "
                   "o.kafka_partition = ? WHERE s.channel_arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found,
                      stmt.Bind(1, static_cast<int64_t>(partition)).Bind(2, channel_arn).Step());
  if (!found) return Err(NotFound("The offsets of channel " + channel_arn + " do not exist."));
  std::optional<std::string> next = stmt.OptionalText(1);
  return next.has_value() ? stmt.Int64(1) : stmt.Int64(0);
}

Status SqlMetadataStore::DeleteChannelOffsets(const std::string& channel_arn) {
  ConnectionLock lock(*this);
  return DeleteChannelOffsetsLocked(channel_arn);
}

Status SqlMetadataStore::DeleteChannelOffsetsLocked(const std::string& channel_arn) {
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("DELETE FROM channel_offset_starts WHERE channel_arn = ?"));
  return stmt.Bind(1, channel_arn).Run();
}

}  // namespace st::catalog::sqlstore
