// The MetadataStore on a PostgreSQL database (selected with
// `--catalog postgresql://...`; SQLite stays the default).
//
// Connections come from a small pool (PostgresStoreOptions::pool_size), so
// threads' calls run in parallel. Every write transaction takes one
// transaction-scoped advisory lock first (the writer lock), which orders the
// catalog's writers one at a time across all stores and processes on the
// database, as SQLite's BEGIN IMMEDIATE does; reads never wait for it. See
// src/postgres/README.md for why this rather than SERIALIZABLE. A lost
// connection fails the call with Unavailable (the pool reconnects on the
// next call), or with CommitStateUnknown when it was lost during the COMMIT
// of a pointer swap. The schema is versioned (schema_migrations, its own
// sequence) and migrated on open. Secrets are sealed at rest exactly as in
// the SQLite store. No state is cached in the process: every call reads the
// database, so several servers may share it.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/random.h"

namespace st::auth {
class SecretSealer;
}

namespace st::catalog {

struct PostgresStoreOptions {
  // A libpq URI or key=value string: postgresql://user[:password]@host:port/db.
  // The store's tables live in the connection's current schema
  // (search_path; e.g. ?options=-csearch_path%3Dname), created when missing.
  std::string conninfo;
  // How long a writer waits for another writer (and a caller for a pooled
  // connection) before Unavailable.
  std::chrono::milliseconds lock_timeout{5000};
  // Connections kept open at most; a call beyond them waits up to
  // lock_timeout. The server has ~4 I/O threads per endpoint plus delivery
  // and maintenance threads.
  size_t pool_size = 16;
  // As SqliteStoreOptions::secret_sealer.
  const auth::SecretSealer* secret_sealer = nullptr;
};

// `clock` and `random` must outlive the store. Errors: Unavailable (cannot
// connect), InvalidArgument (malformed conninfo), FailedPrecondition (schema
// newer than this binary; sealed secrets that `secret_sealer` cannot open),
// Io.
Result<std::unique_ptr<MetadataStore>> OpenPostgresMetadataStore(
    const PostgresStoreOptions& options, const Clock& clock, Random& random);

// The PostgreSQL schema version this binary writes.
int PostgresSchemaVersion();

}  // namespace st::catalog
