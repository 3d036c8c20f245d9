// The PostgreSQL server the catalog's PostgreSQL tests run against: the one
// named by ST_TEST_POSTGRES_URL, else a throwaway cluster this binary starts
// once (tools/postgres_test_cluster.sh) and stops at exit. A test that needs
// it and cannot have it fails (never skips): PostgresTestUrl() is then empty
// and PostgresTestError() says why.
#pragma once

#include <memory>
#include <string>

#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/random.h"

namespace st::catalog::testing {

const std::string& PostgresTestUrl();
const std::string& PostgresTestError();

// A fresh schema on the test server, dropped on destruction; stores opened
// through it keep all their tables in it (search_path).
class PostgresTestSchema {
 public:
  PostgresTestSchema();
  ~PostgresTestSchema();
  PostgresTestSchema(const PostgresTestSchema&) = delete;
  PostgresTestSchema& operator=(const PostgresTestSchema&) = delete;

  // The connection string confining a connection to this schema.
  std::string conninfo() const;
  const std::string& name() const { return name_; }
  Result<std::unique_ptr<MetadataStore>> Open(const Clock& clock, Random& random,
                                              size_t pool_size = 4) const;
  // Runs SQL on the test server as the superuser (outside the schema).
  Status AdminExec(const std::string& sql) const;

 private:
  std::string name_;
  Status created_;
};

}  // namespace st::catalog::testing
