// The Kafka side of delivery as injected interfaces: a consumer per channel
// worker, a producer for the dead-letter topic, and a factory that opens both
// for a registered cluster. rdkafka_client.h adapts librdkafka; unit tests
// use fakes. Nothing here exposes librdkafka types.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/channel_offsets.h"
#include "catalog/channel_records.h"
#include "common/status.h"

namespace st::delivery {

struct RecordHeader {
  std::string key;
  std::optional<std::string> value;
};

// One consumed record, owning its bytes.
struct ConsumedRecord {
  std::string topic;
  catalog::KafkaPartition partition = 0;
  catalog::KafkaOffset offset = 0;
  int64_t timestamp_ms = 0;  // The broker/producer timestamp.
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::vector<RecordHeader> headers;

  int64_t size_bytes() const {
    int64_t n = (key ? static_cast<int64_t>(key->size()) : 0) +
                (value ? static_cast<int64_t>(value->size()) : 0);
    for (const RecordHeader& h : headers) {
      n += static_cast<int64_t>(h.key.size() + (h.value ? h.value->size() : 0));
    }
    return n;
  }
};

// Called on the polling thread inside Poll when the group hands partitions to
// this consumer: returns where each must start (the catalog's next offsets);
// an error leaves the partitions unconsumed and is returned by Poll (the
// caller then drops the consumer). `incremental` (cooperative rebalancing):
// the partitions are added to those already held, which keep their
// position; otherwise (eager) they are the whole new assignment.
using AssignCallback = std::function<Result<catalog::NextOffsets>(
    const std::vector<catalog::KafkaPartition>&, bool incremental)>;
// Called inside Poll before partitions are taken away: the last moment to
// commit their work (another member starts them at the catalog's offsets
// once this returns). `incremental`: only these go, the rest stay; `lost`:
// the group may already have given them to another member (a commit then
// races the new owner's; the catalog's offset fence lets only one through).
using RevokeCallback =
    std::function<void(const std::vector<catalog::KafkaPartition>&, bool incremental, bool lost)>;

// A group consumer of one topic. Not thread-safe: one worker thread owns it.
class KafkaConsumer {
 public:
  virtual ~KafkaConsumer() = default;
  // The next record, or nullopt after `timeout` without one. Runs the
  // assignment callbacks. Errors: Unavailable (broker trouble; retry), the
  // callbacks' errors.
  virtual Result<std::optional<ConsumedRecord>> Poll(std::chrono::milliseconds timeout) = 0;
  // Restarts the partition at `offset`; records fetched before are dropped.
  virtual Status Seek(catalog::KafkaPartition partition, catalog::KafkaOffset offset) = 0;
  // Currently assigned partitions.
  virtual std::vector<catalog::KafkaPartition> Assignment() const = 0;
  // Stop / restart fetching every assigned partition (backpressure).
  virtual Status PauseAll() = 0;
  virtual Status ResumeAll() = 0;
  // Commits group offsets (lag visibility only; never read back). Async.
  virtual Status CommitGroupOffsets(const catalog::NextOffsets& next) = 0;
  // The latest known high watermark per assigned partition (cached, cheap).
  virtual catalog::NextOffsets HighWatermarks() = 0;
  // Leaves the group. Idempotent.
  virtual void Close() = 0;
};

// Produces to the dead-letter topic. Not thread-safe.
class KafkaProducer {
 public:
  virtual ~KafkaProducer() = default;
  // Queues one record (partition chosen by key). Errors: Unavailable, InvalidArgument.
  virtual Status Produce(const std::string& topic, const std::optional<std::string>& key,
                         const std::optional<std::string>& value,
                         const std::vector<RecordHeader>& headers) = 0;
  // Waits until every queued record is acknowledged. Errors: Unavailable
  // (some record was not delivered; produce again).
  virtual Status Flush(std::chrono::milliseconds timeout) = 0;
};

struct ConsumerSpec {
  std::string topic;
  std::string group_id;
  // Static group membership: unique per replica within the group (two members
  // with one instance id fence each other), stable across this replica's
  // restarts so it takes its partitions back at once.
  std::string group_instance_id;
  // Bounds librdkafka's prefetch queue (part of the channel's buffer budget).
  int64_t max_prefetch_bytes = 16 << 20;
  AssignCallback on_assign;
  RevokeCallback on_revoke;
};

// Thread-safe.
class KafkaClientFactory {
 public:
  virtual ~KafkaClientFactory() = default;
  // The end (high watermark) offset of every partition of `topic`. Errors:
  // NotFound (no such topic), Unavailable (cluster unreachable).
  virtual Result<catalog::NextOffsets> EndOffsets(const catalog::KafkaCluster& cluster,
                                                  const std::string& topic) = 0;
  // A subscribed consumer (not yet assigned: the first Polls join the group).
  virtual Result<std::unique_ptr<KafkaConsumer>> NewConsumer(const catalog::KafkaCluster& cluster,
                                                             ConsumerSpec spec) = 0;
  virtual Result<std::unique_ptr<KafkaProducer>> NewProducer(
      const catalog::KafkaCluster& cluster) = 0;
};

// The librdkafka implementation.
std::unique_ptr<KafkaClientFactory> NewRdKafkaClientFactory();

}  // namespace st::delivery
