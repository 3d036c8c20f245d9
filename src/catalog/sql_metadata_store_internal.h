// The MetadataStore on an SQL connection (sql/connection.h): one
// implementation for every backend (SQLite, PostgreSQL); what differs in SQL
// text is in sql::Dialect. Its methods are spread over files by entity
// (identities, buckets and namespaces, tables, commits and offsets, channels,
// clusters, general-purpose buckets); each public method takes the
// connection lock and runs at most one transaction. A unit of work
// (sql_unit_of_work.cc) holds the connection lock and one transaction for
// its whole life and stages its writes through the *Locked helpers.
//
// Locking: a connection is not thread-safe, so each thread that runs
// statements first takes one of the store's connections for itself (mu_, a
// ConnectionPool: SQLite has one connection, PostgreSQL several, so that
// threads of one replica read in parallel). The pool is not what makes writes
// atomic or orders them: every write is one write transaction (SQLite: BEGIN
// IMMEDIATE, whose database write lock orders writers across connections
// and processes; PostgreSQL: SERIALIZABLE, which orders replicas and the
// pool's connections alike). Holding a connection for a whole transaction
// keeps other threads' statements out of it.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "auth/secret_sealer.h"
#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/mutex.h"
#include "common/random.h"
#include "sql/connection.h"
#include "sql/statement.h"
#include "sql/transaction.h"

namespace st::catalog::sqlstore {

using ::st::sql::Connection;
using ::st::sql::Statement;
using ::st::sql::Transaction;

// The store's connections. As a capability it means "this thread holds one
// of them": Lock() blocks until one is free and makes it the calling
// thread's (Current()), Unlock() gives it back. Not recursive: a thread that
// holds a connection of this pool and asks for another would run outside
// its own transaction (or, with one connection, deadlock): checked, aborts.
class CAPABILITY("connection") ConnectionPool {
 public:
  // At least one connection.
  explicit ConnectionPool(std::vector<std::unique_ptr<Connection>> connections);
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  void Lock() ACQUIRE();
  void Unlock() RELEASE();
  void AssertHeld() const ASSERT_CAPABILITY(this);
  // The connection the calling thread holds (it must hold one).
  Connection& Current() const;
  bool HeldByThisThread() const;
  size_t size() const { return connections_.size(); }

 private:
  std::vector<std::unique_ptr<Connection>> connections_;
  common::Mutex mu_;
  common::CondVar returned_;
  std::vector<Connection*> free_ GUARDED_BY(mu_);
};

// `db_->` / `*db_` in the store's methods: the connection this thread took
// from the pool.
class CurrentConnection {
 public:
  explicit CurrentConnection(const ConnectionPool& pool) : pool_(pool) {}
  Connection* operator->() const { return &pool_.Current(); }
  Connection& operator*() const { return pool_.Current(); }

 private:
  const ConnectionPool& pool_;
};

class SqlMetadataStore final : public MetadataStore {
 public:
  // `sealer` may be null (secrets in plaintext; see SqliteStoreOptions).
  // Use OpenOnConnections, which migrates first.
  SqlMetadataStore(std::vector<std::unique_ptr<Connection>> dbs, const Clock& clock, Random& random,
                   const auth::SecretSealer* sealer)
      : mu_(std::move(dbs)), db_(mu_), clock_(clock), random_(random), sealer_(sealer) {}

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

  Result<Lease> TryAcquireOrRenew(const std::string& name, const std::string& holder,
                                  std::chrono::milliseconds ttl) override;
  Status Release(const std::string& name, const std::string& holder) override;
  Result<std::optional<Lease>> GetLease(const std::string& name) override;

  // A SqlUnitOfWork (sql_unit_of_work.cc) over one transaction.
  Result<std::unique_ptr<UnitOfWork>> BeginUnitOfWork() override;

 private:
  friend class SqlUnitOfWork;

  // Holds one of the pool's connections (mu_) for its scope, as a scoped
  // capability, so the thread-safety analysis checks that db_ and the
  // helpers below are used only with one held. Taking it on a thread that
  // already holds one (an open unit of work) is a bug: checked, aborts.
  class SCOPED_CAPABILITY ConnectionLock {
   public:
    explicit ConnectionLock(SqlMetadataStore& store) ACQUIRE(store.mu_);
    ~ConnectionLock() RELEASE() { mu_.Unlock(); }
    ConnectionLock(const ConnectionLock&) = delete;
    ConnectionLock& operator=(const ConnectionLock&) = delete;

   private:
    ConnectionPool& mu_;
  };

  // Runs `write`, one whole write transaction on this thread's connection
  // (begin, statements, commit; it returns Status or Result), again while
  // PostgreSQL rolls it back for a serialization failure, up to
  // kWriteAttempts times. SERIALIZABLE aborts one of two transactions whose
  // reads and writes overlap even when running them one after the other
  // would have been fine (a channel's worker moving it to ACTIVE while the
  // API deletes it; small tables are scanned whole, so any two writers of
  // one table can overlap); such an abort changed nothing, so the write runs
  // again from its first read instead of failing the API call with a 503.
  // `write` must build everything it writes afresh on each run.
  template <typename Write>
  std::invoke_result_t<Write&> RunWrite(Write&& write) REQUIRES(mu_) {
    for (int attempt = 1;; ++attempt) {
      auto out = write();
      Status status = internal::ToStatus(out);
      if (status.ok() || attempt == kWriteAttempts || status.code() != StatusCode::kUnavailable ||
          db_->last_error() != sql::ErrorKind::kSerializationFailure) {
        return out;
      }
      BackOffBeforeRewrite(attempt);
    }
  }
  // 10 attempts with pauses of at most 64 ms once let a DeleteChannel lose
  // every round to the other replica's writers under TSan (CI, session 36):
  // SERIALIZABLE can cancel the same transaction as the pivot again and
  // again while others keep writing. 25 attempts with pauses of up to 256 ms
  // wait out such a run (about 3 s in the worst case) rather than answer 503.
  static constexpr int kWriteAttempts = 25;
  // A random pause of up to 2^attempt ms (at most 256): writers that aborted
  // each other retry at different times instead of colliding again.
  void BackOffBeforeRewrite(int attempt);

  // Helpers below run under mu_ (inside or outside a transaction).
  int64_t NowMs() const { return clock_.NowMillis(); }
  Result<TableBucket> LoadBucket(const std::string& bucket_arn) REQUIRES(mu_);
  Result<Namespace> LoadNamespace(const std::string& bucket_arn, const std::string& name)
      REQUIRES(mu_);
  Result<Table> LoadTable(const std::string& table_id) REQUIRES(mu_);
  Status RequireIdentity(const std::string& arn) REQUIRES(mu_);
  Status CheckBucketRowChanged() REQUIRES(mu_);
  Status RequireTaggable(const std::string& resource_arn) REQUIRES(mu_);
  Result<KafkaCluster> LoadCluster(const std::string& cluster_arn) REQUIRES(mu_);
  Result<Channel> LoadChannel(const std::string& channel_arn) REQUIRES(mu_);
  // Channel operations (sql_channel_operations.cc); inside the caller's
  // transaction, with mu_ held.
  Status StartChannelOperation(const Channel& channel) REQUIRES(mu_);
  Status EndChannelOperation(const std::string& operation_arn, const Channel& channel)
      REQUIRES(mu_);
  // The column-update shared by the two pointer swaps; checks token and channel.
  Result<Table> SwapLocked(const std::string& table_id, const std::string& expected_version_token,
                           const std::string& new_metadata_location, const TableWriter& writer)
      REQUIRES(mu_);
  // The bodies of DeleteTable, DeleteChannelOffsets and the offset fence,
  // inside the caller's transaction.
  Status DeleteTableLocked(const std::string& table_id,
                           const std::optional<std::string>& expected_version_token) REQUIRES(mu_);
  Status DeleteChannelOffsetsLocked(const std::string& channel_arn) REQUIRES(mu_);
  Status AdvanceOffsetsLocked(const std::string& channel_arn, const std::string& table_id,
                              const OffsetRanges& ranges) REQUIRES(mu_);
  Result<std::optional<std::string>> GetTableText(const std::string& table_id, const char* column)
      REQUIRES(mu_);
  Status SetTableText(const std::string& table_id, const char* column,
                      const std::optional<std::string>& value) REQUIRES(mu_);

  // Leases (sql_leases.cc): the database's clock (PostgreSQL
  // clock_timestamp(); SQLite, one process: clock_), and one attempt at
  // TryAcquireOrRenew in its own transaction.
  Result<int64_t> DatabaseNowMs() REQUIRES(mu_);
  Result<Lease> AcquireLeaseOnce(const std::string& name, const std::string& holder, int64_t ttl_ms)
      REQUIRES(mu_);

  // Secrets at rest (sql_secret_sealing.cc): binds the column value for
  // `secret`, and turns a stored column value back into the secret.
  Status BindSecret(Statement& stmt, int index, const std::string& access_key_id,
                    const std::string& secret) const REQUIRES(mu_);
  Result<std::string> OpenSecret(const std::string& access_key_id, const std::string& stored,
                                 bool sealed) const;

  // The connections (see the file comment); db_ is the one this thread
  // holds, used only with it held.
  ConnectionPool mu_;
  CurrentConnection db_ GUARDED_BY(mu_);
  const Clock& clock_;
  Random& random_;
  const auth::SecretSealer* sealer_;
  // When StartChannelOperation next prunes ended operations (epoch ms).
  std::atomic<int64_t> next_operation_prune_ms_{0};
};

// The store on `dbs` (either backend, at least one connection to one
// database): migrates the schema and prepares the secrets at rest on the
// first. `where` names the database in errors (a path, or a PostgreSQL URL
// without its password).
Result<std::unique_ptr<MetadataStore>> OpenOnConnections(
    std::vector<std::unique_ptr<Connection>> dbs, const std::string& where,
    const auth::SecretSealer* sealer, const Clock& clock, Random& random);

// Opening a store: checks that the sealed secrets in access_keys unseal with
// `sealer` and seals the plaintext ones in one transaction; with no sealer,
// does nothing. `path` names the database in errors. Errors:
// FailedPrecondition (another master key), Internal (sealing failed), the
// database's errors.
Status PrepareSecretsAtRest(Connection& db, const auth::SecretSealer* sealer,
                            const std::string& path);

// A secret as access_keys.secret stores it. SQLite keeps sealed secrets as
// BLOBs in the TEXT column (its typing is dynamic, so older files needed no
// schema change); a PostgreSQL column holds text only, so there they are
// kSealedTextPrefix followed by the hex of the sealed bytes. Reading
// recognises both forms on either backend.
struct StoredSecret {
  std::string bytes;  // The secret (plaintext) or the sealed bytes.
  bool sealed = false;
};
inline constexpr std::string_view kSealedTextPrefix = "sealed:";
StoredSecret ReadStoredSecret(const Statement& row, int column);

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

}  // namespace st::catalog::sqlstore
