// Test fixture: creates a streaming table (managed_by_channel set) in a
// server's data dir through the catalog library, before the server starts,
// as issue 3 allows until delivery channels exist. Prints the table ARN and
// metadata location as JSON on stdout.
//
//   st_streaming_table_fixture --data-dir D --account-id 111122223333
//       --bucket b --namespace ns --table t --channel arn:...
//       [--region us-east-1] [--key-root ""]
//
// The layout matches server/data_dir.h: D/catalog/catalog.db, D/objects/.
#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <string>

#include "catalog/metadata_store.h"
#include "catalog/sqlite_metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/random.h"
#include "iceberg/types.h"
#include "storage/local_object_store.h"

namespace {

using namespace st;  // NOLINT: a test program.

int Fail(const std::string& what, const Status& status) {
  std::fprintf(stderr, "streaming_table_fixture: %s: %s\n", what.c_str(),
               status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> flags = {{"--region", "us-east-1"}, {"--key-root", ""}};
  for (int i = 1; i + 1 < argc; i += 2) flags[argv[i]] = argv[i + 1];
  for (const char* required :
       {"--data-dir", "--account-id", "--bucket", "--namespace", "--table", "--channel"}) {
    if (flags.count(required) == 0) {
      std::fprintf(stderr, "streaming_table_fixture: %s is required\n", required);
      return 2;
    }
  }
  const std::string root = flags["--data-dir"];
  ::mkdir(root.c_str(), 0700);
  ::mkdir((root + "/catalog").c_str(), 0700);
  ::mkdir((root + "/objects").c_str(), 0700);

  SystemClock& clock = SystemClock::Default();
  DefaultRandom& random = DefaultRandom::Default();
  catalog::SqliteStoreOptions options;
  options.path = root + "/catalog/catalog.db";
  auto store = catalog::OpenSqliteMetadataStore(options, clock, random);
  if (!store.has_value()) return Fail("open catalog", store.error());
  auto objects = storage::OpenLocalObjectStore(root + "/objects");
  if (!objects.has_value()) return Fail("open objects", objects.error());
  catalog::TableCommits commits(**store, **objects, clock, random,
                                catalog::TableCommitsOptions{flags["--key-root"]});

  catalog::NewTableBucket new_bucket{
      flags["--account-id"], flags["--region"], flags["--bucket"], {}};
  auto bucket = (*store)->CreateTableBucket(new_bucket);
  if (!bucket.has_value()) return Fail("create bucket", bucket.error());
  auto ns = (*store)->CreateNamespace(bucket->arn, flags["--namespace"], flags["--account-id"]);
  if (!ns.has_value()) return Fail("create namespace", ns.error());

  auto schema = iceberg::Schema::Make(
      0, {iceberg::NestedField{1, "id", true, iceberg::Type::Long(), ""},
          iceberg::NestedField{2, "payload", false, iceberg::Type::String(), ""}});
  if (!schema.has_value()) return Fail("schema", schema.error());
  catalog::InitialMetadata metadata{
      *schema, iceberg::PartitionSpec::Unpartitioned(), iceberg::SortOrder::Unsorted(), {}};
  catalog::NewTable table{bucket->arn,           flags["--namespace"], flags["--table"],
                          flags["--account-id"], flags["--channel"],   std::nullopt};
  auto created = commits.CreateTable(table, metadata);
  if (!created.has_value()) return Fail("create table", created.error());
  std::printf("{\"bucketArn\":\"%s\",\"tableArn\":\"%s\",\"metadataLocation\":\"%s\"}\n",
              bucket->arn.c_str(), created->table.arn.c_str(),
              created->table.metadata_location.value_or("").c_str());
  return 0;
}
