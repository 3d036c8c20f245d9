// The PostgreSQL catalog schema as an ordered list of migrations.
#pragma once

#include <cstdint>

#include "catalog/postgres_metadata_store_internal.h"
#include "common/status.h"

namespace st::catalog::postgres {

int LatestSchemaVersion();

// Applies every migration above the recorded version (postgres/migrations.h).
Status MigrateSchema(Connection& conn, int64_t now_ms);

}  // namespace st::catalog::postgres
