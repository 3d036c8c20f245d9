#include "postgres_test_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "catalog/postgres_metadata_store.h"
#include "postgres/connection.h"

namespace st::catalog::testing {

namespace {

struct TestServer {
  std::string url;
  std::string error;
  std::string dir;  // Set when this process started the cluster.

  TestServer() {
    if (const char* given = getenv("ST_TEST_POSTGRES_URL"); given != nullptr && *given != '\0') {
      url = given;
      return;
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "st-pg-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      error = "cannot create a temporary directory";
      return;
    }
    dir = pattern;
    std::string command = std::string(ST_SOURCE_DIR) + "/tools/postgres_test_cluster.sh start '" +
                          dir + "/pg' 2>'" + dir + "/start.err'";
    FILE* out = popen(command.c_str(), "r");
    if (out == nullptr) {
      error = "cannot run tools/postgres_test_cluster.sh";
      return;
    }
    char line[512];
    while (fgets(line, sizeof(line), out) != nullptr) url = line;
    int rc = pclose(out);
    while (!url.empty() && (url.back() == '\n' || url.back() == '\r')) url.pop_back();
    if (rc != 0 || url.empty()) {
      error = "tools/postgres_test_cluster.sh failed (see " + dir + "/start.err)";
      url.clear();
    }
  }
  ~TestServer() {
    if (dir.empty()) return;
    std::string command = std::string(ST_SOURCE_DIR) + "/tools/postgres_test_cluster.sh stop '" +
                          dir + "/pg' >/dev/null 2>&1";
    (void)system(command.c_str());
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

TestServer& Server() {
  static TestServer server;
  return server;
}

std::string SchemaParam(const std::string& url, const std::string& schema) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
         schema;
}

}  // namespace

const std::string& PostgresTestUrl() { return Server().url; }
const std::string& PostgresTestError() { return Server().error; }

PostgresTestSchema::PostgresTestSchema() {
  static std::atomic<int> counter{0};
  name_ = "st_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
  created_ = AdminExec("DROP SCHEMA IF EXISTS " + name_ + " CASCADE; CREATE SCHEMA " + name_);
}

PostgresTestSchema::~PostgresTestSchema() {
  if (created_.ok()) (void)AdminExec("DROP SCHEMA IF EXISTS " + name_ + " CASCADE");
}

std::string PostgresTestSchema::conninfo() const { return SchemaParam(PostgresTestUrl(), name_); }

Status PostgresTestSchema::AdminExec(const std::string& sql) const {
  if (PostgresTestUrl().empty()) {
    return FailedPrecondition("no PostgreSQL test server: " + PostgresTestError());
  }
  ::st::postgres::ConnectOptions options;
  options.conninfo = PostgresTestUrl();
  options.label = "test server";
  ST_ASSIGN_OR_RETURN(std::unique_ptr<::st::postgres::Connection> conn,
                      ::st::postgres::Connection::Open(options));
  return conn->Exec(sql);
}

Result<std::unique_ptr<MetadataStore>> PostgresTestSchema::Open(const Clock& clock, Random& random,
                                                                size_t pool_size) const {
  if (!created_.ok()) return Err(created_);
  PostgresStoreOptions options;
  options.conninfo = conninfo();
  options.pool_size = pool_size;
  options.lock_timeout = std::chrono::milliseconds(2000);
  return OpenPostgresMetadataStore(options, clock, random);
}

}  // namespace st::catalog::testing
