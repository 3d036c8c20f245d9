// The SQLite catalog schema as an ordered list of migrations.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "sql/connection.h"

namespace st::catalog::sqlstore {

// The highest migration version.
int LatestSchemaVersion();

// Applies every migration above the recorded version, each in its own
// transaction with its schema_migrations row. Safe to run concurrently from
// several processes. Errors: FailedPrecondition (database newer than this
// binary), and the database's errors.
Status MigrateSchema(::st::sql::Connection& db, int64_t now_ms);

}  // namespace st::catalog::sqlstore
