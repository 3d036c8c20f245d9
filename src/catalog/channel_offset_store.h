// ChannelOffsetStore: each delivery channel's per-partition next Kafka
// offset, kept in the catalog so that a delivery commit advances it in the
// same transaction as the table's metadata pointer (docs/ARCHITECTURE.md
// "Exactly-once delivery"; that commit is a UnitOfWork, unit_of_work.h, or
// MetadataStore::CommitWithOffsets). One of the per-entity interfaces that
// MetadataStore aggregates (metadata_store.h states the shared contract).
//
// Thread-safety: implementations are thread-safe; every method is atomic.
#pragma once

#include <string>

#include "catalog/channel_offsets.h"
#include "common/status.h"

namespace st::catalog {

class ChannelOffsetStore {
 public:
  virtual ~ChannelOffsetStore() = default;

  // Records where a new channel starts: `start_offsets` per known partition
  // (the topic's end offsets at enable time) and `default_start_offset` for
  // partitions that appear later (0: they hold only new records). Errors:
  // AlreadyExists (initialised before; delete first), InvalidArgument.
  virtual Status InitChannelOffsets(const std::string& channel_arn,
                                    const NextOffsets& start_offsets,
                                    KafkaOffset default_start_offset) = 0;
  // The next offset of every partition with a row (the start offsets until a
  // commit advances them). Errors: NotFound (never initialised).
  virtual Result<NextOffsets> GetChannelOffsets(const std::string& channel_arn) = 0;
  // The next offset of one partition (the default start when it has no row).
  // Errors: NotFound (never initialised).
  virtual Result<KafkaOffset> GetChannelOffset(const std::string& channel_arn,
                                               KafkaPartition partition) = 0;
  // Idempotent.
  virtual Status DeleteChannelOffsets(const std::string& channel_arn) = 0;
};

}  // namespace st::catalog
