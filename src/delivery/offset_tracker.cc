#include "delivery/offset_tracker.h"

namespace st::delivery {

void OffsetTracker::Start(catalog::KafkaPartition partition, catalog::KafkaOffset next) {
  partitions_[partition] = catalog::OffsetRange{next, next};
}

void OffsetTracker::Remove(catalog::KafkaPartition partition) { partitions_.erase(partition); }

bool OffsetTracker::Accept(catalog::KafkaPartition partition, catalog::KafkaOffset offset) {
  auto it = partitions_.find(partition);
  if (it == partitions_.end() || offset < it->second.to) return false;
  it->second.to = offset + 1;
  return true;
}

catalog::OffsetRanges OffsetTracker::Pending() const {
  catalog::OffsetRanges out;
  for (const auto& [partition, range] : partitions_) {
    if (range.to > range.from) out[partition] = range;
  }
  return out;
}

bool OffsetTracker::HasPending() const {
  for (const auto& [partition, range] : partitions_) {
    if (range.to > range.from) return true;
  }
  return false;
}

catalog::NextOffsets OffsetTracker::Next() const {
  catalog::NextOffsets out;
  for (const auto& [partition, range] : partitions_) out[partition] = range.to;
  return out;
}

void OffsetTracker::Committed(const catalog::OffsetRanges& ranges) {
  for (const auto& [partition, range] : ranges) {
    auto it = partitions_.find(partition);
    if (it != partitions_.end() && it->second.from == range.from) it->second.from = range.to;
  }
}

}  // namespace st::delivery
