// Delivery-commit latency (CommitWithOffsets: offset fence + pointer swap in
// one transaction) on the PostgreSQL catalog vs the SQLite catalog, in the
// same process, on the same table shape: median and p99 over the first 10
// commits and over commits 9,991-10,000 of a 10,000-commit run, and the
// ratio PostgreSQL / SQLite.
//
//   catalog_commit_latency_bench <postgres-url> [commits]
//
// The SQLite store is opened as the server opens it (WAL, synchronous=FULL);
// the PostgreSQL server should run with fsync on for a fair comparison
// (bench/catalog_commit_latency_bench.sh starts one so).
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "catalog/postgres_metadata_store.h"
#include "catalog/sqlite_metadata_store.h"

namespace {

using namespace st;
using namespace st::catalog;

constexpr const char* kAccount = "111122223333";
constexpr const char* kChannel = "arn:aws:kafka:us-east-1:111122223333:channel/c/u/ch/id";

struct Stats {
  double median_us = 0;
  double p99_us = 0;
};

Stats Summarise(std::vector<double> us) {
  std::sort(us.begin(), us.end());
  Stats out;
  out.median_us = us[us.size() / 2];
  out.p99_us = us[std::min(us.size() - 1, us.size() * 99 / 100)];
  return out;
}

// Per-commit latencies in microseconds, or empty on error.
std::vector<double> Run(MetadataStore& store, int commits) {
  auto bucket = store.CreateTableBucket({kAccount, "us-east-1", "bench", {}});
  if (!bucket.has_value()) {
    std::fprintf(stderr, "bucket: %s\n", bucket.error().ToString().c_str());
    return {};
  }
  (void)store.CreateNamespace(bucket->arn, "ns", kAccount);
  auto table = store.CreateTable({bucket->arn, "ns", "t", kAccount, std::string(kChannel), {}});
  if (!table.has_value() || !store.InitChannelOffsets(kChannel, {{0, 0}, {1, 0}}, 0).ok()) {
    std::fprintf(stderr, "table setup failed\n");
    return {};
  }
  std::string token = table->version_token;
  std::vector<double> out;
  out.reserve(static_cast<size_t>(commits));
  for (int i = 0; i < commits; ++i) {
    const std::string location =
        table->warehouse_location + "/metadata/" + std::to_string(i) + ".metadata.json";
    auto start = std::chrono::steady_clock::now();
    auto committed = store.CommitWithOffsets(
        table->table_id, token, location, kChannel,
        {{0, {i * 100, i * 100 + 100}}, {1, {i * 50, i * 50 + 50}}}, kAccount);
    auto end = std::chrono::steady_clock::now();
    if (!committed.has_value()) {
      std::fprintf(stderr, "commit %d: %s\n", i, committed.error().ToString().c_str());
      return {};
    }
    token = committed->version_token;
    out.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  return out;
}

void Report(const char* name, const std::vector<double>& us) {
  std::vector<double> first(us.begin(), us.begin() + 10);
  std::vector<double> last(us.end() - 10, us.end());
  Stats a = Summarise(first);
  Stats b = Summarise(last);
  Stats all = Summarise(us);
  std::printf(
      "%-10s commits 1-10: median %8.1f us p99 %8.1f | last 10: median %8.1f us p99 "
      "%8.1f | all %zu: median %8.1f us p99 %8.1f\n",
      name, a.median_us, a.p99_us, b.median_us, b.p99_us, us.size(), all.median_us, all.p99_us);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <postgres-url> [commits]\n", argv[0]);
    return 2;
  }
  const int commits = argc > 2 ? std::max(20, atoi(argv[2])) : 10000;
  ManualClock clock{std::chrono::system_clock::time_point(std::chrono::seconds(1733250000))};
  DefaultRandom random{1};

  std::string dir = (std::filesystem::temp_directory_path() / "st-commit-bench-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) return 1;
  SqliteStoreOptions sqlite_options;
  sqlite_options.path = dir + "/catalog.db";
  auto sqlite = OpenSqliteMetadataStore(sqlite_options, clock, random);
  PostgresStoreOptions pg_options;
  pg_options.conninfo = argv[1];
  auto pg = OpenPostgresMetadataStore(pg_options, clock, random);
  if (!sqlite.has_value() || !pg.has_value()) {
    std::fprintf(stderr, "open failed: %s\n",
                 (!sqlite.has_value() ? sqlite.error() : pg.error()).ToString().c_str());
    return 1;
  }
  std::vector<double> sqlite_us = Run(**sqlite, commits);
  std::vector<double> pg_us = Run(**pg, commits);
  std::filesystem::remove_all(dir);
  if (sqlite_us.empty() || pg_us.empty()) return 1;
  Report("sqlite", sqlite_us);
  Report("postgresql", pg_us);
  auto ratio = [](const std::vector<double>& a, const std::vector<double>& b, bool last) {
    std::vector<double> x = last ? std::vector<double>(a.end() - 10, a.end())
                                 : std::vector<double>(a.begin(), a.begin() + 10);
    std::vector<double> y = last ? std::vector<double>(b.end() - 10, b.end())
                                 : std::vector<double>(b.begin(), b.begin() + 10);
    return Summarise(x).median_us / Summarise(y).median_us;
  };
  std::printf("ratio postgresql/sqlite (median): commits 1-10 %.2fx, last 10 %.2fx, all %.2fx\n",
              ratio(pg_us, sqlite_us, false), ratio(pg_us, sqlite_us, true),
              Summarise(pg_us).median_us / Summarise(sqlite_us).median_us);
  return 0;
}
