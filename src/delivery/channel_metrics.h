// Per-channel delivery counters (docs/msk-channel-api-notes.md §9) and their Prometheus
// text rendering. Workers update them lock-free; /metrics reads them.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/channel_records.h"
#include "common/mutex.h"

namespace st::delivery {

struct ChannelMetrics {
  // Labels.
  std::string channel;  // Channel name.
  std::string channel_arn;
  std::string cluster;  // Cluster name.
  std::string topic;

  std::atomic<int64_t> bytes_in{0};         // Record bytes consumed.
  std::atomic<int64_t> bytes_processed{0};  // Record bytes committed (rows and DLQ).
  std::atomic<int64_t> bytes_out{0};        // Data file bytes committed.
  std::atomic<int64_t> rows{0};             // Records consumed.
  std::atomic<int64_t> rows_successful{0};  // Rows committed to the table.
  std::atomic<int64_t> rows_failed{0};      // Records committed to the DLQ.
  std::atomic<int64_t> commits{0};
  // Time spent in successful flushes (closing the batch's files and the
  // commit), ms: with `commits`, the mean commit latency of any window, the
  // figure that must stay flat as a table ages (maintenance, issue 10).
  std::atomic<int64_t> commit_ms{0};
  // Commits rebuilt on new table metadata because another writer (another
  // replica's worker, maintenance) committed to the table first.
  std::atomic<int64_t> commit_retries{0};
  // Batches committed because a rebalance revoked some of their partitions.
  std::atomic<int64_t> revoke_commits{0};
  // Consumers remade because the fair share of the delivery budget moved
  // (channels came or went; channel_worker.h ResizeConsumerIfStale).
  std::atomic<int64_t> consumer_resizes{0};
  // Seeks that woke librdkafka's fetcher after an empty poll with records
  // still in the topic (ChannelWorker::WakeFetcherIfBehind).
  std::atomic<int64_t> fetch_wakeups{0};
  std::atomic<int64_t> dlq_records{0};
  // Timestamp (ms) of the oldest consumed record not yet committed; 0: none.
  std::atomic<int64_t> oldest_uncommitted_ms{0};
  std::atomic<int64_t> consumer_lag{0};  // Records behind the high watermarks.

  // Faults. The channel's data freshness (ms), set by its worker.
  std::atomic<int64_t> freshness_ms{0};
  // Failed attempts (storage, catalog or Kafka errors), each retried.
  std::atomic<int64_t> errors{0};
  // When the first failed attempt since the last progress happened (ms since
  // the epoch); 0 while healthy.
  std::atomic<int64_t> failing_since_ms{0};
  // The last successful commit, or the worker's start (ms since the epoch).
  std::atomic<int64_t> last_progress_ms{0};

  void set_last_error(std::string error) EXCLUDES(error_mu_) {
    common::MutexLock lock(error_mu_);
    last_error_ = std::move(error);
  }
  std::string last_error() const EXCLUDES(error_mu_) {
    common::MutexLock lock(error_mu_);
    return last_error_;
  }
  // A writer schema version whose records are quarantined (committed to the
  // DLQ as SCHEMA_INCOMPATIBLE): how many so far and why.
  struct Quarantined {
    int64_t records = 0;
    std::string message;
  };
  void AddQuarantined(const std::string& version, int64_t records, const std::string& message)
      EXCLUDES(error_mu_) {
    common::MutexLock lock(error_mu_);
    // Bounded: a hostile producer could name endless versions; the first
    // ones are kept (their records are counted in dlq_records either way).
    if (quarantined_.size() >= kMaxQuarantined && !quarantined_.contains(version)) return;
    Quarantined& q = quarantined_[version];
    q.records += records;
    q.message = message;
  }
  std::map<std::string, Quarantined> quarantined() const EXCLUDES(error_mu_) {
    common::MutexLock lock(error_mu_);
    return quarantined_;
  }
  static constexpr size_t kMaxQuarantined = 100;

  // Failing for at least the data freshness.
  bool stalled(int64_t now_ms) const {
    const int64_t since = failing_since_ms.load();
    return since > 0 && now_ms - since >= freshness_ms.load();
  }

 private:
  mutable common::Mutex error_mu_;
  std::string last_error_ GUARDED_BY(error_mu_);
  std::map<std::string, Quarantined> quarantined_ GUARDED_BY(error_mu_);
};

// While `m` is stalled: the ACTIVE channel's stateInfo {DELIVERY_STALLED,
// message naming how long, the freshness, the last error and the retry
// schedule up to `max_backoff_ms`}; nullopt otherwise.
std::optional<catalog::ChannelStateInfo> StallStateInfo(const ChannelMetrics& m, int64_t now_ms,
                                                        int64_t max_backoff_ms);

// Prometheus text exposition (version 0.0.4): HELP/TYPE once per family, one
// sample per channel; data freshness = now - oldest_uncommitted_ms (0 when
// nothing is waiting); streamtables_delivery_stalled 0/1,
// streamtables_delivery_failing_seconds, streamtables_delivery_errors_total,
// streamtables_delivery_seconds_since_progress and, only for a channel whose
// last attempt failed, streamtables_delivery_last_error_info{...,error="..."} 1;
// st_channel_schema_incompatible_records_total{...,version="<writer schema
// version>"} per quarantined version.
std::string RenderMetrics(const std::vector<std::shared_ptr<const ChannelMetrics>>& channels,
                          int64_t now_ms);

}  // namespace st::delivery
