#include "delivery/channel_worker.h"

#include <algorithm>
#include <map>

#include "decoding/record.h"
#include "delivery/prefetch_sizes.h"
#include "delivery/service_role.h"

namespace st::delivery {

namespace {

constexpr std::chrono::milliseconds kInitialBackoff{100};
constexpr std::chrono::seconds kLagInterval{1};
// The poll timeout right after a poll that returned a record (RunOnce).
constexpr std::chrono::milliseconds kDrainedPollTimeout{5};

}  // namespace

ChannelWorker::ChannelWorker(DeliveryContext& context, WorkerOptions options,
                             catalog::Channel channel, ChannelConfig config,
                             catalog::KafkaCluster cluster, std::shared_ptr<ChannelMetrics> metrics)
    : ctx_(context),
      options_(options),
      channel_(std::move(channel)),
      config_(std::move(config)),
      cluster_(std::move(cluster)),
      topic_(channel_.topic_name),
      metrics_(std::move(metrics)) {
  metrics_->freshness_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(config_.data_freshness).count();
  metrics_->last_progress_ms = ctx_.clock.NowMillis();
  if (options_.shared_budget != nullptr) share_ = options_.shared_budget->Join();
}

ChannelWorker::~ChannelWorker() { Stop(); }

void ChannelWorker::Start() {
  thread_ = std::thread([this] { Run(); });
}

void ChannelWorker::Stop() {
  {
    common::MutexLock lock(mu_);
    stop_ = true;
  }
  cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

bool ChannelWorker::stopping() const {
  common::MutexLock lock(mu_);
  return stop_ || fault_.has_value();
}

std::optional<WorkerFault> ChannelWorker::fault() const {
  common::MutexLock lock(mu_);
  return fault_;
}

void ChannelWorker::SetFault(catalog::ChannelStatus status, catalog::ChannelStateCode code,
                             std::string message) {
  ctx_.logger.Log(LogLevel::kWarn, "channel_fault",
                  {{"channel", channel_.arn},
                   {"code", std::string(catalog::ChannelStateCodeName(code))},
                   {"message", message}});
  common::MutexLock lock(mu_);
  if (!fault_) fault_ = WorkerFault{status, catalog::MakeStateInfo(code, std::move(message))};
}

void ChannelWorker::Backoff() {
  // A stalled worker stops fetching (librdkafka drops the prefetched records
  // of a paused partition, so this is only worth it when waiting anyway).
  if (consumer_ && !paused_) paused_ = consumer_->PauseAll().ok();
  {
    common::MutexLock lock(mu_);
    const auto deadline = std::chrono::steady_clock::now() + backoff_;
    while (!stop_ && cv_.WaitUntil(mu_, deadline)) {
    }
  }
  backoff_ = std::min(backoff_ * 2, options_.max_backoff);
}

void ChannelWorker::Run() {
  while (RunOnce()) {
  }
  DropBatch();
  if (consumer_) consumer_->Close();
  consumer_.reset();
}

bool ChannelWorker::RunOnce() {
  if (stopping()) return false;
  ResizeConsumerIfStale();
  if (Status opened = EnsureConsumer(); !opened.ok()) {
    if (opened.code() == StatusCode::kInvalidArgument) {
      // The cluster's configuration is refused: retrying cannot help.
      SetFault(catalog::ChannelStatus::kFailed, catalog::ChannelStateCode::kInvalidClientProperty,
               opened.message());
      return false;
    }
    ctx_.logger.Log(LogLevel::kWarn, "consumer_failed",
                    {{"channel", channel_.arn}, {"error", opened.ToString()}});
    NoteFailure("creating the Kafka consumer", opened);
    Backoff();
    return !stopping();
  }
  if (paused_) {
    (void)consumer_->ResumeAll();
    paused_ = false;
  }
  polling_ = true;
  // While records stream in, an empty poll means the prefetch queue just ran
  // dry: come back at once to wake the fetcher (WakeFetcherIfBehind) instead
  // of idling a whole poll timeout.
  Result<std::optional<ConsumedRecord>> polled = consumer_->Poll(
      streaming_ ? std::min(kDrainedPollTimeout, options_.poll_timeout) : options_.poll_timeout);
  streaming_ = polled.has_value() && polled->has_value();
  polling_ = false;
  if (!polled.has_value()) {
    rewind_pending_ = false;
    ctx_.logger.Log(LogLevel::kWarn, "consume_failed",
                    {{"channel", channel_.arn}, {"error", polled.error().ToString()}});
    // A fresh consumer rejoins the group and seeks to the catalog offsets.
    NoteFailure("consuming " + topic_, polled.error());
    DropBatch();
    tracker_.Clear();
    resizing_ = false;
    consumer_->Close();
    consumer_.reset();
    paused_ = false;
    Backoff();
    return !stopping();
  }
  if (rewind_pending_) {
    // A revoke dropped the batch: the polled record was fetched before the
    // retained partitions are sought back, so it goes too.
    rewind_pending_ = false;
    Rewind();
  } else if (polled->has_value()) {
    HandleRecord(std::move(**polled));
  } else {
    if (metrics_->failing_since_ms.load() > 0 && catch_up_.empty() && !tracker_.HasPending()) {
      NoteProgress();  // Kafka answers again and nothing is left to deliver.
    }
    WakeFetcherIfBehind();
  }
  if (share_) share_->Report(HeldBytes());
  // One clock read per loop: the loop runs once per record.
  const auto now = ctx_.clock.Now();
  if (FlushDue(now)) Flush();
  if (now - last_lag_update_ >= kLagInterval) UpdateLag();
  return !stopping();
}

Status ChannelWorker::EnsureConsumer() {
  if (consumer_) return Status::OK();
  ConsumerSpec spec;
  spec.topic = topic_;
  spec.group_id = "streamtables-" + channel_.channel_id;
  spec.group_instance_id = spec.group_id + "-" + ctx_.replica_id;
  // Prefetch is memory too: a quarter of the fair share at the time the
  // consumer is made (ResizeConsumerIfStale remakes it when the share moves).
  // Not tied to the channel's own buffer.
  spec.max_prefetch_bytes = WantedPrefetchBytes();
  spec.on_assign = [this](const std::vector<catalog::KafkaPartition>& partitions,
                          bool incremental) { return OnAssign(partitions, incremental); };
  spec.on_revoke = [this](const std::vector<catalog::KafkaPartition>& partitions, bool incremental,
                          bool lost) { OnRevoke(partitions, incremental, lost); };
  const int64_t prefetch = spec.max_prefetch_bytes;
  ST_ASSIGN_OR_RETURN(consumer_, ctx_.kafka.NewConsumer(cluster_, std::move(spec)));
  consumer_prefetch_bytes_ = prefetch;
  consumer_assigned_ = false;
  return Status::OK();
}

int64_t ChannelWorker::WantedPrefetchBytes() const {
  return PrefetchBoundFor(share_ ? options_.shared_budget->FairShare() : int64_t{0});
}

void ChannelWorker::ResizeConsumerIfStale() {
  // Also mid-batch, which is when it matters: channels resumed together start
  // one after another, and the first ones would otherwise read their whole
  // backlog with the bound they got while alone. The batch stays: the old
  // consumer leaves without a revoke (resizing_), and the new one, the same
  // static group member, gets the same partitions back and continues each
  // at the next offset the batch has not read (OnAssign). What librdkafka had
  // prefetched is fetched again. The factor of two keeps a server whose
  // channel count wobbles from remaking consumers back and forth.
  // Not before the consumer's first assignment: it would have to wait for
  // it on close anyway (rdkafka_client.cc, librdkafka issue 4312).
  if (!consumer_ || !share_ || !consumer_assigned_) return;
  const int64_t wanted = WantedPrefetchBytes();
  if (consumer_prefetch_bytes_ <= 2 * wanted && wanted <= 2 * consumer_prefetch_bytes_) return;
  ctx_.logger.Log(LogLevel::kInfo, "consumer_resized",
                  {{"channel", channel_.arn},
                   {"prefetch_bytes", consumer_prefetch_bytes_},
                   {"wanted_bytes", wanted},
                   {"pending", tracker_.HasPending()}});
  resizing_ = true;
  consumer_->Close();
  consumer_.reset();
  paused_ = false;
  metrics_->consumer_resizes += 1;
}

Result<catalog::NextOffsets> ChannelWorker::OnAssign(
    const std::vector<catalog::KafkaPartition>& partitions, bool incremental) {
  consumer_assigned_ = true;
  if (resizing_) {
    resizing_ = false;
    // A consumer remade for its prefetch bound: with exactly the partitions
    // the batch holds, each continues where the batch ends. Anything else (a
    // rebalance happened meanwhile) drops the batch and starts every
    // partition at its catalog offset, as a fresh consumer does.
    catalog::NextOffsets next = tracker_.Next();
    bool same = next.size() == partitions.size();
    for (catalog::KafkaPartition p : partitions) same = same && next.contains(p);
    const bool held = tracker_.HasPending() || !failures_.empty();
    ctx_.logger.Log(LogLevel::kInfo, "partitions_assigned_after_resize",
                    {{"channel", channel_.arn},
                     {"count", static_cast<int64_t>(partitions.size())},
                     {"batch", !held  ? "none"
                               : same ? "continued"
                                      : "dropped"}});
    if (same) return next;
    DropBatch();
    tracker_.Clear();
    catch_up_.clear();
    rewind_pending_ = false;
  }
  if (!incremental) {
    // Eager: this is the whole new assignment, every partition restarts at
    // its catalog offset (the revoke before it committed or dropped the batch).
    DropBatch();
    tracker_.Clear();
    rewind_pending_ = false;
  }
  // Incremental: the partitions kept go on with their buffered rows; only
  // the new ones start, at the catalog's offsets.
  catalog::NextOffsets offsets;
  for (catalog::KafkaPartition p : partitions) {
    ST_ASSIGN_OR_RETURN(catalog::KafkaOffset next, ctx_.store.GetChannelOffset(channel_.arn, p));
    offsets[p] = next;
  }
  for (const auto& [p, next] : offsets) tracker_.Start(p, next);
  ctx_.logger.Log(LogLevel::kInfo, "partitions_assigned",
                  {{"channel", channel_.arn},
                   {"count", static_cast<int64_t>(partitions.size())},
                   {"protocol", incremental ? "COOPERATIVE" : "EAGER"},
                   {"held", static_cast<int64_t>(tracker_.Next().size())}});
  return offsets;
}

void ChannelWorker::OnRevoke(const std::vector<catalog::KafkaPartition>& partitions,
                             bool incremental, bool lost) {
  // Closing a consumer to remake it (ResizeConsumerIfStale): a static member
  // does not leave the group, the partitions stay ours, the batch stays.
  if (resizing_) return;
  const catalog::OffsetRanges pending = tracker_.Pending();
  bool holds_revoked = false;
  for (catalog::KafkaPartition p : partitions) holds_revoked |= pending.contains(p);
  if (holds_revoked) {
    // One batch spans every partition: committing it is the only way to
    // keep the revoked partitions' rows, and it keeps the retained ones' too.
    // The offset fence refuses it if the new owner committed first.
    bool committed = false;
    // Also when the assignment is already lost (seen with librdkafka 2.0.2
    // a few seconds after another static member rejoined; nobody else held
    // the partitions yet): whichever of us and a new owner commits first
    // wins the fence, the other re-reads.
    if (polling_ && !stopping()) {
      revoke_deadline_ = std::chrono::steady_clock::now() + options_.revoke_commit_timeout;
      Status error;
      const char* event = "revoke_commit_failed";
      CommitOutcome outcome = FlushBatch(&error, &event);
      revoke_deadline_.reset();
      committed = outcome == CommitOutcome::kCommitted;
      if (committed) {
        metrics_->revoke_commits += 1;
      } else {
        ctx_.logger.Log(LogLevel::kWarn, "revoke_commit_failed",
                        {{"channel", channel_.arn},
                         {"stage", event},
                         {"error", error.ok() ? "not committed" : error.ToString()}});
      }
    }
    if (!committed) {
      // Dropped: the revoked partitions' new owner re-reads them from the
      // catalog, the retained ones are sought back once Poll returns.
      ResetWriter();
      DropBatch();
      rewind_pending_ = true;
    }
  }
  for (catalog::KafkaPartition p : partitions) {
    tracker_.Remove(p);
    catch_up_.erase(p);
  }
  ctx_.logger.Log(LogLevel::kInfo, "partitions_revoked",
                  {{"channel", channel_.arn},
                   {"count", static_cast<int64_t>(partitions.size())},
                   {"protocol", incremental ? "COOPERATIVE" : "EAGER"},
                   {"lost", lost},
                   {"held", static_cast<int64_t>(tracker_.Next().size())}});
}

void ChannelWorker::HandleRecord(ConsumedRecord record) {
  if (!tracker_.Accept(record.partition, record.offset)) return;
  const int64_t size = record.size_bytes();
  metrics_->bytes_in += size;
  metrics_->rows += 1;
  if (!first_arrival_) {
    first_arrival_ = ctx_.clock.Now();
    metrics_->oldest_uncommitted_ms = std::max<int64_t>(1, record.timestamp_ms);
  }
  batch_bytes_ += size;

  std::optional<RecordFailure> failure;
  if (!writer_) {
    Result<std::optional<RecordFailure>> opened = EnsureTable(record);
    if (!opened.has_value()) return RetryAfter("table_open_failed", opened.error());
    failure = std::move(*opened);
  }
  if (!failure && writer_ && horizon_stale_) {
    if (Status refreshed = RefreshExpirationHorizon(); !refreshed.ok()) {
      return RetryAfter("record_expiration_read_failed", refreshed);
    }
  }
  if (!failure && writer_) {
    Result<std::optional<RecordFailure>> added = writer_->Add(record);
    if (!added.has_value()) return RetryAfter("write_failed", added.error());
    failure = std::move(*added);
    if (!failure) ++batch_rows_;
  }
  if (failure) {
    failure_bytes_ += size;
    failures_.emplace_back(std::move(record), std::move(*failure));
  }
}

bool ChannelWorker::FlushDue(std::chrono::system_clock::time_point now) const {
  if (!tracker_.HasPending() || !first_arrival_) return false;
  const int64_t held = HeldBytes();
  // Never more than half the freshness early, so batches keep a useful size.
  const auto lead = std::min<std::chrono::milliseconds>(
      flush_estimate_,
      std::chrono::duration_cast<std::chrono::milliseconds>(config_.data_freshness) / 2);
  return held >= options_.buffer_budget_bytes || CaughtUp() || (share_ && share_->OverShare()) ||
         now >= *first_arrival_ + config_.data_freshness - lead;
}

int64_t ChannelWorker::HeldBytes() const {
  return (writer_ ? writer_->buffered_bytes() : 0) + failure_bytes_;
}

bool ChannelWorker::CaughtUp() const {
  if (catch_up_.empty()) return false;
  const catalog::NextOffsets next = tracker_.Next();
  for (const auto& [partition, target] : catch_up_) {
    auto it = next.find(partition);
    if (it != next.end() && it->second < target) return false;
  }
  return true;
}

ChannelWorker::CommitOutcome ChannelWorker::FlushBatch(Status* error, const char** event) {
  if (!table_) {
    // Only failed records so far: the table comes from the channel's schema.
    if (failures_.empty()) return CommitOutcome::kSkipped;
    Result<std::optional<RecordFailure>> opened = EnsureTable(failures_.front().first);
    if (!opened.has_value()) {
      *event = "table_open_failed";
      *error = opened.error();
      return CommitOutcome::kRetry;
    }
    // Faulted (SetFault said why), unless the first failed record could
    // not define the table either: then no record of the batch can, and it
    // is committed as dead letters alone (Commit without a table), so a
    // channel fed only undecodable records does not hold them forever.
    if (!table_ && !opened->has_value()) return CommitOutcome::kSkipped;
  }
  const auto flush_started = ctx_.clock.Now();
  std::vector<iceberg::DataFile> files;
  if (writer_) {
    Result<std::vector<iceberg::DataFile>> finished = writer_->Finish();
    if (!finished.has_value()) {
      *event = "finish_failed";
      *error = finished.error();
      return CommitOutcome::kRetry;
    }
    files = std::move(*finished);
    batch_schemas_ = writer_->SchemaChanges();
  }
  const catalog::OffsetRanges ranges = tracker_.Pending();
  *event = "commit_failed";
  CommitOutcome outcome = Commit(files, ranges, error);
  if (outcome == CommitOutcome::kCommitted) {
    const auto took =
        std::chrono::duration_cast<std::chrono::milliseconds>(ctx_.clock.Now() - flush_started);
    flush_estimate_ = std::max(took, flush_estimate_ * 7 / 8);
    tracker_.Committed(ranges);
    int64_t out_bytes = 0;
    for (const iceberg::DataFile& f : files) out_bytes += f.file_size_in_bytes;
    metrics_->bytes_out += out_bytes;
    metrics_->bytes_processed += batch_bytes_;
    metrics_->rows_successful += batch_rows_;
    metrics_->rows_failed += static_cast<int64_t>(failures_.size());
    metrics_->dlq_records += static_cast<int64_t>(failures_.size());
    metrics_->commits += 1;
    metrics_->commit_ms += took.count();
    if (writer_ && !batch_schemas_.empty()) {
      writer_->SchemaChangesCommitted();
      ctx_.logger.Log(
          LogLevel::kInfo, "table_schema_evolved",
          {{"channel", channel_.arn}, {"schemas", static_cast<int64_t>(batch_schemas_.size())}});
    }
    batch_schemas_.clear();
    NoteQuarantined();
    ctx_.logger.Log(LogLevel::kInfo, "delivered",
                    {{"channel", channel_.arn},
                     {"rows", batch_rows_},
                     {"dlq", static_cast<int64_t>(failures_.size())},
                     {"files", static_cast<int64_t>(files.size())}});
    failures_.clear();
    dlq_keys_.clear();
    failure_bytes_ = 0;
    batch_bytes_ = 0;
    batch_rows_ = 0;
    first_arrival_.reset();
    metrics_->oldest_uncommitted_ms = 0;
    horizon_stale_ = true;
    NoteProgress();
    catalog::NextOffsets committed;
    for (const auto& [partition, range] : ranges) committed[partition] = range.to;
    if (consumer_) (void)consumer_->CommitGroupOffsets(committed);
    UpdateLag();
  }
  return outcome;
}

void ChannelWorker::Flush() {
  Status error;
  const char* event = "commit_failed";
  CommitOutcome outcome = FlushBatch(&error, &event);
  if (outcome == CommitOutcome::kRetry) return RetryAfter(event, error);
  if (outcome == CommitOutcome::kAbandoned) DropBatch();
}

void ChannelWorker::NoteQuarantined() {
  std::map<std::string, std::pair<int64_t, const std::string*>> by_version;
  for (const auto& [record, failure] : failures_) {
    if (failure.code != decoding::kSchemaIncompatible) continue;
    auto& entry = by_version[failure.schema_version_id];
    entry.first += 1;
    entry.second = &failure.message;
  }
  for (const auto& [version, entry] : by_version) {
    metrics_->AddQuarantined(version, entry.first, *entry.second);
  }
}

void ChannelWorker::DropBatch() {
  batch_schemas_.clear();
  // A writer that evolved its schema in the dropped batch writes columns the
  // table does not have: the next record opens a fresh one on the table.
  if (writer_ && !writer_->SchemaChanges().empty()) ResetWriter();
  if (writer_) writer_->Abort();
  horizon_stale_ = true;
  failures_.clear();
  dlq_keys_.clear();
  failure_bytes_ = 0;
  batch_bytes_ = 0;
  batch_rows_ = 0;
  first_arrival_.reset();
  metrics_->oldest_uncommitted_ms = 0;
}

void ChannelWorker::Rewind() {
  DropBatch();
  if (!consumer_) {
    tracker_.Clear();
    return;
  }
  for (catalog::KafkaPartition p : consumer_->Assignment()) {
    Result<catalog::KafkaOffset> next = ctx_.store.GetChannelOffset(channel_.arn, p);
    Status sought = next.has_value() ? consumer_->Seek(p, *next) : next.error();
    if (!sought.ok()) {
      // A new consumer starts every partition at its catalog offset.
      ctx_.logger.Log(LogLevel::kWarn, "reseek_failed",
                      {{"channel", channel_.arn}, {"error", sought.ToString()}});
      tracker_.Clear();
      consumer_->Close();
      consumer_.reset();
      paused_ = false;
      return;
    }
    tracker_.Start(p, *next);
  }
}

void ChannelWorker::ResetWriter() {
  if (writer_) writer_->Abort();
  writer_.reset();
}

void ChannelWorker::RetryAfter(const char* event, const Status& error) {
  if (IsKmsFault(error)) {
    // The table's KMS key is disabled or unusable: nothing can be written
    // until its owner fixes it. Suspend (the service resumes and re-checks,
    // DeliveryService kKmsRetry); the catalog offsets keep every record.
    SetFault(catalog::ChannelStatus::kSuspended, catalog::ChannelStateCode::kAccessDenied,
             "Delivery is suspended: the table's KMS key cannot be used: " + error.message());
    ResetWriter();
    Rewind();
    return;
  }
  ctx_.logger.Log(LogLevel::kWarn, event,
                  {{"channel", channel_.arn},
                   {"error", error.ToString()},
                   {"retry_in_ms", static_cast<int64_t>(backoff_.count())}});
  NoteFailure(event, error);
  for (const auto& [partition, next] : tracker_.Next()) {
    catalog::KafkaOffset& target = catch_up_[partition];
    target = std::max(target, next);
  }
  ResetWriter();
  Rewind();
  if (!stopping()) Backoff();
}

void ChannelWorker::NoteFailure(const std::string& what, const Status& error) {
  const int64_t now_ms = ctx_.clock.NowMillis();
  metrics_->errors += 1;
  metrics_->set_last_error(what + ": " + error.ToString());
  int64_t healthy = 0;
  metrics_->failing_since_ms.compare_exchange_strong(healthy, now_ms);
  if (!stall_logged_ && metrics_->stalled(now_ms)) {
    stall_logged_ = true;
    ctx_.logger.Log(LogLevel::kError, "delivery_stalled",
                    {{"channel", channel_.arn},
                     {"failing_ms", now_ms - metrics_->failing_since_ms.load()},
                     {"error", metrics_->last_error()}});
  }
}

void ChannelWorker::NoteProgress() {
  const int64_t now_ms = ctx_.clock.NowMillis();
  const int64_t since = metrics_->failing_since_ms.exchange(0);
  metrics_->last_progress_ms = now_ms;
  catch_up_.clear();
  backoff_ = kInitialBackoff;
  if (since > 0) {
    ctx_.logger.Log(stall_logged_ ? LogLevel::kWarn : LogLevel::kInfo, "delivery_recovered",
                    {{"channel", channel_.arn}, {"failing_ms", now_ms - since}});
  }
  stall_logged_ = false;
}

void ChannelWorker::WakeFetcherIfBehind() {
  // librdkafka 2.0.2 stops fetching a partition whose queue is over its
  // bound and looks at it again only when its broker thread next wakes up,
  // up to a second later (newer versions have fetch.queue.backoff.ms): a
  // worker that drained the queue then waits idle while the topic has more.
  // A poll that came back empty means the queue is empty; if the high
  // watermarks show records past where the batch is, a seek of those
  // partitions to exactly where the batch is (an op on the broker thread)
  // wakes it to fetch now. Nothing is skipped or read twice: the position
  // is the tracker's next offset.
  if (!consumer_ || paused_ || rewind_pending_ || resizing_ || !consumer_assigned_) return;
  const catalog::NextOffsets high = consumer_->HighWatermarks();
  for (const auto& [partition, next] : tracker_.Next()) {
    auto it = high.find(partition);
    if (it == high.end() || it->second <= next) continue;
    if (Status sought = consumer_->Seek(partition, next); !sought.ok()) return;
    metrics_->fetch_wakeups += 1;
  }
}

void ChannelWorker::UpdateLag() {
  last_lag_update_ = ctx_.clock.Now();
  if (!consumer_) return;
  catalog::NextOffsets high = consumer_->HighWatermarks();
  catalog::OffsetRanges pending = tracker_.Pending();
  int64_t lag = 0;
  for (const auto& [partition, next] : tracker_.Next()) {
    auto it = high.find(partition);
    if (it == high.end()) continue;
    auto range = pending.find(partition);
    catalog::KafkaOffset committed = range == pending.end() ? next : range->second.from;
    lag += std::max<int64_t>(0, it->second - committed);
  }
  metrics_->consumer_lag = lag;
}

}  // namespace st::delivery
