// The backend conformance suites (conformance/all_conformance.h) on every
// backend, in this one file (the suites define their tests in headers):
// SQLite, a fresh database file in a temporary directory per test; and
// PostgreSQL, a fresh schema per test (postgres_backend.cc).
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "catalog/sqlite_metadata_store.h"
#include "conformance/all_conformance.h"
#include "postgres_backend.h"

namespace st::catalog::conformance {
namespace {

class SqliteBackend final : public StoreBackend {
 public:
  SqliteBackend() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "st-conformance-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) dir_ = pattern;
  }
  ~SqliteBackend() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  Result<std::unique_ptr<MetadataStore>> Open(const Clock& clock, Random& random) override {
    if (dir_.empty()) return Err(IoError("cannot create a temporary directory"));
    return OpenSqliteMetadataStore({dir_ + "/catalog.db"}, clock, random);
  }

 private:
  std::string dir_;
};

std::unique_ptr<StoreBackend> MakeSqliteBackend() { return std::make_unique<SqliteBackend>(); }

}  // namespace

ST_INSTANTIATE_STORE_CONFORMANCE(Sqlite, MakeSqliteBackend);
ST_INSTANTIATE_STORE_CONFORMANCE(Postgres, MakePostgresBackend);

}  // namespace st::catalog::conformance
