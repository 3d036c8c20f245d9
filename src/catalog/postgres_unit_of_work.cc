// The PostgreSQL unit of work: one pooled connection and one write
// transaction (holding the writer lock) for the unit's whole life; its writes run the same
// statements as the store's own methods (the *Locked helpers), inside that transaction.
#include <iterator>
#include <vector>

#include "catalog/names.h"
#include "catalog/postgres_metadata_store_internal.h"
#include "catalog/unit_of_work.h"

namespace st::catalog::postgres {

class PostgresUnitOfWork final : public UnitOfWork,
                                 private TableWrites,
                                 private ChannelOffsetWrites {
 public:
  // Leases the connection (this thread's for the store until the unit
  // ends), then begins the transaction; other writers wait for its end.
  explicit PostgresUnitOfWork(PostgresMetadataStore& store)
      : store_(store), lock_(store), txn_(*store.db_) {}
  // Rolls back (txn_) before the connection goes back (lock_): members are
  // destroyed in reverse order.
  ~PostgresUnitOfWork() override = default;

  const Status& begin_status() const { return txn_.status(); }

  TableWrites& tables() override { return *this; }
  ChannelOffsetWrites& channel_offsets() override { return *this; }

  Status Commit() override {
    ST_TRY(Usable());
    finished_ = true;
    return txn_.Commit(swapped_pointer_ ? StatusCode::kCommitStateUnknown : StatusCode::kIo);
  }

 private:
  // TableWrites
  Result<Table> LoadTable(const std::string& table_id) override {
    ST_TRY(Usable());
    return store_.LoadTable(table_id);
  }
  Result<Table> SwapMetadataLocation(const std::string& table_id,
                                     const std::string& expected_version_token,
                                     const std::string& new_metadata_location,
                                     const TableWriter& writer) override {
    ST_TRY(Usable());
    Status valid = ValidateMetadataLocation(new_metadata_location);
    if (valid.ok()) valid = ValidateAccountId(writer.account_id);
    if (!valid.ok()) return Err(Stick(std::move(valid)));
    Result<Table> swapped =
        store_.SwapLocked(table_id, expected_version_token, new_metadata_location, writer);
    if (!swapped.has_value()) return Err(Stick(swapped.error()));
    swapped_pointer_ = true;
    return swapped;
  }
  Status DeleteTable(const std::string& table_id,
                     const std::optional<std::string>& expected_version_token) override {
    ST_TRY(Usable());
    return Stick(store_.DeleteTableLocked(table_id, expected_version_token));
  }

  // ChannelOffsetWrites
  Status AdvanceChannelOffsets(const std::string& channel_arn, const std::string& table_id,
                               const OffsetRanges& ranges) override {
    ST_TRY(Usable());
    return Stick(store_.AdvanceOffsetsLocked(channel_arn, table_id, ranges));
  }
  Status DeleteChannelOffsets(const std::string& channel_arn) override {
    ST_TRY(Usable());
    return Stick(store_.DeleteChannelOffsetsLocked(channel_arn));
  }

  Status Usable() const {
    if (finished_) {
      return FailedPrecondition(
          "This unit of work has already been committed; begin a new one for further writes.");
    }
    return sticky_;
  }
  // A failed write may have run some of its statements: the unit must not
  // commit after it.
  Status Stick(Status status) {
    if (!status.ok() && sticky_.ok()) sticky_ = status;
    return status;
  }

  PostgresMetadataStore& store_;
  PostgresMetadataStore::ConnectionLock lock_;
  Transaction txn_;
  Status sticky_;
  bool swapped_pointer_ = false;
  bool finished_ = false;
};

namespace {

// The connections this thread holds, innermost last, by store.
struct ActiveConnection {
  const PostgresMetadataStore* store;
  Connection* conn;
};
thread_local std::vector<ActiveConnection> t_active;

Connection* FindActive(const PostgresMetadataStore* store) {
  for (auto it = t_active.rbegin(); it != t_active.rend(); ++it) {
    if (it->store == store) return it->conn;
  }
  return nullptr;
}

}  // namespace

PostgresMetadataStore::ConnectionLock::ConnectionLock(PostgresMetadataStore& store)
    : store_(&store) {
  // A second lease on the thread that holds the store's open unit of work
  // would run outside its transaction and wait on its writer lock: a bug.
  ST_CHECK(FindActive(store_) == nullptr);
  Result<Pool::Lease> lease = store.pool_->Acquire();
  Connection* conn = nullptr;
  if (lease.has_value()) {
    lease_.emplace(*std::move(lease));
    conn = &**lease_;
  } else {
    failed_ = Connection::Failed(lease.error(), "catalog database");
    conn = failed_.get();
  }
  t_active.push_back({store_, conn});
}

PostgresMetadataStore::ConnectionLock::~ConnectionLock() {
  for (auto it = t_active.rbegin(); it != t_active.rend(); ++it) {
    if (it->store == store_) {
      t_active.erase(std::next(it).base());
      break;
    }
  }
}

Connection& PostgresMetadataStore::CurrentConnection::operator*() const {
  Connection* conn = FindActive(store_);
  ST_CHECK(conn != nullptr);
  return *conn;
}

Result<std::unique_ptr<UnitOfWork>> PostgresMetadataStore::BeginUnitOfWork() {
  auto unit = std::make_unique<PostgresUnitOfWork>(*this);
  ST_TRY(unit->begin_status());
  return std::unique_ptr<UnitOfWork>(std::move(unit));
}

}  // namespace st::catalog::postgres
