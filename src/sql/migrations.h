// Versioned schema migrations recorded in the table schema_migrations, on
// any backend: each migration is written once (with SQLite's type names)
// and run through the connection's Dialect::Schema().
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/status.h"
#include "sql/connection.h"

namespace st::sql {

struct Migration {
  int version;
  std::string_view sql;  // One or more statements.
};

// Applies, in order, each of `migrations` (sorted by version, append-only)
// whose version is above the highest one recorded in schema_migrations,
// each in its own transaction together with its schema_migrations row. Safe
// to run concurrently from several processes; a database that is already up
// to date is only read, so opening never waits for a busy writer.
// Errors: FailedPrecondition (the database records a version newer than the last
// migration given: written by a newer binary), and those of Database.
Status Migrate(Connection& db, std::span<const Migration> migrations, int64_t now_ms);

// The highest version recorded in schema_migrations, 0 for a new database.
Result<int64_t> SchemaVersion(Connection& db);

}  // namespace st::sql
