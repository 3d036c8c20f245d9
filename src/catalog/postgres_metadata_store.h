// The MetadataStore on a PostgreSQL database: the same store as the SQLite
// one (one implementation over sql::Connection, sql_*.cc), on a libpq
// connection. Every write is one SERIALIZABLE transaction, so several
// server processes on one database order their commits through PostgreSQL
// (a serialization failure changes nothing: each store write runs again,
// up to ten times with a random pause, before it answers Unavailable; the
// delivery commit retries its unit of work, catalog/unit_of_work.h). One
// store keeps a pool of
// `connections` connections; each call or unit of work takes one for its
// duration, so that threads of one process read in parallel. The schema is the
// SQLite migrations translated by sql::Dialect, recorded in
// schema_migrations and migrated on open (under an advisory lock).
#pragma once

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
  // postgresql://user[:password]@host:port/dbname (any libpq URI).
  std::string url;
  // As SqliteStoreOptions::secret_sealer.
  const auth::SecretSealer* secret_sealer = nullptr;
  // Connections opened at start and kept (1-64). A call waits for a free one
  // when all are busy.
  int connections = 4;
};

// Errors: Unavailable (cannot connect), FailedPrecondition (schema newer
// than this binary, or sealed secrets under another master key), Io.
Result<std::unique_ptr<MetadataStore>> OpenPostgresMetadataStore(
    const PostgresStoreOptions& options, const Clock& clock, Random& random);

}  // namespace st::catalog
