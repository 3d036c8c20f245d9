// PostgreSQL-only behaviour of the catalog store: what the conformance
// suites cannot say for every backend.
#include <gtest/gtest.h>

#include "postgres_test_server.h"

namespace st::catalog {
namespace {

using testing::PostgresTestSchema;

TEST(PostgresTestServer, IsRunning) {
  EXPECT_FALSE(testing::PostgresTestUrl().empty()) << testing::PostgresTestError();
}

}  // namespace
}  // namespace st::catalog
