// The delivery runtime inside `streamtables server`: a reconciler thread
// that drives every channel's status (the runtime's half of the plan's
// "Status ownership") and one ChannelWorker per ACTIVE channel.
//
//   CREATING   → configuration parses, cluster and buckets exist, the schema
//                resolves, the service role may create tables and write the
//                DLQ → the topic's end offsets become the channel's start
//                (no backfill) → ACTIVE; otherwise FAILED {code, message}.
//   UPDATING   → the worker restarts with the new configuration → ACTIVE.
//   ACTIVE     → worker running; paused → SUSPENDED {PAUSED}; table deleted
//                → SUSPENDING → SUSPENDED {TABLE_DELETED}; a worker fault →
//                FAILED or SUSPENDED with its stateInfo.
//   SUSPENDED {PAUSED} and resumed → ACTIVE.
//   DELETING   → worker stopped, offsets and row deleted.
// Every status change is a compare-and-swap on the row (expected_status), so
// a concurrent API call wins cleanly.
//
// Replicas (docs/replicas.md): every replica runs a worker for each ACTIVE
// channel (the workers of one channel share its Kafka consumer group and
// split its partitions). Status transitions are run-once work: only the
// replica holding the run-once lease (Deps::is_leader) makes them, i.e.
// CREATING → ACTIVE (with the start offsets), UPDATING → ACTIVE,
// SUSPENDING, pause and resume, table-deleted suspension, and DELETING's
// removal of the row. A follower stops its worker where the leader will
// change the status. One exception: a worker's own fault (ACTIVE → FAILED
// or SUSPENDING/SUSPENDED with the worker's stateInfo) is written by the
// replica whose worker saw it, since only it knows; it is a CAS from ACTIVE,
// so it cannot overwrite the leader's decision.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "auth/authorizer.h"
#include "catalog/metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/logger.h"
#include "common/random.h"
#include "delivery/channel_metrics.h"
#include "storage/object_store.h"

namespace st::delivery {

class KafkaClientFactory;
class RecordFormat;

class DeliveryService {
 public:
  // Not owned; all must outlive the service. The composition root passes
  // the real adapters (NewRdKafkaClientFactory, NewDecodingRecordFormat over
  // the schema registry); tests pass fakes.
  struct Deps {
    catalog::MetadataStore& store;
    catalog::TableCommits& commits;
    storage::ObjectStore& objects;
    const auth::Authorizer& authorizer;
    const Clock& clock;
    Random& random;
    std::string region;
    std::string key_root;  // TableCommitsOptions::key_root.
    Logger& logger;
    KafkaClientFactory& kafka;
    RecordFormat& record_format;
    // This server's name among replicas on one catalog (server/data_dir.h).
    std::string replica_id = "r-local";
    // Whether this replica holds the run-once lease (server/lease_keeper.h),
    // asked before each channel's reconciliation. Empty: always (a single
    // process on SQLite, and tests).
    std::function<bool()> is_leader = {};
  };
  struct Options {
    // How often channel rows are re-read (status changes take effect within it).
    std::chrono::milliseconds reconcile_interval{500};
    // Per channel: decoded rows + failed records held before a commit is
    // forced (backpressure instead of unbounded queues).
    int64_t buffer_budget_bytes = 64LL << 20;
    // Over all channels together (memory_budget.h); 0: no server-wide bound.
    int64_t total_buffer_budget_bytes = 512LL << 20;
    std::chrono::milliseconds poll_timeout{100};
    std::chrono::milliseconds max_backoff{10000};
  };

  DeliveryService(Deps deps, Options options);
  ~DeliveryService();  // Stops.
  DeliveryService(const DeliveryService&) = delete;
  DeliveryService& operator=(const DeliveryService&) = delete;

  // Starts the reconciler thread. Idempotent.
  void Start();
  // Stops the reconciler and every worker: a commit in flight completes,
  // uncommitted work is dropped (re-read from Kafka after a restart).
  void Stop();

  // One reconciliation pass (the thread runs this every interval; tests call
  // it directly without Start).
  void ReconcileOnce();

  // Prometheus text format, one sample per channel and metric:
  // streamtables_delivery_{data_freshness_seconds, bytes_in_total,
  // bytes_processed_total, bytes_out_total, rows_total, rows_successful_total,
  // rows_failed_total, commits_total, dlq_records_total, consumer_lag,
  // stalled, failing_seconds, errors_total, seconds_since_progress} and
  // streamtables_delivery_last_error_info (channel_metrics.h); then the
  // server-wide streamtables_delivery_buffered_bytes and
  // streamtables_delivery_buffer_budget_bytes.
  // Thread-safe.
  std::string MetricsText() const;

  // What DescribeChannel adds to an ACTIVE channel whose row has no
  // stateInfo: {DELIVERY_STALLED, message with the last error} while its
  // worker's attempts have failed for longer than the data freshness (the
  // worker keeps retrying; the catalog may be the part that fails, so this is
  // live state, not a row). nullopt otherwise. Thread-safe.
  std::optional<catalog::ChannelStateInfo> LiveStateInfo(const std::string& channel_arn) const;

  // The writer schema versions whose records the channel's worker committed
  // to the DLQ as SCHEMA_INCOMPATIBLE since the server started (counts and
  // the last reason). Thread-safe.
  std::map<std::string, ChannelMetrics::Quarantined> QuarantinedVersions(
      const std::string& channel_arn) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace st::delivery
