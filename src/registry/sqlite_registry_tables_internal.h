// The registry's tables in the catalog database file. Created with IF NOT
// EXISTS so that opening is idempotent; the prefix registry_ keeps them apart
// from the catalog's own versioned schema.
#pragma once

#include "common/status.h"
#include "sql/connection.h"

namespace st::registry::internal {

// Errors: those of sql::Connection::Exec.
Status CreateRegistryTables(sql::Connection& db);

}  // namespace st::registry::internal
