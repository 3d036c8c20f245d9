// A StoreBackend on a real PostgreSQL server (postgres_backend.cc).
#pragma once

#include <memory>
#include <string>

#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

std::unique_ptr<StoreBackend> MakePostgresBackend();
// The test server's URL (started on first use). Errors: no PostgreSQL.
Result<std::string> PostgresTestUrl();

}  // namespace st::catalog::conformance
