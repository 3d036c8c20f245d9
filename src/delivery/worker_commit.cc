// A batch's way out: dead letters first (S3 object, then the optional Kafka
// topic), then one catalog transaction with the data files and the offset
// ranges. A failed record counts as delivered in the same commit that
// advances past it, so the dead letters must be durable before that commit.
#include <algorithm>
#include <map>

#include "catalog/channel_records.h"
#include "delivery/channel_worker.h"
#include "delivery/dlq_record.h"
#include "delivery/service_role.h"
#include "iceberg/append.h"
#include "iceberg/table_update.h"

namespace st::delivery {

namespace {

constexpr std::chrono::seconds kDlqFlushTimeout{30};

std::string RangesText(const catalog::OffsetRanges& ranges) {
  std::string out;
  for (const auto& [partition, range] : ranges) {
    if (!out.empty()) out += ',';
    out += std::to_string(partition) + ":" + std::to_string(range.from) + "-" +
           std::to_string(range.to);
  }
  return out;
}

}  // namespace

Status ChannelWorker::WriteDeadLetters() {
  if (failures_.empty()) return Status::OK();
  ST_ASSIGN_OR_RETURN(catalog::GeneralPurposeBucket bucket,
                      ctx_.store.GetGeneralPurposeBucket(config_.dlq_bucket_name));
  (void)bucket;
  std::map<catalog::KafkaPartition, std::vector<const std::pair<ConsumedRecord, RecordFailure>*>>
      by_partition;
  for (const auto& entry : failures_) by_partition[entry.first.partition].push_back(&entry);
  for (const auto& [partition, entries] : by_partition) {
    const ConsumedRecord& first = entries.front()->first;
    std::string key =
        DlqObjectKey(config_.dlq_prefix(), channel_.name, channel_.channel_id, partition,
                     first.offset, entries.back()->first.offset, first.timestamp_ms);
    ST_TRY(AuthorizeAsRole(ctx_.authorizer, config_.service_execution_role.arn,
                           config_.service_execution_role.account_id, "s3:PutObject",
                           config_.dlq_bucket_arn + "/" + key));
    std::string body;
    for (const auto* entry : entries) {
      body += DlqJsonLine(entry->first, entry->second, channel_.arn);
      body += '\n';
    }
    std::string object = catalog::GeneralPurposeBucketKeyPrefix(config_.dlq_bucket_name) + key;
    ST_TRY(ctx_.objects.Put(object, body));
    dlq_keys_.push_back(std::move(object));
  }
  return WriteDeadLetterTopic();
}

void ChannelWorker::DeleteDeadLetters(const catalog::OffsetRanges& ranges) {
  // Keys are cut from the records' offsets: only while the catalog shows
  // nobody committed past `from` can no committed batch own the same key.
  bool untouched = true;
  for (const auto& [partition, range] : ranges) {
    Result<catalog::KafkaOffset> next = ctx_.store.GetChannelOffset(channel_.arn, partition);
    untouched = untouched && next.has_value() && *next == range.from;
  }
  if (untouched) {
    for (const std::string& key : dlq_keys_) (void)ctx_.objects.Delete(key);
  }
  dlq_keys_.clear();
}

Status ChannelWorker::WriteDeadLetterTopic() {
  if (!config_.dlq_topic) return Status::OK();
  if (!dlq_producer_) {
    ST_ASSIGN_OR_RETURN(dlq_producer_, ctx_.kafka.NewProducer(cluster_));
  }
  for (const auto& [record, failure] : failures_) {
    std::vector<RecordHeader> headers = record.headers;
    headers.push_back({"streamtables.error.code", failure.code});
    headers.push_back({"streamtables.error.message", failure.message});
    headers.push_back({"streamtables.source.topic", record.topic});
    headers.push_back({"streamtables.source.partition", std::to_string(record.partition)});
    headers.push_back({"streamtables.source.offset", std::to_string(record.offset)});
    headers.push_back({"streamtables.channel.arn", channel_.arn});
    ST_TRY(dlq_producer_->Produce(*config_.dlq_topic, record.key, record.value, headers));
  }
  return dlq_producer_->Flush(kDlqFlushTimeout);
}

Status ChannelWorker::AuthorizeTableWrite() {
  for (const char* action : {"s3tables:PutTableData", "s3tables:UpdateTableMetadataLocation"}) {
    ST_TRY(AuthorizeAsRole(ctx_.authorizer, config_.service_execution_role.arn,
                           config_.service_execution_role.account_id, action, table_->arn,
                           {{"s3tables:namespace", {table_->namespace_name}},
                            {"s3tables:tableName", {table_->name}},
                            {"aws:ResourceTag/TableName", {table_->name}}}));
  }
  // An SSE-KMS table: S3 asks KMS for a data key per object and to unwrap
  // it on reads, on the role's behalf (kms:ViaService = the S3 service).
  if (table_->encryption.sse_algorithm == "aws:kms") {
    const std::string& key_arn = table_->encryption.kms_key_arn;
    // arn:aws:kms:<region>:<account>:key/<id>
    std::string region = key_arn.size() > 12 ? key_arn.substr(12, key_arn.find(':', 12) - 12) : "";
    for (const char* action : {"kms:GenerateDataKey", "kms:Decrypt"}) {
      ST_TRY(AuthorizeAsRole(
          ctx_.authorizer, config_.service_execution_role.arn,
          config_.service_execution_role.account_id, action, key_arn,
          {{"kms:ViaService", {"s3." + region + ".amazonaws.com"}},
           {"kms:CallerAccount", {config_.service_execution_role.account_id}},
           {"kms:EncryptionContext:aws:s3:arn", {table_->arn}},
           {"kms:EncryptionContextKeys", {"aws:s3:arn", "streamtables:object-key"}}}));
    }
  }
  return Status::OK();
}

Result<catalog::LoadedTable> ChannelWorker::CommitOnce(const std::vector<iceberg::DataFile>& files,
                                                       const catalog::OffsetRanges& ranges) {
  ST_ASSIGN_OR_RETURN(catalog::LoadedTable current, ctx_.commits.LoadTable(table_->table_id));
  if (!current.metadata.has_value()) {
    return Err(FailedPrecondition("The table " + table_->arn + " has no metadata."));
  }
  std::vector<iceberg::TableRequirement> requirements;
  std::vector<iceberg::TableUpdate> updates;
  // Schema evolution rides in the commit that carries the first rows of the
  // new writer version: add-schema (each change, oldest first) and
  // set-current-schema, then the append on the evolved metadata, so the
  // snapshot and its manifest name the new schema.
  const iceberg::TableMetadata* base = &current.metadata->metadata;
  std::optional<iceberg::TableMetadata> evolved;
  if (!batch_schemas_.empty()) {
    requirements.push_back(iceberg::AssertCurrentSchemaId{base->current_schema_id});
    for (const iceberg::Schema& schema : batch_schemas_) {
      updates.push_back(iceberg::AddSchema{schema, std::nullopt});
    }
    updates.push_back(iceberg::SetCurrentSchema{iceberg::kLastAdded});
    ST_ASSIGN_OR_RETURN(evolved, iceberg::ApplyUpdates(*base, updates, ctx_.clock.NowMillis()));
    base = &*evolved;
  }
  if (!files.empty()) {
    iceberg::SnapshotSummary summary{{"streamtables.channel-arn", channel_.arn},
                                     {"streamtables.kafka-topic", topic_},
                                     {"streamtables.kafka-offsets", RangesText(ranges)}};
    iceberg::OperationContext op{*io_, ctx_.clock, ctx_.random};
    ST_ASSIGN_OR_RETURN(iceberg::SnapshotCommit snapshot,
                        iceberg::FastAppend(*base, files, summary, op));
    for (iceberg::TableRequirement& r : snapshot.requirements) requirements.push_back(std::move(r));
    for (iceberg::TableUpdate& u : snapshot.updates) updates.push_back(std::move(u));
  }
  catalog::CommitOptions options;
  options.account_id = channel_.owner_account_id;
  options.acting_channel = channel_.arn;
  options.offset_ranges = ranges;
  return ctx_.commits.CommitTable(table_->table_id, requirements, updates, options);
}

Status ChannelWorker::CommitOffsetsOnly(const catalog::OffsetRanges& ranges) {
  ST_ASSIGN_OR_RETURN(std::unique_ptr<catalog::UnitOfWork> unit, ctx_.store.BeginUnitOfWork());
  // No table yet: the offsets are recorded as delivered into none ("").
  ST_TRY(unit->channel_offsets().AdvanceChannelOffsets(channel_.arn, "", ranges));
  Status committed = unit->Commit();
  // An I/O failure while committing may or may not have applied: like a
  // table commit's CommitStateUnknown, the caller re-reads the offsets.
  if (committed.code() == StatusCode::kIo) {
    return Status(StatusCode::kCommitStateUnknown, committed.message());
  }
  return committed;
}

ChannelWorker::CommitOutcome ChannelWorker::Commit(const std::vector<iceberg::DataFile>& files,
                                                   const catalog::OffsetRanges& ranges,
                                                   Status* error) {
  using catalog::ChannelStatus;
  bool ambiguous = false;  // A commit may have happened: its files must stay.
  auto discard = [&] {
    if (ambiguous) return;
    for (const iceberg::DataFile& f : files) (void)io_->Delete(f.file_path);
    if (!dlq_keys_.empty()) DeleteDeadLetters(ranges);
  };
  auto fault = [&](ChannelStatus status, catalog::ChannelStateCode code,
                   const std::string& message) {
    SetFault(status, code, message);
    discard();
    return CommitOutcome::kFault;
  };
  auto retry = [&](Status status) {
    discard();
    *error = std::move(status);
    return CommitOutcome::kRetry;
  };
  if (stopping()) {
    discard();
    return CommitOutcome::kAbandoned;
  }
  // Dead letters first: a failed record counts as delivered by the commit
  // that advances past it, so it must be durable before.
  if (Status written = WriteDeadLetters(); !written.ok()) {
    if (written.code() == StatusCode::kAccessDenied) {
      return fault(ChannelStatus::kFailed, catalog::ChannelStateCode::kAccessDenied,
                   written.message());
    }
    return retry(written.WithContext("writing dead letters to " + config_.dlq_bucket_arn));
  }

  for (int attempt = 0;; ++attempt) {
    if (stopping()) {
      discard();
      return CommitOutcome::kAbandoned;
    }
    Status allowed = table_ ? AuthorizeTableWrite() : Status::OK();
    if (allowed.code() == StatusCode::kAccessDenied) {
      // A missing KMS permission suspends (the service retries it, see
      // IsKmsFault); any other denial fails the channel as before.
      return fault(IsKmsFault(allowed) ? ChannelStatus::kSuspended : ChannelStatus::kFailed,
                   catalog::ChannelStateCode::kAccessDenied, allowed.message());
    }
    if (!allowed.ok()) return retry(allowed);
    Status failed;
    if (table_) {
      Result<catalog::LoadedTable> committed = CommitOnce(files, ranges);
      if (!committed.has_value()) failed = committed.error();
    } else {
      failed = CommitOffsetsOnly(ranges);
    }
    if (failed.ok()) return CommitOutcome::kCommitted;
    switch (failed.code()) {
      case StatusCode::kConflict:
      case StatusCode::kCommitStateUnknown: {
        // Re-read where the catalog stands: all advanced to `to` → it was
        // us; all still at `from` → the table moved (retry on the new base)
        // or an ambiguous commit did not happen (retry from the catalog);
        // anything else → another worker owns a partition now (we are its
        // zombie): drop the batch, re-read.
        int advanced = 0, untouched = 0;
        bool readable = true;
        for (const auto& [partition, range] : ranges) {
          Result<catalog::KafkaOffset> next = ctx_.store.GetChannelOffset(channel_.arn, partition);
          if (!next.has_value()) {
            readable = false;
            break;
          }
          if (*next == range.to) ++advanced;
          if (*next == range.from) ++untouched;
        }
        const int n = static_cast<int>(ranges.size());
        if (failed.code() == StatusCode::kCommitStateUnknown) {
          ambiguous = true;
          if (readable && advanced == n && n > 0) return CommitOutcome::kCommitted;
          // Unknown or not applied: the catalog offsets the rewind reads
          // decide, so nothing is lost or delivered twice either way.
          return retry(failed);
        }
        if (!readable) return retry(failed);
        if (untouched != n) {
          ctx_.logger.Log(LogLevel::kWarn, "commit_fenced",
                          {{"channel", channel_.arn}, {"error", failed.ToString()}});
          discard();
          // Inside a revoke the caller drops the batch and seeks once the
          // rebalance callback has returned.
          if (!revoke_deadline_) Rewind();
          return CommitOutcome::kRewound;
        }
        break;  // The table moved: the same batch on the new base.
      }
      case StatusCode::kNotFound:
        return fault(ChannelStatus::kSuspended, catalog::ChannelStateCode::kTableDeleted,
                     "The destination table " + config_.namespace_name + "." + config_.table_name +
                         " in " + config_.table_bucket_arn +
                         " was deleted; create a new channel to deliver to a new table.");
      case StatusCode::kAccessDenied:
        return fault(ChannelStatus::kFailed, catalog::ChannelStateCode::kAccessDenied,
                     failed.message());
      default:
        // I/O, Unavailable, ...: a fresh writer re-reads the batch from the catalog offsets.
        return retry(failed);
    }
    // Another writer of the table (another replica's worker of this
    // channel, maintenance) committed first and our partitions are still
    // ours: the same files on the new metadata, after a jittered pause so
    // the replicas that collided do not collide again.
    if (attempt >= options_.max_commit_retries || !CommitRetryPause(attempt)) {
      return retry(failed.WithContext("the table kept moving under " + std::to_string(attempt + 1) +
                                      " commit attempts"));
    }
    metrics_->commit_retries += 1;
    ctx_.logger.Log(
        LogLevel::kDebug, "commit_retry",
        {{"channel", channel_.arn}, {"attempt", attempt + 1}, {"error", failed.ToString()}});
  }
}

bool ChannelWorker::CommitRetryPause(int attempt) {
  const int64_t ceiling_ms =
      std::min<int64_t>(options_.commit_retry_cap.count(), int64_t{20} << std::min(attempt, 16));
  const auto pause = std::chrono::milliseconds(
      static_cast<int64_t>(ctx_.random.Next64() % static_cast<uint64_t>(ceiling_ms + 1)));
  const auto deadline = std::chrono::steady_clock::now() + pause;
  if (revoke_deadline_ && deadline >= *revoke_deadline_) return false;
  common::MutexLock lock(mu_);
  while (!stop_ && cv_.WaitUntil(mu_, deadline)) {
  }
  return !stop_;
}

}  // namespace st::delivery
