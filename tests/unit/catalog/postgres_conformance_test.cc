// The backend conformance suites (conformance/all_conformance.h), unchanged,
// on the PostgreSQL store: a fresh schema on the test server per test.
#include <memory>

#include "conformance/all_conformance.h"
#include "postgres_test_server.h"

namespace st::catalog::conformance {
namespace {

class PostgresBackend final : public StoreBackend {
 public:
  Result<std::unique_ptr<MetadataStore>> Open(const Clock& clock, Random& random) override {
    return schema_.Open(clock, random);
  }

 private:
  testing::PostgresTestSchema schema_;
};

std::unique_ptr<StoreBackend> MakePostgresBackend() { return std::make_unique<PostgresBackend>(); }

}  // namespace

ST_INSTANTIATE_STORE_CONFORMANCE(Postgres, MakePostgresBackend);

}  // namespace st::catalog::conformance
