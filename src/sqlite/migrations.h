// Versioned schema migrations recorded in the table schema_migrations.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/status.h"
#include "sqlite/database.h"

namespace st::sqlite {

struct Migration {
  int version;
  std::string_view sql;  // One or more statements.
};

// Applies, in order, each of `migrations` (sorted by version, append-only)
// whose version is above the highest one recorded in schema_migrations,
// each in its own transaction together with its schema_migrations row. Safe
// to run concurrently from several processes; a database that is already up
// to date is only read, so opening never waits for a busy writer.
// Errors: FailedPrecondition (the file records a version newer than the last
// migration given: written by a newer binary), and those of Database.
Status Migrate(Database& db, std::span<const Migration> migrations, int64_t now_ms);

// The highest version recorded in schema_migrations, 0 for a new database.
Result<int64_t> SchemaVersion(Database& db);

}  // namespace st::sqlite
