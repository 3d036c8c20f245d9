// The unit of work: the connection lock and one write transaction (SQLite:
// BEGIN IMMEDIATE; PostgreSQL: SERIALIZABLE) for the unit's whole life; its
// writes run the same statements as the store's own methods (the *Locked
// helpers), inside that transaction.
#include "catalog/names.h"
#include "catalog/sql_metadata_store_internal.h"
#include "catalog/unit_of_work.h"

namespace st::catalog::sqlstore {

class SqlUnitOfWork final : public UnitOfWork, private TableWrites, private ChannelOffsetWrites {
 public:
  // Takes a connection from the pool for the unit's whole life (with one
  // connection, other threads' calls wait until the unit ends), then begins
  // the transaction.
  explicit SqlUnitOfWork(SqlMetadataStore& store) : store_(store), lock_(store), txn_(*store.db_) {}
  // Rolls back (txn_) before the connection goes back to the pool (lock_):
  // members are destroyed in reverse order.
  ~SqlUnitOfWork() override = default;

  const Status& begin_status() const { return txn_.status(); }

  TableWrites& tables() override { return *this; }
  ChannelOffsetWrites& channel_offsets() override { return *this; }

  Status Commit() override {
    ST_TRY(Usable());
    finished_ = true;
    Status committed =
        txn_.Commit(swapped_pointer_ ? StatusCode::kCommitStateUnknown : StatusCode::kIo);
    // Only a serialization failure at COMMIT is known to have committed
    // nothing; a lost connection there is CommitStateUnknown.
    if (committed.code() == StatusCode::kUnavailable) NoteFailure(/*at_commit=*/true);
    return committed;
  }

  bool ShouldRetry() const override { return retry_; }

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

  // Also tells the analysis (and checks) that this thread holds the
  // connection lock: lock_ holds it for the unit's whole life.
  Status Usable() const ASSERT_CAPABILITY(store_.mu_) {
    store_.mu_.AssertHeld();
    if (finished_) {
      return FailedPrecondition(
          "This unit of work has already been committed; begin a new one for further writes.");
    }
    return sticky_;
  }
  // A failed write may have run some of its statements: the unit must not
  // commit after it.
  Status Stick(Status status) {
    if (!status.ok() && sticky_.ok()) {
      sticky_ = status;
      // Both retryable kinds are Unavailable; any other code is the
      // write's own verdict, whatever failed on the connection before.
      if (status.code() == StatusCode::kUnavailable) NoteFailure(/*at_commit=*/false);
    }
    return status;
  }
  // Reads why the connection's last statement failed.
  void NoteFailure(bool at_commit) ASSERT_CAPABILITY(store_.mu_) {
    store_.mu_.AssertHeld();
    sql::ErrorKind kind = store_.db_->last_error();
    retry_ = kind == sql::ErrorKind::kSerializationFailure ||
             (!at_commit && kind == sql::ErrorKind::kConnectionLost);
  }

  SqlMetadataStore& store_;
  SqlMetadataStore::ConnectionLock lock_;
  Transaction txn_;
  Status sticky_;
  bool swapped_pointer_ = false;
  bool retry_ = false;
  bool finished_ = false;
};

SqlMetadataStore::ConnectionLock::ConnectionLock(SqlMetadataStore& store) : mu_(store.mu_) {
  mu_.Lock();
}

Result<std::unique_ptr<UnitOfWork>> SqlMetadataStore::BeginUnitOfWork() {
  auto unit = std::make_unique<SqlUnitOfWork>(*this);
  ST_TRY(unit->begin_status());
  return std::unique_ptr<UnitOfWork>(std::move(unit));
}

}  // namespace st::catalog::sqlstore
