// Kafka offset bookkeeping of delivery channels, kept in the catalog so that
// the offsets advance in the same transaction as the table's metadata pointer
// (docs/ARCHITECTURE.md "Exactly-once delivery").
#pragma once

#include <cstdint>
#include <map>

namespace st::catalog {

using KafkaPartition = int32_t;
using KafkaOffset = int64_t;

// Records [from, to) of one partition, delivered by one commit. Records sent
// to the dead-letter queue count as delivered.
struct OffsetRange {
  KafkaOffset from = 0;
  KafkaOffset to = 0;
  friend bool operator==(const OffsetRange&, const OffsetRange&) = default;
};

using OffsetRanges = std::map<KafkaPartition, OffsetRange>;
// Per partition, the first offset not yet delivered.
using NextOffsets = std::map<KafkaPartition, KafkaOffset>;

}  // namespace st::catalog
