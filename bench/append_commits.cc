// Builds a long-history table fast for bench/scan_planning_bench.py: opens a
// *stopped* server's data dir (catalog database + local object store) and
// appends --commits snapshots to an existing table, each one real Parquet
// data file of --rows rows (id = running counter, name = "r<commit>"),
// through the same TableCommits compare-and-swap the server uses. PyIceberg
// appends over HTTP take ~0.5 s each at 1,000 commits and grow with history
// (1,000 took 555 s), so 10,000 of them would take hours; this does the same
// commits in minutes. The table's schema must be (id long, name string).
//
//   append_commits --data-dir D --bucket-arn ARN --namespace ns --table t
//                  --commits 10000 --rows 10 [--first-id 0] [--snapshots-per-commit K]
//
// With K > 1, K appends (K snapshots, each with its own data file, manifest
// list and MergeAppend manifests, exactly as K commits would leave them) go
// into one catalog commit, so the metadata file is rewritten commits/K times
// instead of once per snapshot: what makes a 10,000-snapshot table cheap to
// build. The table reached is the same.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "catalog/sqlite_metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/random.h"
#include "common/value.h"
#include "iceberg/append.h"
#include "iceberg/data_file_writer.h"
#include "iceberg/table_update.h"
#include "storage/local_object_store.h"

namespace {

using namespace st;

int Fail(const Status& status) {
  std::fprintf(stderr, "append_commits: %s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string data_dir, bucket_arn, ns = "ns", name = "t";
  int commits = 100, rows = 10;
  long long first_id = 0;
  int per_commit = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--data-dir") {
      data_dir = value;
    } else if (flag == "--bucket-arn") {
      bucket_arn = value;
    } else if (flag == "--namespace") {
      ns = value;
    } else if (flag == "--table") {
      name = value;
    } else if (flag == "--commits") {
      commits = std::atoi(value.c_str());
    } else if (flag == "--rows") {
      rows = std::atoi(value.c_str());
    } else if (flag == "--snapshots-per-commit") {
      per_commit = std::max(1, std::atoi(value.c_str()));
    } else if (flag == "--first-id") {
      first_id = std::atoll(value.c_str());
    }
  }
  if (data_dir.empty() || bucket_arn.empty()) {
    return Fail(InvalidArgument("--data-dir and --bucket-arn are required"));
  }
  SystemClock clock;
  DefaultRandom random;
  catalog::SqliteStoreOptions store_options;
  store_options.path = data_dir + "/catalog/catalog.db";
  auto store_or = catalog::OpenSqliteMetadataStore(store_options, clock, random);
  if (!store_or) return Fail(store_or.error());
  catalog::MetadataStore& store = **store_or;
  auto objects_or = storage::OpenLocalObjectStore(data_dir + "/objects");
  if (!objects_or) return Fail(objects_or.error());
  storage::ObjectStore& objects = **objects_or;
  catalog::TableCommits engine(
      catalog::TableCommitsStores{.tables = store, .offsets = store, .units = store}, objects,
      clock, random, {"", 8});
  auto table = store.GetTable(bucket_arn, ns, name);
  if (!table) return Fail(table.error());
  iceberg::FileIO io = catalog::TableFileIO(objects, *table, "");

  long long next_id = first_id;
  for (int n = 0; n < commits;) {
    auto loaded = engine.LoadTable(table->table_id);
    if (!loaded) return Fail(loaded.error());
    iceberg::TableMetadata working = loaded->metadata->metadata;
    std::vector<iceberg::TableRequirement> requirements;
    std::vector<iceberg::TableUpdate> updates;
    for (int k = 0; k < per_commit && n < commits; ++k, ++n) {
      const iceberg::Schema* schema = working.CurrentSchema();
      if (schema == nullptr) return Fail(Internal("table has no current schema"));
      auto options =
          iceberg::DataFileWriterOptionsFromProperties(working.location, working.properties);
      if (!options) return Fail(options.error());
      auto writer = iceberg::DataFileWriter::Make(io, *schema, *working.DefaultSpec(),
                                                  std::move(*options), random);
      if (!writer) return Fail(writer.error());
      for (int r = 0; r < rows; ++r) {
        Status s = (*writer)->Write(
            Value::MakeStruct({Value::Int64(next_id++), Value::String("r" + std::to_string(n))}));
        if (!s.ok()) return Fail(s);
      }
      auto files = (*writer)->Close();
      if (!files) return Fail(files.error());
      iceberg::OperationContext op{io, clock, random};
      auto snapshot = iceberg::FastAppend(working, *files, {}, op);
      if (!snapshot) return Fail(snapshot.error());
      if (requirements.empty()) requirements = snapshot->requirements;
      auto next = iceberg::ApplyUpdates(working, snapshot->updates, clock.NowMillis());
      if (!next) return Fail(next.error());
      working = std::move(*next);
      updates.insert(updates.end(), snapshot->updates.begin(), snapshot->updates.end());
    }
    catalog::CommitOptions commit;
    commit.account_id = table->owner_account_id;
    auto committed = engine.CommitTable(table->table_id, requirements, updates, commit);
    if (!committed) return Fail(committed.error());
    if (n % 1000 < per_commit) std::fprintf(stderr, "append_commits: %d snapshots\n", n);
  }
  std::printf("{\"commits\": %d, \"rows\": %lld}\n", commits, next_id - first_id);
  return 0;
}
