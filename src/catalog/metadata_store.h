// MetadataStore: the catalog database, single source of truth for identities,
// table buckets, namespaces, tables (with each table's metadata pointer),
// tags, Kafka clusters, delivery channels with their offsets and
// general-purpose buckets. SQLite by default (sqlite_metadata_store.h),
// PostgreSQL at scale; nothing here depends on either.
//
// MetadataStore is the aggregate of the per-entity interfaces below, each in
// its own header and small enough for a backend to implement and test on its
// own (tests/unit/catalog/conformance/ is the suite every backend runs).
// A caller that needs one entity takes that interface, not this class; the
// composition root hands out one MetadataStore as all of them.
//
//   identity_store.h               IdentityStore (accounts, users, roles,
//                                  access keys, identity policies)
//   table_bucket_store.h           TableBucketStore (+ policy, encryption,
//                                  maintenance)
//   namespace_store.h              NamespaceStore
//   table_store.h                  TableStore (+ pointer swap, policy,
//                                  maintenance, record expiration)
//   tag_store.h                    TagStore
//   channel_store.h                ChannelStore (+ channel operations)
//   channel_offset_store.h         ChannelOffsetStore
//   kafka_cluster_store.h          KafkaClusterStore
//   general_purpose_bucket_store.h GeneralPurposeBucketStore
//   lease_store.h                  LeaseStore (run-once work among replicas)
//   unit_of_work.h                 UnitOfWorkSource: writes across entities
//                                  in one transaction (the delivery commit)
//
// Contract shared by every implementation of every interface:
//  - Each method is atomic: it fully happens or leaves nothing changed, also
//    across processes sharing the database. Writes that must span entities
//    go through one UnitOfWork.
//  - The store generates ids, ARNs, version tokens, warehouse locations,
//    access keys and timestamps from the Clock and Random it was opened with.
//  - Inputs are validated by the store (names.h rules, ARN shapes, page
//    limits); policy and configuration documents are stored as given (the
//    API layer parses them).
//  - Errors use S3 Tables-style messages: NotFound ("The specified table does
//    not exist."), AlreadyExists (a duplicate name; ConflictException
//    upstream), Conflict (stale version token, offset fence, non-empty
//    container), InvalidArgument, AccessDenied (a streaming table changed by
//    anyone but its channel), Unavailable (database busy beyond the timeout;
//    retry), Io / Corruption (the database itself), CommitStateUnknown (the
//    database failed while committing a pointer swap: re-read, do not blindly
//    retry).
//  - Implementations are thread-safe; each backend's header says how it
//    serialises (SQLite: one connection behind one mutex).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/channel_offset_store.h"
#include "catalog/channel_offsets.h"
#include "catalog/channel_records.h"
#include "catalog/channel_store.h"
#include "catalog/general_purpose_bucket_store.h"
#include "catalog/identity_store.h"
#include "catalog/kafka_cluster_store.h"
#include "catalog/lease_store.h"
#include "catalog/maintenance_job_store.h"
#include "catalog/namespace_store.h"
#include "catalog/pagination.h"
#include "catalog/records.h"
#include "catalog/table_bucket_store.h"
#include "catalog/table_store.h"
#include "catalog/tag_store.h"
#include "catalog/unit_of_work.h"
#include "common/status.h"

namespace st::catalog {

class MetadataStore : public IdentityStore,
                      public TableBucketStore,
                      public NamespaceStore,
                      public TableStore,
                      public TagStore,
                      public ChannelStore,
                      public ChannelOffsetStore,
                      public KafkaClusterStore,
                      public GeneralPurposeBucketStore,
                      public MaintenanceJobStore,
                      public LeaseStore,
                      public UnitOfWorkSource {
 public:
  ~MetadataStore() override = default;

  // The exactly-once delivery commit (unit_of_work.h CommitWithOffsets) on
  // this store. In one transaction: the table must be managed by
  // `channel_arn`, its token must equal `expected_version_token`, and every
  // range's `from` must equal the channel's stored next offset for that
  // partition (a partition without a row: the channel's start offset); then
  // the pointer is swapped and each partition's next offset becomes its
  // `to`. Errors: FailedPrecondition (channel offsets never initialised),
  // InvalidArgument (empty ranges, to < from), AccessDenied (not the table's
  // channel), Conflict (stale token or offset mismatch — a zombie writer;
  // nothing changed), NotFound, Unavailable, CommitStateUnknown.
  Result<Table> CommitWithOffsets(const std::string& table_id,
                                  const std::string& expected_version_token,
                                  const std::string& new_metadata_location,
                                  const std::string& channel_arn, const OffsetRanges& ranges,
                                  const std::string& modified_by) {
    return catalog::CommitWithOffsets(*this, table_id, expected_version_token,
                                      new_metadata_location, channel_arn, ranges, modified_by);
  }
};

}  // namespace st::catalog
