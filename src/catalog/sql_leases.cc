// LeaseStore on either backend: one row per lease, read and rewritten in one
// write transaction, so two replicas racing for it are ordered by the
// database (SQLite's write lock; PostgreSQL SERIALIZABLE, where the loser
// gets a serialization failure or a unique violation and re-reads).
#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

namespace {

// A lost race is retried this often before it is reported as Unavailable.
constexpr int kLeaseAttempts = 3;

Status CheckLeaseArgs(const std::string& name, const std::string& holder) {
  if (name.empty()) return InvalidArgument("A lease needs a name.");
  if (holder.empty()) return InvalidArgument("The lease '" + name + "' needs a holder id.");
  return Status::OK();
}

Lease LeaseFromRow(const std::string& name, const Statement& row) {
  Lease lease;
  lease.name = name;
  lease.holder = row.Text(0);
  lease.epoch = row.Int64(1);
  lease.expires_at = FromMillis(row.Int64(2));
  return lease;
}

}  // namespace

Result<int64_t> SqlMetadataStore::DatabaseNowMs() {
  if (db_->dialect().backend() != sql::Backend::kPostgres) return NowMs();
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("SELECT CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Step());
  if (!found) return Err(IoError("The catalog database returned no time."));
  return stmt.Int64(0);
}

Result<Lease> SqlMetadataStore::AcquireLeaseOnce(const std::string& name, const std::string& holder,
                                                 int64_t ttl_ms) {
  Transaction txn(*db_);
  ST_TRY(txn.status());
  ST_ASSIGN_OR_RETURN(int64_t now_ms, DatabaseNowMs());
  ST_ASSIGN_OR_RETURN(
      Statement read,
      db_->Prepare("SELECT holder, epoch, expires_at_ms FROM leases WHERE name = ?"));
  ST_ASSIGN_OR_RETURN(bool found, read.Bind(1, name).Step());
  Lease lease;
  lease.name = name;
  lease.holder = holder;
  lease.expires_at = FromMillis(now_ms + ttl_ms);
  if (!found) {
    lease.epoch = 1;
    ST_ASSIGN_OR_RETURN(Statement insert,
                        db_->Prepare("INSERT INTO leases(name, holder, epoch, expires_at_ms) "
                                     "VALUES (?, ?, ?, ?)"));
    ST_TRY(
        insert.Bind(1, name).Bind(2, holder).Bind(3, lease.epoch).Bind(4, now_ms + ttl_ms).Run());
  } else {
    Lease stored = LeaseFromRow(name, read);
    const bool live = !stored.holder.empty() && read.Int64(2) > now_ms;
    if (live && stored.holder != holder) return stored;  // Another replica's; nothing changes.
    lease.epoch = live ? stored.epoch : stored.epoch + 1;
    ST_ASSIGN_OR_RETURN(
        Statement update,
        db_->Prepare("UPDATE leases SET holder = ?, epoch = ?, expires_at_ms = ? WHERE name = ?"));
    ST_TRY(
        update.Bind(1, holder).Bind(2, lease.epoch).Bind(3, now_ms + ttl_ms).Bind(4, name).Run());
  }
  ST_TRY(txn.Commit(StatusCode::kUnavailable));
  return lease;
}

Result<Lease> SqlMetadataStore::TryAcquireOrRenew(const std::string& name,
                                                  const std::string& holder,
                                                  std::chrono::milliseconds ttl) {
  ST_TRY(CheckLeaseArgs(name, holder));
  if (ttl.count() <= 0)
    return Err(InvalidArgument("The lease '" + name + "' needs a positive TTL."));
  ConnectionLock lock(*this);
  Result<Lease> out = Err(StatusCode::kUnavailable, "The lease '" + name + "' was not tried.");
  for (int attempt = 0; attempt < kLeaseAttempts; ++attempt) {
    out = AcquireLeaseOnce(name, holder, ttl.count());
    if (out.has_value()) return out;
    // Another replica's transaction won (serialization failure, or its
    // INSERT of a new lease came first): re-read and decide again.
    const StatusCode code = out.error().code();
    if (code != StatusCode::kUnavailable && code != StatusCode::kAlreadyExists) return out;
  }
  if (out.error().code() == StatusCode::kAlreadyExists) {
    return Err(StatusCode::kUnavailable, "The lease '" + name + "' is contended; retry.");
  }
  return out;
}

Status SqlMetadataStore::Release(const std::string& name, const std::string& holder) {
  ST_TRY(CheckLeaseArgs(name, holder));
  ConnectionLock lock(*this);
  Transaction txn(*db_);
  ST_TRY(txn.status());
  // Released, not deleted: the epoch must keep counting holders.
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare(
          "UPDATE leases SET holder = '', expires_at_ms = 0 WHERE name = ? AND holder = ?"));
  ST_TRY(stmt.Bind(1, name).Bind(2, holder).Run());
  return txn.Commit(StatusCode::kUnavailable);
}

Result<std::optional<Lease>> SqlMetadataStore::GetLease(const std::string& name) {
  if (name.empty()) return Err(InvalidArgument("A lease needs a name."));
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("SELECT holder, epoch, expires_at_ms FROM leases WHERE name = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, name).Step());
  if (!found) return std::optional<Lease>();
  return std::optional<Lease>(LeaseFromRow(name, stmt));
}

}  // namespace st::catalog::sqlstore
