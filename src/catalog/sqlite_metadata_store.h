// The default MetadataStore on an SQLite database file.
//
// The database runs in WAL mode with foreign keys on and a busy timeout;
// every write is one BEGIN IMMEDIATE transaction, so several processes (or
// several stores in one process) may share the file: writers queue on the
// database lock up to the busy timeout (then Unavailable) and readers never
// block. Within one store, a single connection is guarded by a mutex, so a
// store may be shared by any number of threads (calls are serialised); the
// mutex is there only because one SQLite connection is not thread-safe, the
// database's write lock is what orders writers. A UnitOfWork
// (BeginUnitOfWork) is one BEGIN IMMEDIATE transaction that holds the mutex
// until it ends: other threads' calls wait for it, and a call from the
// thread holding it aborts (it would deadlock).
// The schema is versioned (table schema_migrations) and migrated on open.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/random.h"

namespace st::auth {
class SecretSealer;
}

namespace st::catalog {

struct SqliteStoreOptions {
  // Database file, created when missing (its directory must exist).
  std::string path;
  // How long a writer waits for another writer's transaction before giving up
  // with Unavailable; commits are short, so seconds are plenty.
  std::chrono::milliseconds busy_timeout{5000};
  // synchronous=FULL: a committed pointer swap survives power loss, which
  // exactly-once delivery relies on. NORMAL is faster and still never
  // corrupts, but may lose the last commits.
  bool durable_commits = true;
  // Seals secret access keys at rest (must outlive the store). With one,
  // every secret is written sealed, and opening seals the plaintext secrets
  // an older release left, all in one transaction (secure_delete on, WAL
  // checkpointed, so no plaintext copy stays in the files). Null (tools and
  // tests only) stores secrets in plaintext; in a database that holds sealed
  // secrets it then refuses to read or add any (FailedPrecondition).
  const auth::SecretSealer* secret_sealer = nullptr;
};

// `clock` and `random` must outlive the store. Errors: Io (cannot open or
// configure the file), Corruption (not a database), FailedPrecondition (the
// file's schema is newer than this binary; or none of its sealed secrets
// unseals with `secret_sealer`: another master key sealed them).
Result<std::unique_ptr<MetadataStore>> OpenSqliteMetadataStore(const SqliteStoreOptions& options,
                                                               const Clock& clock, Random& random);

// The schema version this binary writes (the highest migration it knows).
int SqliteSchemaVersion();

}  // namespace st::catalog
