// The channel's streaming table: created on first delivery, owned by the
// channel, tagged TableName=<table>; a same-name table the channel does not
// own fails the channel; a deleted one suspends it.
#include "catalog/maintenance_model.h"
#include "delivery/channel_worker.h"
#include "delivery/service_role.h"
#include "iceberg/table_update.h"

namespace st::delivery {

namespace {

// write.metadata.previous-versions-max of a streaming table (Iceberg: 100).
constexpr int kStreamingPreviousVersionsMax = 10;

std::string TableLabel(const ChannelConfig& config) {
  return config.namespace_name + "." + config.table_name + " in " + config.table_bucket_arn;
}

}  // namespace

void ChannelWorker::TagTable(const std::string& table_arn) {
  if (Status tagged = ctx_.store.TagResource(table_arn, {{"TableName", config_.table_name}});
      !tagged.ok()) {
    ctx_.logger.Log(LogLevel::kWarn, "table_tag_failed",
                    {{"channel", channel_.arn}, {"error", tagged.ToString()}});
  }
}

Status ChannelWorker::OpenWriter(const catalog::LoadedTable& loaded) {
  if (!loaded.metadata.has_value()) {
    return FailedPrecondition("The table " + TableLabel(config_) + " has no metadata yet.");
  }
  auto io = std::make_unique<iceberg::FileIO>(
      catalog::TableFileIO(ctx_.objects, loaded.table, ctx_.key_root));
  std::string location = loaded.metadata->metadata.location;
  while (!location.empty() && location.back() == '/') location.pop_back();
  ST_ASSIGN_OR_RETURN(std::unique_ptr<BatchWriter> writer,
                      ctx_.format.NewWriter(config_, loaded.metadata->metadata, location + "/data",
                                            *io, ctx_.random));
  io_ = std::move(io);
  writer_ = std::move(writer);
  table_ = loaded.table;
  horizon_stale_ = true;
  return Status::OK();
}

Status ChannelWorker::RefreshExpirationHorizon() {
  if (!table_ || !writer_) return Status::OK();
  ST_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                      ctx_.store.GetTableRecordExpiration(table_->table_id));
  std::optional<int64_t> horizon;
  if (stored.has_value()) {
    // The store holds only values its API surface validated; one it cannot
    // parse is treated as disabled rather than stopping delivery.
    Result<catalog::RecordExpirationConfiguration> config =
        catalog::ParseRecordExpirationValue(*stored);
    if (config.has_value() && config->enabled() && config->days.has_value() &&
        config->days->count() > 0) {
      horizon = std::chrono::duration_cast<std::chrono::microseconds>(
                    (ctx_.clock.Now() -
                     std::chrono::duration_cast<std::chrono::system_clock::duration>(*config->days))
                        .time_since_epoch())
                    .count();
    }
  }
  writer_->SetExpirationHorizon(horizon);
  horizon_stale_ = false;
  return Status::OK();
}

Result<std::optional<RecordFailure>> ChannelWorker::EnsureTable(const ConsumedRecord& first) {
  using catalog::ChannelStatus;
  const std::string& role = config_.service_execution_role.arn;
  const std::string& role_account = config_.service_execution_role.account_id;
  if (!channel_.table_id.empty()) {
    Result<catalog::LoadedTable> loaded = ctx_.commits.LoadTable(channel_.table_id);
    if (!loaded.has_value() && loaded.error().code() == StatusCode::kNotFound) {
      SetFault(ChannelStatus::kSuspended, catalog::ChannelStateCode::kTableDeleted,
               "The destination table " + TableLabel(config_) +
                   " was deleted; create a new channel to deliver to a new table.");
      return std::optional<RecordFailure>();
    }
    if (!loaded.has_value()) return Err(loaded.error());
    ST_TRY(OpenWriter(*loaded));
    return std::optional<RecordFailure>();
  }

  auto denied = [&](const Status& status) {
    SetFault(ChannelStatus::kFailed, catalog::ChannelStateCode::kAccessDenied, status.message());
  };
  Result<catalog::Namespace> ns =
      ctx_.store.GetNamespace(config_.table_bucket_arn, config_.namespace_name);
  if (!ns.has_value() && ns.error().code() == StatusCode::kNotFound) {
    Status allowed = AuthorizeAsRole(ctx_.authorizer, role, role_account,
                                     "s3tables:CreateNamespace", config_.table_bucket_arn);
    if (allowed.code() == StatusCode::kAccessDenied) {
      denied(allowed);
      return std::optional<RecordFailure>();
    }
    ST_TRY(allowed);
    Result<catalog::Namespace> created = ctx_.store.CreateNamespace(
        config_.table_bucket_arn, config_.namespace_name, channel_.owner_account_id);
    if (!created.has_value() && created.error().code() != StatusCode::kAlreadyExists) {
      return Err(created.error());
    }
  } else if (!ns.has_value()) {
    return Err(ns.error());
  }

  Result<catalog::Table> existing =
      ctx_.store.GetTable(config_.table_bucket_arn, config_.namespace_name, config_.table_name);
  if (existing.has_value()) {
    if (existing->managed_by_channel != channel_.arn) {
      SetFault(ChannelStatus::kFailed, catalog::ChannelStateCode::kTableAlreadyExists,
               "The destination table " + TableLabel(config_) +
                   " already exists and is not managed by this channel; delete it or choose "
                   "another destinationTableName.");
      return std::optional<RecordFailure>();
    }
    // Created by this channel before a crash cut its bookkeeping short: the
    // tag and the channel's table id may be missing; both are idempotent.
    ST_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, ctx_.commits.LoadTable(existing->table_id));
    TagTable(existing->arn);
    ST_TRY(OpenWriter(loaded));
  } else if (existing.error().code() != StatusCode::kNotFound) {
    return Err(existing.error());
  } else {
    Status allowed = AuthorizeAsRole(ctx_.authorizer, role, role_account, "s3tables:CreateTable",
                                     config_.table_bucket_arn,
                                     {{"s3tables:namespace", {config_.namespace_name}},
                                      {"s3tables:tableName", {config_.table_name}},
                                      {"aws:RequestTag/TableName", {config_.table_name}},
                                      {"aws:TagKeys", {"TableName"}}});
    if (allowed.code() == StatusCode::kAccessDenied) {
      denied(allowed);
      return std::optional<RecordFailure>();
    }
    ST_TRY(allowed);
    ST_ASSIGN_OR_RETURN(LayoutOutcome layout, ctx_.format.Layout(config_, first));
    if (layout.failure) return layout.failure;
    if (!layout.layout) return Err(Internal("the record format returned no table layout"));
    catalog::NewTable spec;
    spec.bucket_arn = config_.table_bucket_arn;
    spec.namespace_name = config_.namespace_name;
    spec.name = config_.table_name;
    spec.created_by = channel_.owner_account_id;
    spec.managed_by_channel = channel_.arn;
    catalog::InitialMetadata metadata{
        layout.layout->schema,
        layout.layout->spec,
        iceberg::SortOrder::Unsorted(),
        {{"write.parquet.compression-codec",
          std::string(catalog::IcebergCompressionCodec(config_.compression))},
         {"streamtables.channel-arn", channel_.arn},
         // A streaming table commits every few seconds: Iceberg's default
         // of 100 logged versions would be 100 entries rewritten on every
         // commit. Snapshot expiration deletes the files that fall off.
         {iceberg::kMetadataPreviousVersionsMax, std::to_string(kStreamingPreviousVersionsMax)}}};
    ST_ASSIGN_OR_RETURN(catalog::LoadedTable created, ctx_.commits.CreateTable(spec, metadata));
    TagTable(created.table.arn);
    ctx_.logger.Log(LogLevel::kInfo, "table_created",
                    {{"channel", channel_.arn}, {"table", created.table.arn}});
    ST_TRY(OpenWriter(created));
  }
  catalog::ChannelChange change;
  change.table_id = table_->table_id;
  Result<catalog::Channel> updated = ctx_.store.UpdateChannel(channel_.arn, change);
  if (!updated.has_value()) return Err(updated.error());
  channel_.table_id = table_->table_id;
  return std::optional<RecordFailure>();
}

}  // namespace st::delivery
