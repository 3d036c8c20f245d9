// Per Kafka partition, the offset range [from, to) a channel worker has
// consumed but not yet committed. `from` is where the catalog says the
// partition continues (the commit's fence); `to` is one past the last record
// taken. Not thread-safe (one worker owns it).
#pragma once

#include "catalog/channel_offsets.h"

namespace st::delivery {

class OffsetTracker {
 public:
  // The partition continues at `next` (its catalog offset); forgets any
  // uncommitted range it had.
  void Start(catalog::KafkaPartition partition, catalog::KafkaOffset next);
  void Remove(catalog::KafkaPartition partition);
  void Clear() { partitions_.clear(); }

  // Takes the record at `offset`: false when the partition is not tracked or
  // the record lies before the range's end (a record fetched before a seek;
  // the caller drops it). Gaps (compaction, transaction markers) are fine.
  bool Accept(catalog::KafkaPartition partition, catalog::KafkaOffset offset);

  // The uncommitted ranges (partitions with to > from).
  catalog::OffsetRanges Pending() const;
  bool HasPending() const;
  // Every tracked partition's `to` (the next offset to consume).
  catalog::NextOffsets Next() const;
  // After a successful commit of `ranges`: their `from` becomes `to`.
  void Committed(const catalog::OffsetRanges& ranges);

 private:
  catalog::OffsetRanges partitions_;
};

}  // namespace st::delivery
