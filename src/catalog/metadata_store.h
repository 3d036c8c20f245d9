// MetadataStore: the catalog database, single source of truth for identities,
// table buckets, namespaces, tables (with each table's metadata pointer) and
// delivery-channel offsets. SQLite by default (sqlite_metadata_store.h),
// PostgreSQL at scale; nothing here depends on either.
//
// Contract shared by every implementation:
//  - Each method is atomic: it fully happens or leaves nothing changed, also
//    across processes sharing the database.
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
//  - Implementations are thread-safe.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/channel_offsets.h"
#include "catalog/channel_records.h"
#include "catalog/pagination.h"
#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

struct NewTableBucket {
  std::string owner_account_id;
  std::string region;
  std::string name;
  EncryptionConfig encryption;  // Default AES256, as S3 Tables does.
};

struct NewTable {
  std::string bucket_arn;
  std::string namespace_name;
  std::string name;
  std::string created_by;  // Account id; also the first modified_by.
  // Set only by the delivery channel that creates its streaming table.
  std::optional<std::string> managed_by_channel;
  // Absent: inherit the bucket's encryption.
  std::optional<EncryptionConfig> encryption;
};

// Maintenance configuration values are the S3 Tables JSON `value` documents
// ({"status":..,"settings":{..}}) keyed by type ("icebergCompaction", ...);
// only what was put is returned (maintenance_defaults.h fills the rest).
using MaintenanceConfigs = std::map<std::string, std::string>;
using Tags = std::map<std::string, std::string>;

class MetadataStore {
 public:
  virtual ~MetadataStore() = default;

  // ---- Accounts and identities ----

  // Errors: InvalidArgument, AlreadyExists.
  virtual Status CreateAccount(const std::string& account_id) = 0;
  // Errors: InvalidArgument.
  virtual Result<bool> AccountExists(const std::string& account_id) = 0;
  // Errors: InvalidArgument, NotFound.
  virtual Result<Account> GetAccount(const std::string& account_id) = 0;
  // Every account ordered by id; page.prefix filters ids. Errors:
  // InvalidArgument (page limit, or a token from another listing or prefix).
  virtual Result<Page<Account>> ListAccounts(const PageRequest& page) = 0;
  // A user or role in an existing account. Errors: InvalidArgument, NotFound
  // (account), AlreadyExists.
  virtual Result<Identity> CreateIdentity(IdentityKind kind, const std::string& account_id,
                                          const std::string& name) = 0;
  // Errors: NotFound.
  virtual Result<Identity> GetIdentity(const std::string& arn) = 0;
  // Every user and role of the account, ordered by ARN.
  virtual Result<std::vector<Identity>> ListIdentities(const std::string& account_id) = 0;
  // Also deletes its access keys and identity policies. Errors: NotFound.
  virtual Status DeleteIdentity(const std::string& arn) = 0;

  // A new active key with a fresh secret. Errors: NotFound (owner).
  virtual Result<AccessKey> CreateAccessKey(const std::string& owner_arn) = 0;
  // Errors: NotFound.
  virtual Result<AccessKey> GetAccessKey(const std::string& access_key_id) = 0;
  // Ordered by key id. Errors: NotFound (owner).
  virtual Result<std::vector<AccessKey>> ListAccessKeys(const std::string& owner_arn) = 0;
  // Errors: NotFound.
  virtual Status SetAccessKeyStatus(const std::string& access_key_id, AccessKeyStatus status) = 0;
  // Errors: NotFound.
  virtual Status DeleteAccessKey(const std::string& access_key_id) = 0;

  // Creates or replaces an inline policy. Errors: NotFound (owner), InvalidArgument.
  virtual Status PutIdentityPolicy(const std::string& owner_arn, const NamedPolicy& policy) = 0;
  // Ordered by name. Errors: NotFound (owner).
  virtual Result<std::vector<NamedPolicy>> ListIdentityPolicies(const std::string& owner_arn) = 0;
  // Errors: NotFound (owner or policy).
  virtual Status DeleteIdentityPolicy(const std::string& owner_arn, const std::string& name) = 0;

  // ---- Table buckets ----

  // Errors: InvalidArgument, AlreadyExists.
  virtual Result<TableBucket> CreateTableBucket(const NewTableBucket& bucket) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<TableBucket> GetTableBucket(const std::string& bucket_arn) = 0;
  // The account's buckets ordered by name; prefix filters names.
  virtual Result<Page<TableBucket>> ListTableBuckets(const std::string& owner_account_id,
                                                     const PageRequest& page) = 0;
  // Also deletes its policy, maintenance configuration and tags. Errors:
  // NotFound, Conflict (namespaces remain).
  virtual Status DeleteTableBucket(const std::string& bucket_arn) = 0;

  // Resource policy. Put creates or replaces; Get is NotFound when none is
  // set; Delete is idempotent once the bucket exists.
  virtual Status PutTableBucketPolicy(const std::string& bucket_arn,
                                      const std::string& document) = 0;
  virtual Result<std::string> GetTableBucketPolicy(const std::string& bucket_arn) = 0;
  virtual Status DeleteTableBucketPolicy(const std::string& bucket_arn) = 0;

  // Delete restores the default (AES256). Errors: NotFound, InvalidArgument.
  virtual Status PutTableBucketEncryption(const std::string& bucket_arn,
                                          const EncryptionConfig& config) = 0;
  virtual Status DeleteTableBucketEncryption(const std::string& bucket_arn) = 0;

  virtual Status PutTableBucketMaintenance(const std::string& bucket_arn, const std::string& type,
                                           const std::string& value_json) = 0;
  virtual Result<MaintenanceConfigs> GetTableBucketMaintenance(const std::string& bucket_arn) = 0;

  // ---- Namespaces ----

  // Errors: InvalidArgument, NotFound (bucket), AlreadyExists.
  virtual Result<Namespace> CreateNamespace(const std::string& bucket_arn, const std::string& name,
                                            const std::string& created_by) = 0;
  // Errors: NotFound (bucket or namespace).
  virtual Result<Namespace> GetNamespace(const std::string& bucket_arn,
                                         const std::string& name) = 0;
  // Ordered by name. Errors: NotFound (bucket), InvalidArgument.
  virtual Result<Page<Namespace>> ListNamespaces(const std::string& bucket_arn,
                                                 const PageRequest& page) = 0;
  // Errors: NotFound, Conflict (tables remain).
  virtual Status DeleteNamespace(const std::string& bucket_arn, const std::string& name) = 0;

  // ---- Tables ----

  // A table with no metadata yet and a fresh id, ARN, version token and
  // warehouse location. Errors: InvalidArgument, NotFound (bucket or
  // namespace), AlreadyExists.
  virtual Result<Table> CreateTable(const NewTable& table) = 0;
  // Errors: NotFound (bucket, namespace or table).
  virtual Result<Table> GetTable(const std::string& bucket_arn, const std::string& namespace_name,
                                 const std::string& name) = 0;
  // Errors: NotFound.
  virtual Result<Table> GetTableById(const std::string& table_id) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<Table> GetTableByArn(const std::string& table_arn) = 0;
  // The table whose warehouse location is exactly `warehouse_location`
  // ("s3://<id>--table-s3", as Table::warehouse_location holds it); the S3
  // data endpoint finds a bucket's owning table this way. Errors: NotFound.
  virtual Result<Table> GetTableByWarehouseLocation(const std::string& warehouse_location) = 0;
  // Ordered by (namespace, name); `namespace_name` (optional) filters
  // exactly, page.prefix filters table names. Errors: NotFound (bucket).
  virtual Result<Page<Table>> ListTables(const std::string& bucket_arn,
                                         const std::optional<std::string>& namespace_name,
                                         const PageRequest& page) = 0;
  // Deletes the row with its policy, configuration and tags (the API layer
  // purges the files). A streaming table may be deleted by anyone allowed to.
  // Errors: NotFound, Conflict (expected_version_token given and stale).
  virtual Status DeleteTable(const std::string& table_id,
                             const std::optional<std::string>& expected_version_token) = 0;
  // Moves and/or renames; returns the table with its new version token.
  // Errors: InvalidArgument, NotFound (table or target namespace),
  // AlreadyExists (target name taken), Conflict (stale token), AccessDenied
  // (streaming table, writer is not its channel).
  virtual Result<Table> RenameTable(const std::string& table_id,
                                    const std::optional<std::string>& expected_version_token,
                                    const std::string& new_namespace_name,
                                    const std::string& new_name, const TableWriter& writer) = 0;

  // THE compare-and-swap of the metadata pointer, shared by
  // UpdateTableMetadataLocation and Iceberg REST commits: sets
  // metadata_location and a fresh version token iff the current token equals
  // `expected_version_token`. Returns the updated table. Errors: NotFound,
  // Conflict ("Provided version token does not match the table version
  // token."; nothing changed), AccessDenied (streaming table, writer is not
  // its channel), CommitStateUnknown.
  virtual Result<Table> SwapMetadataLocation(const std::string& table_id,
                                             const std::string& expected_version_token,
                                             const std::string& new_metadata_location,
                                             const TableWriter& writer) = 0;

  // The exactly-once delivery commit. In one transaction: the table must be
  // managed by `channel_arn`, its token must equal `expected_version_token`,
  // and every range's `from` must equal the channel's stored next offset for
  // that partition (a partition without a row: the channel's start offset);
  // then the pointer is swapped and each partition's next offset becomes its
  // `to`. Errors: FailedPrecondition (channel offsets never initialised),
  // InvalidArgument (empty ranges, to < from), AccessDenied (not the table's
  // channel), Conflict (stale token or offset mismatch — a zombie writer;
  // nothing changed), NotFound, CommitStateUnknown.
  virtual Result<Table> CommitWithOffsets(const std::string& table_id,
                                          const std::string& expected_version_token,
                                          const std::string& new_metadata_location,
                                          const std::string& channel_arn,
                                          const OffsetRanges& ranges,
                                          const std::string& modified_by) = 0;

  // Table resource policy (same shape as the bucket's).
  virtual Status PutTablePolicy(const std::string& table_id, const std::string& document) = 0;
  virtual Result<std::string> GetTablePolicy(const std::string& table_id) = 0;
  virtual Status DeleteTablePolicy(const std::string& table_id) = 0;

  virtual Status PutTableMaintenance(const std::string& table_id, const std::string& type,
                                     const std::string& value_json) = 0;
  virtual Result<MaintenanceConfigs> GetTableMaintenance(const std::string& table_id) = 0;
  // nullopt when never set.
  virtual Status PutTableRecordExpiration(const std::string& table_id,
                                          const std::string& value_json) = 0;
  virtual Result<std::optional<std::string>> GetTableRecordExpiration(
      const std::string& table_id) = 0;

  // ---- Tags (bucket, table, or Kafka channel ARN) ----

  // Merges into the existing tags. Errors: NotFound (resource),
  // InvalidArgument (bad tag, more than kMaxTagsPerResource in total).
  virtual Status TagResource(const std::string& resource_arn, const Tags& tags) = 0;
  // Missing keys are ignored. Errors: NotFound (resource).
  virtual Status UntagResource(const std::string& resource_arn,
                               const std::vector<std::string>& keys) = 0;
  virtual Result<Tags> ListTags(const std::string& resource_arn) = 0;

  // ---- Delivery channel offsets ----

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

  // ---- Kafka clusters (registered by an admin) ----

  // Errors: InvalidArgument (name, empty bootstrap servers), AlreadyExists
  // (same name in the account).
  virtual Result<KafkaCluster> CreateKafkaCluster(const NewKafkaCluster& cluster) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<KafkaCluster> GetKafkaCluster(const std::string& cluster_arn) = 0;
  // The account's clusters ordered by name.
  virtual Result<std::vector<KafkaCluster>> ListKafkaClusters(
      const std::string& owner_account_id) = 0;
  // Errors: NotFound, Conflict (channels remain).
  virtual Status DeleteKafkaCluster(const std::string& cluster_arn) = 0;

  // ---- Delivery channels ----

  // A channel in CREATING with a fresh ARN, a fresh cluster_operation_arn
  // and generation 1. Errors: InvalidArgument, NotFound (cluster, also when
  // it belongs to another account), AlreadyExists (name taken in the cluster).
  virtual Result<Channel> CreateChannel(const NewChannel& channel) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<Channel> GetChannel(const std::string& channel_arn) = 0;
  // The cluster's channels ordered by name; page.prefix filters names and
  // `topic_name` (optional) filters topics exactly. Errors: NotFound (cluster).
  virtual Result<Page<Channel>> ListChannels(const std::string& cluster_arn,
                                             const std::optional<std::string>& topic_name,
                                             const PageRequest& page) = 0;
  // Every channel of every account (the delivery runtime reconciles them).
  virtual Result<std::vector<Channel>> ListAllChannels() = 0;
  // Applies `change` and bumps generation; returns the new row. A status
  // change without an explicit cluster_operation_arn mints a fresh one when
  // entering CREATING/UPDATING/DELETING and clears it otherwise (MSK returns
  // it only while an operation is in flight). The operation it clears ends:
  // FAILED (with the channel's state info) when the channel became FAILED,
  // else COMPLETED. Errors: NotFound, Conflict (expected_status differs;
  // nothing changed), InvalidArgument.
  virtual Result<Channel> UpdateChannel(const std::string& channel_arn,
                                        const ChannelChange& change) = 0;
  // Removes the row, its tags and its offsets; its operation in flight (the
  // delete) ends COMPLETED. Errors: NotFound.
  virtual Status DeleteChannel(const std::string& channel_arn) = 0;
  // An operation minted by CreateChannel/UpdateChannel, in flight or ended;
  // ended ones are kept for 30 days. Errors: NotFound.
  virtual Result<ChannelOperation> GetChannelOperation(const std::string& operation_arn) = 0;

  // ---- General-purpose S3 buckets (dead-letter queue targets) ----

  // Errors: InvalidArgument (S3 bucket naming), AlreadyExists (any account:
  // names are global).
  virtual Result<GeneralPurposeBucket> CreateGeneralPurposeBucket(
      const std::string& owner_account_id, const std::string& region, const std::string& name) = 0;
  // Errors: NotFound.
  virtual Result<GeneralPurposeBucket> GetGeneralPurposeBucket(const std::string& name) = 0;
  // The account's buckets ordered by name.
  virtual Result<std::vector<GeneralPurposeBucket>> ListGeneralPurposeBuckets(
      const std::string& owner_account_id) = 0;
  // The API layer checks emptiness first. Errors: NotFound.
  virtual Status DeleteGeneralPurposeBucket(const std::string& name) = 0;
};

}  // namespace st::catalog
