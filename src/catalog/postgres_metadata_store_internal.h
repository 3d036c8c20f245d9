// The PostgreSQL MetadataStore. Its methods mirror the SQLite store's file
// by file (postgres_buckets.cc ~ sqlite_buckets.cc, ...) and run the same
// statements in PostgreSQL's dialect; each public method takes a connection
// from the pool for its duration (ConnectionLock) and runs at most one
// transaction. A unit of work (postgres_unit_of_work.cc) holds one
// connection and one transaction for its whole life and stages its writes
// through the *Locked helpers.
//
// Connections: ConnectionLock leases one from the pool and makes it the
// calling thread's connection for this store (a thread-local stack, so
// stores nest); db_ reads it. There is no store mutex: connections are
// independent, and what orders writers is the writer lock every write
// transaction takes in the database (postgres::Transaction), as SQLite's
// BEGIN IMMEDIATE does. A call on a store from a thread that holds an open
// unit of work of that same store is a bug, as in SQLite: checked, aborts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "auth/secret_sealer.h"
#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/random.h"
#include "postgres/connection.h"
#include "postgres/pool.h"

namespace st::catalog::postgres {

using ::st::postgres::Connection;
using ::st::postgres::Pool;
using ::st::postgres::Statement;

// The advisory lock key of the catalog's writers: every write transaction
// of every store on one database takes it (in the database of the
// connection; distinct schemas share it, which only serialises them).
inline constexpr int64_t kWriterLockKey = 0x5354434154414c47;     // "STCATALG"
inline constexpr int64_t kMigrationLockKey = 0x53544d4947524154;  // "STMIGRAT"

// A write transaction holding the writer lock.
class Transaction : public ::st::postgres::Transaction {
 public:
  explicit Transaction(Connection& conn) : ::st::postgres::Transaction(conn, kWriterLockKey) {}
};

class PostgresMetadataStore final : public MetadataStore {
 public:
  // `sealer` may be null (secrets in plaintext; see PostgresStoreOptions).
  PostgresMetadataStore(std::unique_ptr<Pool> pool, const Clock& clock, Random& random,
                        const auth::SecretSealer* sealer)
      : pool_(std::move(pool)), clock_(clock), random_(random), sealer_(sealer) {}

  Status CreateAccount(const std::string& account_id) override;
  Result<bool> AccountExists(const std::string& account_id) override;
  Result<Account> GetAccount(const std::string& account_id) override;
  Result<Page<Account>> ListAccounts(const PageRequest& page) override;
  Result<Identity> CreateIdentity(IdentityKind kind, const std::string& account_id,
                                  const std::string& name) override;
  Result<Identity> GetIdentity(const std::string& arn) override;
  Result<std::vector<Identity>> ListIdentities(const std::string& account_id) override;
  Status DeleteIdentity(const std::string& arn) override;
  Result<AccessKey> CreateAccessKey(const std::string& owner_arn) override;
  Result<AccessKey> GetAccessKey(const std::string& access_key_id) override;
  Result<std::vector<AccessKey>> ListAccessKeys(const std::string& owner_arn) override;
  Status SetAccessKeyStatus(const std::string& access_key_id, AccessKeyStatus status) override;
  Status DeleteAccessKey(const std::string& access_key_id) override;
  Status PutIdentityPolicy(const std::string& owner_arn, const NamedPolicy& policy) override;
  Result<std::vector<NamedPolicy>> ListIdentityPolicies(const std::string& owner_arn) override;
  Status DeleteIdentityPolicy(const std::string& owner_arn, const std::string& name) override;

  Result<TableBucket> CreateTableBucket(const NewTableBucket& bucket) override;
  Result<TableBucket> GetTableBucket(const std::string& bucket_arn) override;
  Result<Page<TableBucket>> ListTableBuckets(const std::string& owner_account_id,
                                             const PageRequest& page) override;
  Status DeleteTableBucket(const std::string& bucket_arn) override;
  Status PutTableBucketPolicy(const std::string& bucket_arn, const std::string& document) override;
  Result<std::string> GetTableBucketPolicy(const std::string& bucket_arn) override;
  Status DeleteTableBucketPolicy(const std::string& bucket_arn) override;
  Status PutTableBucketEncryption(const std::string& bucket_arn,
                                  const EncryptionConfig& config) override;
  Status DeleteTableBucketEncryption(const std::string& bucket_arn) override;
  Status PutTableBucketMaintenance(const std::string& bucket_arn, const std::string& type,
                                   const std::string& value_json) override;
  Result<MaintenanceConfigs> GetTableBucketMaintenance(const std::string& bucket_arn) override;

  Result<Namespace> CreateNamespace(const std::string& bucket_arn, const std::string& name,
                                    const std::string& created_by) override;
  Result<Namespace> GetNamespace(const std::string& bucket_arn, const std::string& name) override;
  Result<Page<Namespace>> ListNamespaces(const std::string& bucket_arn,
                                         const PageRequest& page) override;
  Status DeleteNamespace(const std::string& bucket_arn, const std::string& name) override;

  Result<Table> CreateTable(const NewTable& table) override;
  Result<Table> GetTable(const std::string& bucket_arn, const std::string& namespace_name,
                         const std::string& name) override;
  Result<Table> GetTableById(const std::string& table_id) override;
  Result<Table> GetTableByArn(const std::string& table_arn) override;
  Result<Table> GetTableByWarehouseLocation(const std::string& warehouse_location) override;
  Result<Page<Table>> ListTables(const std::string& bucket_arn,
                                 const std::optional<std::string>& namespace_name,
                                 const PageRequest& page) override;
  Status DeleteTable(const std::string& table_id,
                     const std::optional<std::string>& expected_version_token) override;
  Result<Table> RenameTable(const std::string& table_id,
                            const std::optional<std::string>& expected_version_token,
                            const std::string& new_namespace_name, const std::string& new_name,
                            const TableWriter& writer) override;
  Result<Table> SwapMetadataLocation(const std::string& table_id,
                                     const std::string& expected_version_token,
                                     const std::string& new_metadata_location,
                                     const TableWriter& writer) override;
  Status PutTablePolicy(const std::string& table_id, const std::string& document) override;
  Result<std::string> GetTablePolicy(const std::string& table_id) override;
  Status DeleteTablePolicy(const std::string& table_id) override;
  Status PutTableMaintenance(const std::string& table_id, const std::string& type,
                             const std::string& value_json) override;
  Result<MaintenanceConfigs> GetTableMaintenance(const std::string& table_id) override;
  Status PutTableRecordExpiration(const std::string& table_id,
                                  const std::string& value_json) override;
  Result<std::optional<std::string>> GetTableRecordExpiration(const std::string& table_id) override;

  Status TagResource(const std::string& resource_arn, const Tags& tags) override;
  Status UntagResource(const std::string& resource_arn,
                       const std::vector<std::string>& keys) override;
  Result<Tags> ListTags(const std::string& resource_arn) override;

  Status InitChannelOffsets(const std::string& channel_arn, const NextOffsets& start_offsets,
                            KafkaOffset default_start_offset) override;
  Result<NextOffsets> GetChannelOffsets(const std::string& channel_arn) override;
  Result<KafkaOffset> GetChannelOffset(const std::string& channel_arn,
                                       KafkaPartition partition) override;
  Status DeleteChannelOffsets(const std::string& channel_arn) override;

  Result<KafkaCluster> CreateKafkaCluster(const NewKafkaCluster& cluster) override;
  Result<KafkaCluster> GetKafkaCluster(const std::string& cluster_arn) override;
  Result<std::vector<KafkaCluster>> ListKafkaClusters(const std::string& owner_account_id) override;
  Status DeleteKafkaCluster(const std::string& cluster_arn) override;

  Result<Channel> CreateChannel(const NewChannel& channel) override;
  Result<Channel> GetChannel(const std::string& channel_arn) override;
  Result<Page<Channel>> ListChannels(const std::string& cluster_arn,
                                     const std::optional<std::string>& topic_name,
                                     const PageRequest& page) override;
  Result<std::vector<Channel>> ListAllChannels() override;
  Result<Channel> UpdateChannel(const std::string& channel_arn,
                                const ChannelChange& change) override;
  Status DeleteChannel(const std::string& channel_arn) override;
  Result<ChannelOperation> GetChannelOperation(const std::string& operation_arn) override;

  Result<GeneralPurposeBucket> CreateGeneralPurposeBucket(const std::string& owner_account_id,
                                                          const std::string& region,
                                                          const std::string& name) override;
  Result<GeneralPurposeBucket> GetGeneralPurposeBucket(const std::string& name) override;
  Result<std::vector<GeneralPurposeBucket>> ListGeneralPurposeBuckets(
      const std::string& owner_account_id) override;
  Status DeleteGeneralPurposeBucket(const std::string& name) override;

  Status PutMaintenanceJobState(const std::string& table_id, MaintenanceJob job,
                                const MaintenanceJobState& state) override;
  Result<std::map<MaintenanceJob, MaintenanceJobState>> GetMaintenanceJobStates(
      const std::string& table_id) override;

  // A PostgresUnitOfWork (postgres_unit_of_work.cc) over one transaction.
  Result<std::unique_ptr<UnitOfWork>> BeginUnitOfWork() override;

 private:
  friend class PostgresUnitOfWork;

  // Leases a connection for its scope and makes it this thread's connection
  // for the store (db_). A failed lease leaves a connection that fails every
  // statement with the lease's error, so call sites stay as in SQLite.
  class ConnectionLock {
   public:
    explicit ConnectionLock(PostgresMetadataStore& store);
    ~ConnectionLock();
    ConnectionLock(const ConnectionLock&) = delete;
    ConnectionLock& operator=(const ConnectionLock&) = delete;

   private:
    const PostgresMetadataStore* store_;
    std::optional<Pool::Lease> lease_;
    std::unique_ptr<Connection> failed_;
  };
  // The calling thread's connection for this store; only inside a
  // ConnectionLock's scope (checked).
  class CurrentConnection {
   public:
    explicit CurrentConnection(const PostgresMetadataStore* store) : store_(store) {}
    Connection* operator->() const { return &**this; }
    Connection& operator*() const;

   private:
    const PostgresMetadataStore* store_;
  };

  // Helpers below run on the calling thread's connection (db_), inside or
  // outside a transaction.
  int64_t NowMs() const { return clock_.NowMillis(); }
  Result<TableBucket> LoadBucket(const std::string& bucket_arn);
  Result<Namespace> LoadNamespace(const std::string& bucket_arn, const std::string& name);
  Result<Table> LoadTable(const std::string& table_id);
  Status RequireIdentity(const std::string& arn);
  Status CheckBucketRowChanged();
  Status RequireTaggable(const std::string& resource_arn);
  Result<KafkaCluster> LoadCluster(const std::string& cluster_arn);
  Result<Channel> LoadChannel(const std::string& channel_arn);
  // Channel operations (postgres_channel_operations.cc); inside the caller's
  // transaction.
  Status StartChannelOperation(const Channel& channel);
  Status EndChannelOperation(const std::string& operation_arn, const Channel& channel);
  // The column-update shared by the two pointer swaps; checks token and channel.
  Result<Table> SwapLocked(const std::string& table_id, const std::string& expected_version_token,
                           const std::string& new_metadata_location, const TableWriter& writer);
  // The bodies of DeleteTable, DeleteChannelOffsets and the offset fence,
  // inside the caller's transaction.
  Status DeleteTableLocked(const std::string& table_id,
                           const std::optional<std::string>& expected_version_token);
  Status DeleteChannelOffsetsLocked(const std::string& channel_arn);
  Status AdvanceOffsetsLocked(const std::string& channel_arn, const std::string& table_id,
                              const OffsetRanges& ranges);
  Result<std::optional<std::string>> GetTableText(const std::string& table_id, const char* column);
  Status SetTableText(const std::string& table_id, const char* column,
                      const std::optional<std::string>& value);

  // Secrets at rest (postgres_secret_sealing.cc): binds the two columns
  // (secret, sealed_secret) at `index` and `index + 1` for `secret`, and
  // turns stored columns back into the secret.
  Status BindSecret(Statement& stmt, int index, const std::string& access_key_id,
                    const std::string& secret) const;
  Result<std::string> OpenSecret(const std::string& access_key_id, const std::string& stored,
                                 bool sealed) const;

  std::unique_ptr<Pool> pool_;
  const CurrentConnection db_{this};
  const Clock& clock_;
  Random& random_;
  const auth::SecretSealer* sealer_;
};

// Opening a store: checks that the sealed secrets in access_keys unseal with
// `sealer` and seals the plaintext ones in one transaction; with no sealer,
// does nothing. `path` names the database in errors. Errors:
// FailedPrecondition (another master key), Internal (sealing failed), the
// database's errors.
Status PrepareSecretsAtRest(Connection& db, const auth::SecretSealer* sealer,
                            const std::string& path);

// The rows of a listing query run with LIMIT page_limit + 1, as a page: an
// extra row only says that another page follows, resuming after the last
// item kept, whose token token_for(item) makes.
template <typename T, typename TokenFor>
Page<T> ToPage(std::vector<T> rows, int page_limit, TokenFor&& token_for) {
  Page<T> out;
  if (static_cast<int>(rows.size()) > page_limit) {
    rows.resize(static_cast<size_t>(page_limit));
    out.continuation_token = token_for(rows.back());
  }
  out.items = std::move(rows);
  return out;
}

// Shared row decoding and messages.
TimePoint FromMillis(int64_t ms);
// The SELECT list that ReadTableRow decodes (tables joined with namespaces
// and table_buckets as t, n, b).
extern const char* const kTableColumns;
Table ReadTableRow(const Statement& stmt);
Status TableNotFound();
Status BucketNotFound();
Status NamespaceNotFound();
Status ClusterNotFound(const std::string& cluster_arn);

}  // namespace st::catalog::postgres
