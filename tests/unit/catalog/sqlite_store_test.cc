// CRUD, pagination, configuration and tags of the SQLite MetadataStore.
#include <gtest/gtest.h>

#include <set>

#include "catalog/maintenance_defaults.h"
#include "store_fixture.h"

namespace st::catalog {
namespace {

using SqliteStoreTest = StoreTest;

TEST_F(SqliteStoreTest, BucketCrud) {
  TableBucket bucket = MakeBucket("analytics");
  EXPECT_EQ(bucket.arn, "arn:aws:s3tables:us-east-1:111122223333:bucket/analytics");
  EXPECT_EQ(bucket.owner_account_id, kAccount);
  EXPECT_EQ(bucket.table_bucket_id.size(), 36u);
  EXPECT_EQ(bucket.encryption.sse_algorithm, "AES256");

  auto got = store_->GetTableBucket(bucket.arn);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->table_bucket_id, bucket.table_bucket_id);
  EXPECT_EQ(got->created_at, clock_.Now());

  auto dup = store_->CreateTableBucket({kAccount, kRegion, "analytics", {}});
  EXPECT_EQ(dup.error().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->CreateTableBucket({kAccount, kRegion, "Bad_Name", {}}).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->CreateTableBucket({kAccount, kRegion, "kms", {"aws:kms", ""}}).error().code(),
            StatusCode::kInvalidArgument);

  auto missing = store_->GetTableBucket(TableBucketArn("nope"));
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.error().message(), "The specified table bucket does not exist.");
  EXPECT_EQ(store_->GetTableBucket("not-an-arn").error().code(), StatusCode::kInvalidArgument);

  ASSERT_TRUE(store_->CreateNamespace(bucket.arn, "ns", kAccount).has_value());
  EXPECT_EQ(store_->DeleteTableBucket(bucket.arn).code(), StatusCode::kConflict);
  ASSERT_TRUE(store_->DeleteNamespace(bucket.arn, "ns").ok());
  ASSERT_TRUE(store_->DeleteTableBucket(bucket.arn).ok());
  EXPECT_EQ(store_->GetTableBucket(bucket.arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->DeleteTableBucket(bucket.arn).code(), StatusCode::kNotFound);
}

TEST_F(SqliteStoreTest, BucketPolicyEncryptionMaintenance) {
  TableBucket bucket = MakeBucket("bk1");
  EXPECT_EQ(store_->GetTableBucketPolicy(bucket.arn).error().code(), StatusCode::kNotFound);
  ASSERT_TRUE(store_->PutTableBucketPolicy(bucket.arn, R"({"Statement":[]})").ok());
  EXPECT_EQ(*store_->GetTableBucketPolicy(bucket.arn), R"({"Statement":[]})");
  ASSERT_TRUE(store_->DeleteTableBucketPolicy(bucket.arn).ok());
  EXPECT_EQ(store_->GetTableBucketPolicy(bucket.arn).error().code(), StatusCode::kNotFound);

  EncryptionConfig kms{"aws:kms", "arn:aws:kms:us-east-1:111122223333:key/k1"};
  ASSERT_TRUE(store_->PutTableBucketEncryption(bucket.arn, kms).ok());
  EXPECT_EQ(store_->GetTableBucket(bucket.arn)->encryption, kms);
  // Tables inherit the bucket's encryption unless they bring their own.
  Table table = MakeTable("bk1");
  EXPECT_EQ(table.encryption, kms);
  ASSERT_TRUE(store_->DeleteTableBucketEncryption(bucket.arn).ok());
  EXPECT_EQ(store_->GetTableBucket(bucket.arn)->encryption, EncryptionConfig{});

  EXPECT_TRUE(store_->GetTableBucketMaintenance(bucket.arn)->empty());
  MaintenanceConfigs effective =
      EffectiveTableBucketMaintenance(*store_->GetTableBucketMaintenance(bucket.arn));
  EXPECT_EQ(effective.at(kIcebergUnreferencedFileRemoval), kDefaultUnreferencedFileRemovalValue);
  ASSERT_TRUE(store_
                  ->PutTableBucketMaintenance(bucket.arn, kIcebergUnreferencedFileRemoval,
                                              R"({"status":"disabled"})")
                  .ok());
  effective = EffectiveTableBucketMaintenance(*store_->GetTableBucketMaintenance(bucket.arn));
  EXPECT_EQ(effective.at(kIcebergUnreferencedFileRemoval), R"({"status":"disabled"})");
}

TEST_F(SqliteStoreTest, NamespaceCrud) {
  TableBucket bucket = MakeBucket("bk1");
  auto ns = store_->CreateNamespace(bucket.arn, "sales", "444455556666");
  ASSERT_TRUE(ns.has_value()) << ns.error().ToString();
  EXPECT_EQ(ns->created_by, "444455556666");
  EXPECT_EQ(ns->owner_account_id, kAccount);
  EXPECT_EQ(ns->table_bucket_id, bucket.table_bucket_id);
  EXPECT_EQ(store_->CreateNamespace(bucket.arn, "sales", kAccount).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->CreateNamespace(bucket.arn, "Sales", kAccount).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->CreateNamespace(TableBucketArn("nope"), "x", kAccount).error().code(),
            StatusCode::kNotFound);
  auto got = store_->GetNamespace(bucket.arn, "sales");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->namespace_id, ns->namespace_id);
  auto missing = store_->GetNamespace(bucket.arn, "other");
  EXPECT_EQ(missing.error().message(), "The specified namespace does not exist.");
  EXPECT_EQ(store_->DeleteNamespace(bucket.arn, "other").code(), StatusCode::kNotFound);
}

TEST_F(SqliteStoreTest, TableCrudAndRename) {
  Table table = MakeTable("bk1", "clicks");
  EXPECT_EQ(table.arn, TableBucketArn("bk1") + "/table/" + table.table_id);
  EXPECT_FALSE(table.metadata_location.has_value());
  EXPECT_EQ(table.type, "customer");
  EXPECT_EQ(table.format, "ICEBERG");
  EXPECT_EQ(table.warehouse_location.substr(table.warehouse_location.size() - 10), "--table-s3");
  EXPECT_EQ(table.version_token.size(), 20u);

  auto by_name = store_->GetTable(table.bucket_arn, "ns", "clicks");
  ASSERT_TRUE(by_name.has_value());
  EXPECT_EQ(by_name->table_id, table.table_id);
  EXPECT_EQ(by_name->namespace_id, store_->GetNamespace(table.bucket_arn, "ns")->namespace_id);
  EXPECT_EQ(store_->GetTableByArn(table.arn)->name, "clicks");
  EXPECT_EQ(store_->GetTableById(table.table_id)->arn, table.arn);
  EXPECT_EQ(store_->GetTableByWarehouseLocation(table.warehouse_location)->table_id,
            table.table_id);
  EXPECT_EQ(store_->GetTableByWarehouseLocation(table.warehouse_location + "x").error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store_->GetTableByWarehouseLocation("").error().code(), StatusCode::kNotFound);
  auto missing = store_->GetTable(table.bucket_arn, "ns", "nope");
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.error().message(), "The specified table does not exist.");
  EXPECT_EQ(store_->GetTable(table.bucket_arn, "nons", "clicks").error().message(),
            "The specified namespace does not exist.");

  auto dup = store_->CreateTable({table.bucket_arn, "ns", "clicks", kAccount, std::nullopt, {}});
  EXPECT_EQ(dup.error().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->CreateTable({table.bucket_arn, "none", "x", kAccount, std::nullopt, {}})
                .error()
                .code(),
            StatusCode::kNotFound);

  // Rename into another namespace: new token, same id and ARN.
  ASSERT_TRUE(store_->CreateNamespace(table.bucket_arn, "ns2", kAccount).has_value());
  clock_.Advance(std::chrono::seconds(5));
  TableWriter writer{"444455556666", std::nullopt};
  EXPECT_EQ(store_->RenameTable(table.table_id, "stale", "ns2", "views", writer).error().code(),
            StatusCode::kConflict);
  auto renamed = store_->RenameTable(table.table_id, table.version_token, "ns2", "views", writer);
  ASSERT_TRUE(renamed.has_value()) << renamed.error().ToString();
  EXPECT_EQ(renamed->namespace_name, "ns2");
  EXPECT_EQ(renamed->name, "views");
  EXPECT_EQ(renamed->arn, table.arn);
  EXPECT_NE(renamed->version_token, table.version_token);
  EXPECT_EQ(renamed->modified_by, "444455556666");
  EXPECT_EQ(renamed->modified_at, clock_.Now());
  EXPECT_EQ(renamed->created_at, table.created_at);
  EXPECT_EQ(store_->GetTable(table.bucket_arn, "ns", "clicks").error().code(),
            StatusCode::kNotFound);
  Table other = MakeTable("bk1", "other");
  EXPECT_EQ(
      store_->RenameTable(other.table_id, std::nullopt, "ns2", "views", writer).error().code(),
      StatusCode::kAlreadyExists);
  EXPECT_EQ(
      store_->RenameTable(other.table_id, std::nullopt, "missing", "x", writer).error().code(),
      StatusCode::kNotFound);

  // Namespace with a table cannot go; conditional delete checks the token.
  EXPECT_EQ(store_->DeleteNamespace(table.bucket_arn, "ns2").code(), StatusCode::kConflict);
  EXPECT_EQ(store_->DeleteTable(table.table_id, std::string("stale")).code(),
            StatusCode::kConflict);
  ASSERT_TRUE(store_->DeleteTable(table.table_id, renamed->version_token).ok());
  EXPECT_EQ(store_->GetTableById(table.table_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->DeleteTable(table.table_id, std::nullopt).code(), StatusCode::kNotFound);
  EXPECT_TRUE(store_->DeleteNamespace(table.bucket_arn, "ns2").ok());
}

TEST_F(SqliteStoreTest, TableConfiguration) {
  Table table = MakeTable();
  EXPECT_EQ(store_->GetTablePolicy(table.table_id).error().message(),
            "The table policy does not exist.");
  ASSERT_TRUE(store_->PutTablePolicy(table.table_id, "{}").ok());
  EXPECT_EQ(*store_->GetTablePolicy(table.table_id), "{}");
  ASSERT_TRUE(store_->DeleteTablePolicy(table.table_id).ok());
  EXPECT_EQ(store_->GetTablePolicy(table.table_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->PutTablePolicy("no-such-table", "{}").code(), StatusCode::kNotFound);

  EXPECT_FALSE(store_->GetTableRecordExpiration(table.table_id)->has_value());
  ASSERT_TRUE(store_->PutTableRecordExpiration(table.table_id, R"({"status":"enabled"})").ok());
  EXPECT_EQ(**store_->GetTableRecordExpiration(table.table_id), R"({"status":"enabled"})");

  MaintenanceConfigs effective =
      EffectiveTableMaintenance(*store_->GetTableMaintenance(table.table_id));
  EXPECT_EQ(effective.size(), 2u);
  EXPECT_EQ(effective.at(kIcebergCompaction), kDefaultCompactionValue);
  ASSERT_TRUE(store_->PutTableMaintenance(table.table_id, kIcebergCompaction, "{\"x\":1}").ok());
  ASSERT_TRUE(store_->PutTableMaintenance(table.table_id, kIcebergCompaction, "{\"x\":2}").ok());
  effective = EffectiveTableMaintenance(*store_->GetTableMaintenance(table.table_id));
  EXPECT_EQ(effective.at(kIcebergCompaction), "{\"x\":2}");
  EXPECT_EQ(effective.at(kIcebergSnapshotManagement), kDefaultSnapshotManagementValue);
}

TEST_F(SqliteStoreTest, Tags) {
  TableBucket bucket = MakeBucket("bk1");
  Table table = MakeTable("bk1");
  ASSERT_TRUE(store_->TagResource(bucket.arn, {{"team", "data"}, {"env", "prod"}}).ok());
  ASSERT_TRUE(store_->TagResource(bucket.arn, {{"env", "dev"}}).ok());
  EXPECT_EQ(*store_->ListTags(bucket.arn), (Tags{{"env", "dev"}, {"team", "data"}}));
  ASSERT_TRUE(store_->UntagResource(bucket.arn, {"team", "absent"}).ok());
  EXPECT_EQ(*store_->ListTags(bucket.arn), (Tags{{"env", "dev"}}));
  EXPECT_EQ(store_->TagResource(bucket.arn + "x", {{"a", "b"}}).code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->TagResource(bucket.arn, {{"aws:x", "b"}}).code(), StatusCode::kInvalidArgument);

  Tags many;
  for (int i = 0; i < 50; ++i) many["k" + std::to_string(i)] = "v";
  ASSERT_TRUE(store_->TagResource(table.arn, many).ok());
  EXPECT_EQ(store_->TagResource(table.arn, {{"one-more", "v"}}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListTags(table.arn)->size(), 50u);  // The failed call changed nothing.
  // Deleting the table removes its tags; a new table with the same ARN cannot exist anyway.
  ASSERT_TRUE(store_->DeleteTable(table.table_id, std::nullopt).ok());
  EXPECT_EQ(store_->ListTags(table.arn).error().code(), StatusCode::kNotFound);
}

TEST_F(SqliteStoreTest, ListTableBucketsPaginatesWithPrefix) {
  std::vector<std::string> names;
  for (int i = 0; i < 7; ++i) names.push_back("logs-" + std::to_string(i));
  for (int i = 0; i < 3; ++i) names.push_back("metrics-" + std::to_string(i));
  for (auto it = names.rbegin(); it != names.rend(); ++it) MakeBucket(*it);  // Insert out of order.
  ASSERT_TRUE(store_->CreateTableBucket({"999988887777", kRegion, "logs-other", {}}).has_value());

  PageRequest request{"logs-", "", 3};
  std::vector<std::string> seen;
  int pages = 0;
  while (true) {
    auto page = store_->ListTableBuckets(kAccount, request);
    ASSERT_TRUE(page.has_value()) << page.error().ToString();
    ++pages;
    for (const TableBucket& b : page->items) seen.push_back(b.name);
    if (page->continuation_token.empty()) break;
    EXPECT_EQ(page->items.size(), 3u);
    request.continuation_token = page->continuation_token;
  }
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen, std::vector<std::string>(names.begin(), names.begin() + 7));

  auto all = store_->ListTableBuckets(kAccount, {});
  EXPECT_EQ(all->items.size(), 10u);
  EXPECT_TRUE(all->continuation_token.empty());
  // An exact page boundary ends with an empty token on the next call, not a dangling one.
  auto exact = store_->ListTableBuckets(kAccount, {"metrics-", "", 3});
  EXPECT_EQ(exact->items.size(), 3u);
  EXPECT_TRUE(exact->continuation_token.empty());

  // Tokens are bound to their listing and prefix.
  auto first = store_->ListTableBuckets(kAccount, {"logs-", "", 2});
  EXPECT_EQ(
      store_->ListTableBuckets(kAccount, {"metrics-", first->continuation_token, 2}).error().code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListTableBuckets(kAccount, {"", "garbage!", 2}).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListTableBuckets(kAccount, {"", "", 0}).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListTableBuckets(kAccount, {"", "", 1001}).error().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(SqliteStoreTest, ListNamespacesAndTablesPaginate) {
  TableBucket bucket = MakeBucket("bk1");
  for (const char* ns : {"a", "b", "c", "bb"}) {
    ASSERT_TRUE(store_->CreateNamespace(bucket.arn, ns, kAccount).has_value());
  }
  auto ns_page = store_->ListNamespaces(bucket.arn, {"b", "", 1});
  ASSERT_TRUE(ns_page.has_value());
  ASSERT_EQ(ns_page->items.size(), 1u);
  EXPECT_EQ(ns_page->items[0].name, "b");
  auto ns_next = store_->ListNamespaces(bucket.arn, {"b", ns_page->continuation_token, 1});
  ASSERT_EQ(ns_next->items.size(), 1u);
  EXPECT_EQ(ns_next->items[0].name, "bb");
  EXPECT_TRUE(ns_next->continuation_token.empty());  // "c" does not match the prefix.
  EXPECT_EQ(store_->ListNamespaces(TableBucketArn("none"), {}).error().code(),
            StatusCode::kNotFound);

  for (const char* ns : {"a", "b"}) {
    for (const char* t : {"t1", "t2", "x1"}) {
      ASSERT_TRUE(store_->CreateTable({bucket.arn, ns, t, kAccount, std::nullopt, {}}).has_value());
    }
  }
  // All namespaces, two per page: ordered by (namespace, name) across page boundaries.
  std::vector<std::string> seen;
  PageRequest request{"", "", 2};
  while (true) {
    auto page = store_->ListTables(bucket.arn, std::nullopt, request);
    ASSERT_TRUE(page.has_value()) << page.error().ToString();
    for (const Table& t : page->items) seen.push_back(t.namespace_name + "." + t.name);
    if (page->continuation_token.empty()) break;
    request.continuation_token = page->continuation_token;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"a.t1", "a.t2", "a.x1", "b.t1", "b.t2", "b.x1"}));

  auto filtered = store_->ListTables(bucket.arn, std::string("b"), {"t", "", 1000});
  ASSERT_TRUE(filtered.has_value());
  ASSERT_EQ(filtered->items.size(), 2u);
  EXPECT_EQ(filtered->items[1].name, "t2");
  EXPECT_EQ(store_->ListTables(bucket.arn, std::string("zz"), {}).error().code(),
            StatusCode::kNotFound);
  auto first = store_->ListTables(bucket.arn, std::string("a"), {"", "", 1});
  EXPECT_EQ(store_->ListTables(bucket.arn, std::string("b"), {"", first->continuation_token, 1})
                .error()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST_F(SqliteStoreTest, IdentitiesKeysPolicies) {
  EXPECT_EQ(store_->CreateIdentity(IdentityKind::kUser, kAccount, "bob").error().code(),
            StatusCode::kNotFound);  // No account yet.
  ASSERT_TRUE(store_->CreateAccount(kAccount).ok());
  EXPECT_EQ(store_->CreateAccount(kAccount).code(), StatusCode::kAlreadyExists);
  EXPECT_TRUE(*store_->AccountExists(kAccount));
  EXPECT_FALSE(*store_->AccountExists("000000000000"));

  auto bob = store_->CreateIdentity(IdentityKind::kUser, kAccount, "bob");
  ASSERT_TRUE(bob.has_value());
  EXPECT_EQ(bob->arn, "arn:aws:iam::111122223333:user/bob");
  auto role = store_->CreateIdentity(IdentityKind::kRole, kAccount, "bob");  // Separate namespace.
  ASSERT_TRUE(role.has_value());
  EXPECT_EQ(role->arn, "arn:aws:iam::111122223333:role/bob");
  EXPECT_EQ(store_->CreateIdentity(IdentityKind::kUser, kAccount, "bob").error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->ListIdentities(kAccount)->size(), 2u);

  auto key = store_->CreateAccessKey(bob->arn);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->status, AccessKeyStatus::kActive);
  EXPECT_EQ(store_->GetAccessKey(key->access_key_id)->secret_access_key, key->secret_access_key);
  ASSERT_TRUE(store_->SetAccessKeyStatus(key->access_key_id, AccessKeyStatus::kInactive).ok());
  EXPECT_EQ(store_->GetAccessKey(key->access_key_id)->status, AccessKeyStatus::kInactive);
  EXPECT_EQ(store_->CreateAccessKey("arn:aws:iam::111122223333:user/nobody").error().code(),
            StatusCode::kNotFound);

  ASSERT_TRUE(store_->PutIdentityPolicy(bob->arn, {"read", "{\"v\":1}"}).ok());
  ASSERT_TRUE(store_->PutIdentityPolicy(bob->arn, {"read", "{\"v\":2}"}).ok());
  ASSERT_TRUE(store_->PutIdentityPolicy(bob->arn, {"admin", "{}"}).ok());
  auto policies = store_->ListIdentityPolicies(bob->arn);
  ASSERT_EQ(policies->size(), 2u);
  EXPECT_EQ((*policies)[0].name, "admin");
  EXPECT_EQ((*policies)[1].document, "{\"v\":2}");
  ASSERT_TRUE(store_->DeleteIdentityPolicy(bob->arn, "admin").ok());
  EXPECT_EQ(store_->DeleteIdentityPolicy(bob->arn, "admin").code(), StatusCode::kNotFound);

  // Deleting the user takes its keys and policies along.
  ASSERT_TRUE(store_->DeleteIdentity(bob->arn).ok());
  EXPECT_EQ(store_->GetAccessKey(key->access_key_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->ListIdentityPolicies(bob->arn).error().code(), StatusCode::kNotFound);
}

TEST_F(SqliteStoreTest, ReopenKeepsDataAndSchemaVersion) {
  Table table = MakeTable();
  store_.reset();
  store_ = Open();
  ASSERT_NE(store_, nullptr);
  EXPECT_EQ(store_->GetTableById(table.table_id)->version_token, table.version_token);
  EXPECT_GE(SqliteSchemaVersion(), 1);
}

}  // namespace
}  // namespace st::catalog
