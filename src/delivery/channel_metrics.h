// Per-channel delivery counters (msk-channel-api.md §9) and their Prometheus
// text rendering. Workers update them lock-free; /metrics reads them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
  std::atomic<int64_t> dlq_records{0};
  // Timestamp (ms) of the oldest consumed record not yet committed; 0: none.
  std::atomic<int64_t> oldest_uncommitted_ms{0};
  std::atomic<int64_t> consumer_lag{0};  // Records behind the high watermarks.
};

// Prometheus text exposition (version 0.0.4): HELP/TYPE once per family, one
// sample per channel; data freshness = now - oldest_uncommitted_ms (0 when
// nothing is waiting).
std::string RenderMetrics(const std::vector<std::shared_ptr<const ChannelMetrics>>& channels,
                          int64_t now_ms);

}  // namespace st::delivery
