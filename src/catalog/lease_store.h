// LeaseStore: named leases in the catalog database, so that work which must
// run once among several server replicas sharing one catalog (channel
// status transitions, the maintenance schedule) runs on one replica at a
// time. One of the per-entity interfaces MetadataStore aggregates
// (metadata_store.h states the shared contract).
//
// Time: whether a lease has expired is judged by one clock only, the
// database's (PostgreSQL: clock_timestamp() inside the acquiring
// transaction; SQLite, one process: the store's injected Clock), never by
// comparing replicas' wall clocks. expires_at is on that clock.
//
// Fencing: epoch counts the holders a lease has had. Taking over a lease
// (none yet, expired, or released) increments it; renewing by the holder
// keeps it. A replica that acts for a lease can stamp its writes with the
// epoch so a later holder's writes are told apart.
//
// Thread-safety: implementations are thread-safe; every method is atomic,
// also across processes: two replicas racing for a free lease never both
// get it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"

namespace st::catalog {

struct Lease {
  std::string name;
  std::string holder;  // The replica id holding it ("" once released).
  int64_t epoch = 0;   // See the file comment; 1 for the first holder.
  // On the database's clock (see the file comment).
  std::chrono::system_clock::time_point expires_at;
};

class LeaseStore {
 public:
  virtual ~LeaseStore() = default;

  // Renews the lease when `holder` holds it and it has not expired (epoch
  // kept), or takes it over when it is free, expired or released (epoch + 1);
  // either way it now expires `ttl` after the database's now. Returns the
  // lease as stored: a holder other than `holder` means another replica
  // holds it and nothing changed. Errors: InvalidArgument (empty name or
  // holder, ttl not positive), Unavailable (the database was busy or the
  // transaction lost a race: nothing changed, retry), Io.
  virtual Result<Lease> TryAcquireOrRenew(const std::string& name, const std::string& holder,
                                          std::chrono::milliseconds ttl) = 0;
  // Gives the lease up when `holder` holds it, so another replica may take
  // it at once; otherwise does nothing. Errors: InvalidArgument,
  // Unavailable, Io.
  virtual Status Release(const std::string& name, const std::string& holder) = 0;
  // The lease as stored (possibly expired or released); nullopt when it
  // never existed. Errors: InvalidArgument, Io.
  virtual Result<std::optional<Lease>> GetLease(const std::string& name) = 0;
};

}  // namespace st::catalog
