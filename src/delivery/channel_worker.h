// One ACTIVE channel's delivery loop on its own thread: consume the topic,
// decode into data files, and every freshness interval (or when the buffer
// budget is reached) write the failed records to the dead-letter queue and
// commit files plus offset ranges in one catalog transaction.
//
// Exactly once: partitions start at the catalog's next offsets (never Kafka's
// group offsets); a commit's ranges start where the catalog says, so a
// zombie's commit is refused (Conflict) and its work is dropped and re-read;
// an ambiguous commit is resolved by re-reading the channel's offsets.
//
// Replicas: every replica runs a worker per channel, all in one consumer
// group (cooperative-sticky, incremental rebalances). An incremental assign
// starts only the new partitions at their catalog offsets; the batch goes on.
// An incremental revoke first commits the batch (every partition's buffered
// rows, revoked and retained, bounded by WorkerOptions::revoke_commit_timeout);
// if that fails the batch is dropped and the retained partitions re-read from
// the catalog. A commit that loses to another replica's commit on the same
// table while its partitions' offsets are untouched is re-applied on the new
// metadata (up to max_commit_retries times, jittered backoff), never failing
// the channel.
//
// Faults: any storage or catalog error (opening the table, writing or
// closing a data file, writing a dead letter, committing) drops the batch and
// the writer, seeks every partition back to its catalog offset and backs off
// (100 ms, doubling to max_backoff); the next record gets a fresh writer on
// freshly loaded table metadata, and once the worker has re-read as far as it
// had read before the fault, the batch is flushed without waiting for the
// freshness deadline. Files of a batch that definitely did not commit are
// deleted (those of an ambiguous commit stay: they may be referenced). While
// the failures last longer than the channel's data freshness the worker is
// "stalled" (ChannelMetrics::failing_since_ms, StallStateInfo); the first
// successful commit ends the stall.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "auth/authorizer.h"
#include "catalog/channel_model.h"
#include "catalog/metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/logger.h"
#include "common/mutex.h"
#include "common/random.h"
#include "delivery/channel_metrics.h"
#include "delivery/kafka_client.h"
#include "delivery/memory_budget.h"
#include "delivery/offset_tracker.h"
#include "delivery/record_format.h"
#include "storage/object_store.h"

namespace st::delivery {

// Everything a worker uses; all references outlive every worker.
struct DeliveryContext {
  catalog::MetadataStore& store;
  catalog::TableCommits& commits;
  storage::ObjectStore& objects;
  KafkaClientFactory& kafka;
  RecordFormat& format;
  const auth::Authorizer& authorizer;
  const Clock& clock;
  Random& random;
  std::string key_root;
  Logger& logger;
  // This server process's name among replicas (the Kafka group member's
  // group.instance.id is derived from it).
  std::string replica_id = "r-local";
};

struct WorkerOptions {
  // Decoded rows plus failed records held before a commit is forced (the
  // consumer's prefetch is bounded by the shared budget's fair share
  // instead: prefetch_sizes.h).
  int64_t buffer_budget_bytes = 64LL << 20;
  // The server-wide bound over all workers (memory_budget.h); null: none.
  // Not owned; outlives the worker.
  DeliveryMemoryBudget* shared_budget = nullptr;
  std::chrono::milliseconds poll_timeout{100};
  // Retries of storage/catalog errors back off exponentially (from 100 ms,
  // doubling) up to this: the longest a fault that cleared keeps a channel
  // waiting before its next attempt.
  std::chrono::milliseconds max_backoff{10000};
  // How long a revoke may spend committing the batch before the partitions
  // go: the group's rebalance waits for it, so well below the session
  // timeout (10 s); past it the batch is dropped and re-read by its owners.
  // Checked between commit attempts: one in flight finishes (the catalog's
  // and the object store's own timeouts bound it).
  std::chrono::milliseconds revoke_commit_timeout{5000};
  // A commit that lost to another writer of the table (offsets untouched) is
  // rebuilt on the new metadata up to this many times, sleeping a random
  // time in [0, min(commit_retry_cap, 20 ms * 2^attempt)] between tries;
  // after that the batch is retried from the catalog like any catalog error.
  int max_commit_retries = 12;
  std::chrono::milliseconds commit_retry_cap{1000};
};

// Why a worker gave up: the status the reconciler moves the channel to.
struct WorkerFault {
  catalog::ChannelStatus status = catalog::ChannelStatus::kFailed;
  catalog::ChannelStateInfo info;
};

class ChannelWorker {
 public:
  ChannelWorker(DeliveryContext& context, WorkerOptions options, catalog::Channel channel,
                catalog::ChannelConfig config, catalog::KafkaCluster cluster,
                std::shared_ptr<ChannelMetrics> metrics);
  ~ChannelWorker();  // Stops.
  ChannelWorker(const ChannelWorker&) = delete;
  ChannelWorker& operator=(const ChannelWorker&) = delete;

  void Start();
  // Graceful: a commit in flight completes; uncommitted work is dropped (it
  // is re-read from Kafka next time). Idempotent.
  void Stop();

  // Set once the worker gave up (it then idles until stopped).
  std::optional<WorkerFault> fault() const;
  const catalog::Channel& channel() const { return channel_; }

  // The loop, for tests that drive a worker without its thread: one poll plus
  // whatever commit is due. False once stopped or faulted.
  bool RunOnce();

 private:
  // kRetry: a storage or catalog error; nothing of the batch was committed
  // (or it is unknown and the catalog offsets tell): retry from the catalog.
  // kSkipped: nothing was committed and the batch is kept (no table yet).
  enum class CommitOutcome { kCommitted, kRewound, kAbandoned, kFault, kRetry, kSkipped };

  void Run();
  bool stopping() const;
  // Sleeps the current backoff (interrupted by Stop) and doubles it.
  void Backoff();
  void SetFault(catalog::ChannelStatus status, catalog::ChannelStateCode code, std::string message);

  Status EnsureConsumer();
  // The prefetch bound the consumer would get now (PrefetchBoundFor the fair
  // share).
  int64_t WantedPrefetchBytes() const;
  // Closes the consumer (the next RunOnce makes one, which continues the
  // batch) when its prefetch bound is more than twice, or less than half,
  // what the fair share wants now: channels came or went since it was made.
  void ResizeConsumerIfStale();
  Result<catalog::NextOffsets> OnAssign(const std::vector<catalog::KafkaPartition>& partitions,
                                        bool incremental);
  void OnRevoke(const std::vector<catalog::KafkaPartition>& partitions, bool incremental,
                bool lost);
  void HandleRecord(ConsumedRecord record);
  bool FlushDue(std::chrono::system_clock::time_point now) const;
  void Flush();
  // Flush without the failure handling: closes the files and commits them
  // with every pending range. kRetry sets `error` and `event`; the caller
  // decides (Flush: RetryAfter; a revoke: drop the batch).
  CommitOutcome FlushBatch(Status* error, const char** event);
  // The jittered pause between two tries of a commit that lost to another
  // writer; false when stopping or past a revoke's deadline (give up).
  bool CommitRetryPause(int attempt);
  // Drops uncommitted work; with `reseek`, every assigned partition restarts
  // at its catalog offset.
  void DropBatch();
  // Counts the batch's SCHEMA_INCOMPATIBLE records per writer schema version
  // (ChannelMetrics::AddQuarantined), once they are committed to the DLQ.
  void NoteQuarantined();
  void Rewind();
  // A storage or catalog error: drops the batch and the writer (a writer that
  // failed stays failed), rewinds to the catalog offsets and backs off.
  void RetryAfter(const char* event, const Status& error);
  // Failure bookkeeping behind the stall report and the metrics.
  void NoteFailure(const std::string& what, const Status& error);
  void NoteProgress();
  void ResetWriter();
  // Decoded rows plus failed records of the batch: what the budgets bound.
  int64_t HeldBytes() const;
  // Whether the batch has re-read everything read before the last fault.
  bool CaughtUp() const;
  void UpdateLag();
  // After an empty poll: seeks partitions with records past the batch's end
  // to that end, which wakes librdkafka's fetcher (channel_worker.cc).
  void WakeFetcherIfBehind();

  // worker_table.cc: opens (or on first delivery creates) the channel's table
  // and the writer. A RecordFailure when `first` cannot define the table.
  Result<std::optional<RecordFailure>> EnsureTable(const ConsumedRecord& first);
  Status OpenWriter(const catalog::LoadedTable& loaded);
  // Sets the table's TableName tag (what CreateTable with tags would have
  // done); a failure is logged, not fatal: the tag is informational.
  void TagTable(const std::string& table_arn);
  // Reads the table's record expiration and hands the writer its horizon
  // (now − days when enabled with days, else none).
  Status RefreshExpirationHorizon();

  // worker_commit.cc.
  // Appends the keys of the objects it wrote to dlq_keys_.
  Status WriteDeadLetters();
  Status WriteDeadLetterTopic();
  // Best-effort delete of the batch's dead-letter objects when the catalog
  // shows `ranges` uncommitted (the batch is re-read and may be cut
  // differently, so they would be duplicates).
  void DeleteDeadLetters(const catalog::OffsetRanges& ranges);
  // `error` is set for kRetry.
  CommitOutcome Commit(const std::vector<iceberg::DataFile>& files,
                       const catalog::OffsetRanges& ranges, Status* error);
  Result<catalog::LoadedTable> CommitOnce(const std::vector<iceberg::DataFile>& files,
                                          const catalog::OffsetRanges& ranges);
  // A batch of dead letters only, before any record could define the table
  // (every record so far failed ahead of a known schema): the offset fence
  // alone, in one unit of work, so those records leave memory and the
  // channel moves on. Errors: as AdvanceChannelOffsets and Commit.
  Status CommitOffsetsOnly(const catalog::OffsetRanges& ranges);
  Status AuthorizeTableWrite();

  DeliveryContext& ctx_;
  WorkerOptions options_;
  catalog::Channel channel_;
  catalog::ChannelConfig config_;
  catalog::KafkaCluster cluster_;
  std::string topic_;
  std::shared_ptr<ChannelMetrics> metrics_;

  std::unique_ptr<KafkaConsumer> consumer_;
  int64_t consumer_prefetch_bytes_ = 0;  // The bound consumer_ was made with.
  bool consumer_assigned_ = false;       // consumer_ has had its first assignment.
  std::unique_ptr<KafkaProducer> dlq_producer_;
  OffsetTracker tracker_;
  std::optional<catalog::Table> table_;
  std::unique_ptr<iceberg::FileIO> io_;
  std::unique_ptr<BatchWriter> writer_;
  std::unique_ptr<DeliveryMemoryBudget::Share> share_;  // Null without a shared budget.
  std::vector<std::pair<ConsumedRecord, RecordFailure>> failures_;
  std::vector<std::string> dlq_keys_;  // Object keys written for this batch.
  // The schemas the batch's commit adds (BatchWriter::SchemaChanges).
  std::vector<iceberg::Schema> batch_schemas_;
  int64_t failure_bytes_ = 0;
  int64_t batch_bytes_ = 0;
  int64_t batch_rows_ = 0;
  std::optional<std::chrono::system_clock::time_point> first_arrival_;
  // How long a recent flush (close files + commit) took, decaying slowly: the
  // freshness deadline starts the flush this much early, so a record is
  // visible within the freshness, not freshness + commit time.
  std::chrono::milliseconds flush_estimate_{0};
  // Per partition, how far the worker had read when the last fault hit: the
  // re-read batch is flushed once it gets there again.
  catalog::NextOffsets catch_up_;
  // The record expiration horizon is re-read once per batch (commit cycle):
  // the configuration may change while the channel runs, and a record whose
  // timestamp crosses the horizon during one batch's freshness interval is
  // removed by the next expiration run instead.
  bool horizon_stale_ = true;
  bool stall_logged_ = false;
  bool paused_ = false;     // Fetching stopped while the worker backs off.
  bool streaming_ = false;  // The last poll returned a record.
  // Inside Poll: a revoke there may commit (not during Close or Stop).
  bool polling_ = false;
  // A revoke dropped the batch: the retained partitions restart at their
  // catalog offsets once Poll returns (not inside the rebalance callback).
  bool rewind_pending_ = false;
  // From closing a consumer to remake it until the new one's first
  // assignment: the close revokes nothing, the assignment continues the batch.
  bool resizing_ = false;
  // While a revoke commits: the time it must be done by.
  std::optional<std::chrono::steady_clock::time_point> revoke_deadline_;
  std::chrono::milliseconds backoff_{100};
  std::chrono::system_clock::time_point last_lag_update_;

  mutable common::Mutex mu_;
  common::CondVar cv_;  // Signalled by Stop().
  bool stop_ GUARDED_BY(mu_) = false;
  std::optional<WorkerFault> fault_ GUARDED_BY(mu_);
  std::thread thread_;
};

}  // namespace st::delivery
