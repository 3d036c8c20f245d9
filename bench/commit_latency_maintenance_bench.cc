// Commit latency of a delivery-style table as it ages, with snapshot
// expiration running concurrently (driven by commit_latency_maintenance_bench.py).
//
// Each commit is what a channel worker does per flush: LoadTable, FastAppend
// of one data file (manifest metadata only; the Parquet bytes do not matter
// to the commit), CommitTable through the shared compare-and-swap. A second
// thread runs the maintenance service's snapshot expiration every
// --expire-every commits on the same table, as the scheduler would. The
// injected clock advances --seconds-per-commit per commit (the channel's
// freshness), so the maxSnapshotAgeHours rule sees realistic ages.
//
// --catalog postgresql://... puts the catalog on PostgreSQL instead of the
// SQLite file in --dir; --object-store s3://bucket/prefix?endpoint=... puts
// the table's objects (manifests, metadata JSON) in an S3-compatible store
// (credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY) instead of
// --dir/objects: the scale-out configuration of issue 13.
//
// Prints one JSON line per commit: {"commit": n, "ms": latency,
// "metadata_bytes": size of the new metadata file, "snapshots": count}.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "catalog/id_generation.h"
#include "catalog/postgres_metadata_store.h"
#include "catalog/sqlite_metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/logger.h"
#include "common/random.h"
#include "common/value.h"
#include "iceberg/append.h"
#include "maintenance/maintenance_service.h"
#include "s3store/s3_object_store.h"
#include "storage/local_object_store.h"

namespace {

using namespace st;

// Allows everything: the bench measures commits, not policies.
class AllowAll final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal&,
                                       const auth::AccessRequest&) const override {
    return auth::AuthDecision{true, "", false};
  }
};

int Fail(const Status& status) {
  std::fprintf(stderr, "commit_latency_maintenance_bench: %s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  std::string catalog_url;
  std::string object_store_url;
  int commits = 100;
  int expire_every = 50;
  int seconds_per_commit = 60;
  int max_age_hours = 1;
  int keep = 1;
  bool expire = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--dir")
      dir = value;
    else if (flag == "--catalog")
      catalog_url = value;
    else if (flag == "--object-store")
      object_store_url = value;
    else if (flag == "--commits")
      commits = std::atoi(value.c_str());
    else if (flag == "--expire-every")
      expire_every = std::atoi(value.c_str());
    else if (flag == "--seconds-per-commit")
      seconds_per_commit = std::atoi(value.c_str());
    else if (flag == "--max-age-hours")
      max_age_hours = std::atoi(value.c_str());
    else if (flag == "--keep")
      keep = std::atoi(value.c_str());
    else if (flag == "--expire")
      expire = value == "on";
  }
  if (dir.empty()) return Fail(InvalidArgument("--dir is required"));
  std::filesystem::create_directories(dir);

  ManualClock clock(std::chrono::system_clock::now());
  DefaultRandom random(42);
  NullLogger logger;
  AllowAll authorizer;
  auto store_or = catalog_url.empty()
                      ? catalog::OpenSqliteMetadataStore({dir + "/catalog.db"}, clock, random)
                      : catalog::OpenPostgresMetadataStore({catalog_url}, clock, random);
  if (!store_or) return Fail(store_or.error());
  catalog::MetadataStore& store = **store_or;
  Result<std::unique_ptr<storage::ObjectStore>> objects_or =
      Err(Internal("no object store opened"));
  if (object_store_url.empty()) {
    objects_or = storage::OpenLocalObjectStore(dir + "/objects");
  } else {
    s3store::S3StoreOptions options;
    auto location = s3store::ParseS3Url(object_store_url);
    if (!location) return Fail(location.error());
    options.location = *location;
    auto credentials = s3store::CredentialsFromEnvironment();
    if (!credentials) return Fail(credentials.error());
    options.credentials = *credentials;
    // Signing needs the real time: the injected clock runs 60 s per commit.
    objects_or = s3store::OpenS3ObjectStore(std::move(options), SystemClock::Default(),
                                            DefaultRandom::Default());
  }
  if (!objects_or) return Fail(objects_or.error());
  storage::ObjectStore& objects = **objects_or;
  catalog::TableCommits commits_engine(store, objects, clock, random, {"", 8});

  const char* account = "111122223333";
  if (Status s = store.CreateAccount(account); !s.ok()) return Fail(s);
  auto bucket = store.CreateTableBucket({account, "us-east-1", "bench", {}});
  if (!bucket) return Fail(bucket.error());
  if (auto ns = store.CreateNamespace(bucket->arn, "ns", account); !ns) return Fail(ns.error());
  auto schema = iceberg::Schema::Make(0, {{1, "id", true, iceberg::Type::Long(), ""}});
  if (!schema) return Fail(schema.error());
  // As a channel creates its table (delivery/worker_table.cc): 10 logged versions.
  catalog::InitialMetadata initial{*schema,
                                   iceberg::PartitionSpec::Unpartitioned(),
                                   iceberg::SortOrder::Unsorted(),
                                   {{"write.metadata.previous-versions-max", "10"}}};
  const std::string channel = "arn:aws:kafka:us-east-1:111122223333:channel/bench/c";
  auto created =
      commits_engine.CreateTable({bucket->arn, "ns", "t", account, channel, {}}, initial);
  if (!created) return Fail(created.error());
  const catalog::Table table = created->table;
  if (Status s = store.PutTableMaintenance(
          table.table_id, "icebergSnapshotManagement",
          "{\"status\":\"enabled\",\"settings\":{\"icebergSnapshotManagement\":{"
          "\"minSnapshotsToKeep\":" +
              std::to_string(keep) + ",\"maxSnapshotAgeHours\":" + std::to_string(max_age_hours) +
              "}}}");
      !s.ok()) {
    return Fail(s);
  }

  maintenance::MaintenanceService service(
      {store, commits_engine, objects, "", authorizer, clock, random, logger}, {});
  std::atomic<int> done{0};
  std::atomic<bool> stop{false};
  std::thread expirer([&] {
    int last = 0;
    while (!stop.load()) {
      int now = done.load();
      if (expire && now - last >= expire_every) {
        last = now;
        auto ran = service.RunNow(table.table_id, catalog::MaintenanceJob::kSnapshotManagement);
        if (!ran) std::fprintf(stderr, "expiration: %s\n", ran.error().ToString().c_str());
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
  });

  iceberg::FileIO io = catalog::TableFileIO(objects, table, "");
  for (int n = 1; n <= commits; ++n) {
    clock.Advance(std::chrono::seconds(seconds_per_commit));
    iceberg::DataFile file;
    file.file_path = table.warehouse_location + "/data/f" + std::to_string(n) + ".parquet";
    file.partition = Value::MakeStruct({});
    file.record_count = 100;
    file.file_size_in_bytes = 4096;
    const auto started = std::chrono::steady_clock::now();
    Result<catalog::LoadedTable> committed = Err(Internal("not run"));
    int retries = 0;
    for (int attempt = 0; attempt < 8; ++attempt) {
      auto loaded = commits_engine.LoadTable(table.table_id);
      if (!loaded) return Fail(loaded.error());
      iceberg::OperationContext op{io, clock, random};
      auto snapshot = iceberg::FastAppend(loaded->metadata->metadata, {file}, {}, op);
      if (!snapshot) return Fail(snapshot.error());
      catalog::CommitOptions options;
      options.account_id = account;
      options.acting_channel = channel;
      committed = commits_engine.CommitTable(table.table_id, snapshot->requirements,
                                             snapshot->updates, options);
      // A lost race against expiration: the worker re-plans on the new base
      // (on PostgreSQL a serialization failure is Unavailable, retried alike).
      if (committed || (committed.error().code() != StatusCode::kConflict &&
                        committed.error().code() != StatusCode::kUnavailable)) {
        break;
      }
      ++retries;
    }
    if (!committed) return Fail(committed.error());
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    int64_t bytes = -1;
    if (auto key = io.KeyFor(committed->metadata->location); key) {
      if (auto info = objects.Head(*key); info) bytes = info->size_bytes;
    }
    std::printf(
        "{\"commit\": %d, \"ms\": %.3f, \"metadata_bytes\": %lld, \"snapshots\": %zu, "
        "\"retries\": %d}\n",
        n, ms, static_cast<long long>(bytes), committed->metadata->metadata.snapshots.size(),
        retries);
    done.store(n);
  }
  stop.store(true);
  expirer.join();
  return 0;
}
