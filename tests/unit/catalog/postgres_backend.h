// A StoreBackend on a real PostgreSQL server (postgres_backend.cc).
#pragma once

#include <memory>

#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

std::unique_ptr<StoreBackend> MakePostgresBackend();

}  // namespace st::catalog::conformance
