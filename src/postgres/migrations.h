// Versioned schema migrations recorded in the table schema_migrations, as in
// src/sqlite/migrations.h: numbered, append-only, each applied once in its
// own transaction with its schema_migrations row.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/status.h"
#include "postgres/connection.h"

namespace st::postgres {

struct Migration {
  int version;
  std::string_view sql;
};

// Applies the migrations above the recorded version. Safe to run from
// several processes at once: the migrating transaction takes an advisory
// lock (`lock_key`) and re-reads the version under it. Errors:
// FailedPrecondition (the database is newer than this binary), Connection's.
Status Migrate(Connection& conn, std::span<const Migration> migrations, int64_t now_ms,
               int64_t lock_key);

// The highest version recorded, 0 for an empty database (or schema).
Result<int64_t> SchemaVersion(Connection& conn);

}  // namespace st::postgres
