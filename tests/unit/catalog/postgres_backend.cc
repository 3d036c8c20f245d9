// The PostgreSQL backend of the conformance suites (conformance_test.cc): a
// real PostgreSQL 15 server, either the one at
// $ST_TEST_POSTGRES_URL or a throwaway cluster this binary starts with
// tools/pg_cluster.sh on first use (and stops at exit). Each test gets a
// fresh schema of its own (search_path in the URL). No PostgreSQL is a
// failure, never a skip: tools/install.sh installs it.
#include "postgres_backend.h"

#include <stdio.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

#include "catalog/postgres_metadata_store.h"
#include "conformance/store_conformance.h"
#include "postgres/connection.h"

namespace st::catalog::conformance {
namespace {

// Output of `command` (stdout), or nullopt when it exits non-zero.
std::optional<std::string> RunCommand(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[256];
  while (fgets(buffer, sizeof(buffer), pipe) != nullptr) out += buffer;
  if (pclose(pipe) != 0) return std::nullopt;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

class Cluster {
 public:
  static Cluster& Get() {
    static Cluster cluster;
    return cluster;
  }
  // The server's URL; errors say why no server could be had.
  Result<std::string> Url() {
    if (!url_.empty()) return url_;
    if (const char* given = getenv("ST_TEST_POSTGRES_URL"); given != nullptr && *given) {
      url_ = given;
      return url_;
    }
    std::string pattern = "/tmp/st-pg-unit-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) return Err(IoError("cannot create a cluster dir"));
    dir_ = pattern;
    auto url = RunCommand(std::string(ST_SOURCE_DIR) + "/tools/pg_cluster.sh start " + dir_);
    if (!url.has_value()) {
      return Err(FailedPrecondition("tools/pg_cluster.sh could not start PostgreSQL in " + dir_ +
                                    " (is it installed? tools/install.sh)"));
    }
    url_ = *url;
    return url_;
  }
  ~Cluster() {
    if (dir_.empty()) return;
    (void)RunCommand(std::string(ST_SOURCE_DIR) + "/tools/pg_cluster.sh stop " + dir_);
    std::filesystem::remove_all(dir_);
  }

 private:
  std::string url_;
  std::string dir_;
};

class PostgresBackend final : public StoreBackend {
 public:
  PostgresBackend() {
    static std::atomic<int> next{0};
    schema_ = "conformance_" + std::to_string(getpid()) + "_" + std::to_string(++next);
  }
  ~PostgresBackend() override {
    if (admin_ != nullptr) (void)admin_->Exec("DROP SCHEMA " + schema_ + " CASCADE");
  }
  Result<std::unique_ptr<MetadataStore>> Open(const Clock& clock, Random& random) override {
    if (admin_ == nullptr) {
      ST_ASSIGN_OR_RETURN(std::string url, Cluster::Get().Url());
      ST_ASSIGN_OR_RETURN(admin_, ::st::postgres::Connection::Open({url, "test database"}));
      ST_TRY(admin_->Exec("CREATE SCHEMA " + schema_));
      url_ = url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
             schema_;
    }
    return OpenPostgresMetadataStore({url_}, clock, random);
  }

 private:
  std::string schema_;
  std::string url_;
  std::unique_ptr<::st::postgres::Connection> admin_;
};

}  // namespace

Result<std::string> PostgresTestUrl() { return Cluster::Get().Url(); }

std::unique_ptr<StoreBackend> MakePostgresBackend() { return std::make_unique<PostgresBackend>(); }

}  // namespace st::catalog::conformance
