// st_iceberg_rest_fixture: seeds a server's data dir through the catalog
// library, for integration tests that need what no public API offers yet
// (streaming tables belong to delivery channels) or before the control plane
// is mounted. Safe while the server runs: the SQLite store is multi-process.
//
//   st_iceberg_rest_fixture <data-dir> bucket <account> <region> <name>
//   st_iceberg_rest_fixture <data-dir> streaming-table <bucket-arn> <namespace> <table>
//   <channel-arn>
//
// Prints the created bucket ARN / table metadata location on stdout.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "catalog/sqlite_metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/random.h"
#include "iceberg/json_serde.h"
#include "storage/local_object_store.h"

namespace st {
namespace {

int Fail(const Status& status) {
  std::fprintf(stderr, "st_iceberg_rest_fixture: %s\n", status.ToString().c_str());
  return 1;
}

int Run(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <data-dir> bucket|streaming-table ...\n", argv[0]);
    return 2;
  }
  const std::string data_dir = argv[1];
  const std::string command = argv[2];
  const Clock& clock = SystemClock::Default();
  Random& random = DefaultRandom::Default();
  auto store = catalog::OpenSqliteMetadataStore({data_dir + "/catalog/catalog.db"}, clock, random);
  if (!store.has_value()) return Fail(store.error());

  if (command == "bucket" && argc == 6) {
    auto bucket = (*store)->CreateTableBucket({argv[3], argv[4], argv[5], {}});
    if (!bucket.has_value()) return Fail(bucket.error());
    std::printf("%s\n", bucket->arn.c_str());
    return 0;
  }
  if (command == "streaming-table" && argc == 7) {
    auto objects = storage::OpenLocalObjectStore(data_dir + "/objects");
    if (!objects.has_value()) return Fail(objects.error());
    catalog::TableCommits commits(**store, **objects, clock, random);
    const std::string bucket_arn = argv[3];
    const std::string ns = argv[4];
    auto bucket = (*store)->GetTableBucket(bucket_arn);
    if (!bucket.has_value()) return Fail(bucket.error());
    if (!(*store)->GetNamespace(bucket_arn, ns).has_value()) {
      auto created = (*store)->CreateNamespace(bucket_arn, ns, bucket->owner_account_id);
      if (!created.has_value()) return Fail(created.error());
    }
    auto schema = iceberg::SchemaFromJson(nlohmann::json::parse(
        R"({"type":"struct","fields":[{"id":1,"name":"id","type":"long","required":true},)"
        R"({"id":2,"name":"name","type":"string","required":false}]})"));
    if (!schema.has_value()) return Fail(schema.error());
    catalog::InitialMetadata initial{
        *schema, iceberg::PartitionSpec::Unpartitioned(), iceberg::SortOrder::Unsorted(), {}};
    auto table = commits.CreateTable(
        {bucket_arn, ns, argv[5], bucket->owner_account_id, std::string(argv[6]), std::nullopt},
        initial);
    if (!table.has_value()) return Fail(table.error());
    std::printf("%s\n", table->metadata->location.c_str());
    return 0;
  }
  std::fprintf(stderr, "st_iceberg_rest_fixture: bad arguments\n");
  return 2;
}

}  // namespace
}  // namespace st

int main(int argc, char** argv) { return st::Run(argc, argv); }
