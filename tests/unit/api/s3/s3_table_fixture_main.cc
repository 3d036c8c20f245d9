// st_s3_table_fixture: creates a table (optionally a streaming one, owned by
// a channel ARN) directly in a server's catalog database, for integration
// tests that need tables before the control plane can make them (streaming
// tables only ever come from a delivery channel). SQLite in WAL mode lets it
// run next to a live server.
//
//   st_s3_table_fixture <catalog.db> <account id> <bucket> <namespace> <table> [channel ARN]
//
// Prints {"arn": ..., "warehouse_location": ...} on stdout.
#include <cstdio>
#include <string>

#include "catalog/arns.h"
#include "catalog/sqlite_metadata_store.h"
#include "common/clock.h"
#include "common/random.h"

int main(int argc, char** argv) {
  using namespace st;
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr,
                 "usage: %s <catalog.db> <account id> <bucket> <namespace> <table> [channel]\n",
                 argv[0]);
    return 2;
  }
  const std::string account = argv[2];
  auto store =
      catalog::OpenSqliteMetadataStore({argv[1]}, SystemClock::Default(), DefaultRandom::Default());
  if (!store.has_value()) {
    std::fprintf(stderr, "%s\n", store.error().ToString().c_str());
    return 1;
  }
  auto fail = [](const Status& status) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    return 1;
  };
  std::string bucket_arn = catalog::TableBucketArn("us-east-1", account, argv[3]);
  auto bucket = (*store)->GetTableBucket(bucket_arn);
  if (!bucket.has_value()) {
    bucket = (*store)->CreateTableBucket({account, "us-east-1", argv[3], {}});
    if (!bucket.has_value()) return fail(bucket.error());
  }
  if (!(*store)->GetNamespace(bucket->arn, argv[4]).has_value()) {
    auto ns = (*store)->CreateNamespace(bucket->arn, argv[4], account);
    if (!ns.has_value()) return fail(ns.error());
  }
  catalog::NewTable table{bucket->arn, argv[4], argv[5], account, std::nullopt, std::nullopt};
  if (argc == 7) table.managed_by_channel = argv[6];
  auto created = (*store)->CreateTable(table);
  if (!created.has_value()) return fail(created.error());
  std::printf("{\"arn\": \"%s\", \"warehouse_location\": \"%s\"}\n", created->arn.c_str(),
              created->warehouse_location.c_str());
  return 0;
}
