// TableBucketStore and NamespaceStore conformance (table_bucket_store.h,
// namespace_store.h).
#pragma once

#include "catalog/namespace_store.h"
#include "catalog/table_bucket_store.h"
#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

class TableBucketStoreConformance : public StoreConformance {
 protected:
  TableBucketStore& buckets() { return *store_; }
};

TEST_P(TableBucketStoreConformance, CreateGetListDelete) {
  TableBucketStore& store = buckets();
  auto bucket = store.CreateTableBucket({kAccount, kRegion, "analytics", {}});
  ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
  EXPECT_EQ(bucket->arn, BucketArn("analytics"));
  EXPECT_EQ(bucket->encryption.sse_algorithm, "AES256");
  EXPECT_FALSE(bucket->table_bucket_id.empty());
  EXPECT_EQ(store.CreateTableBucket({kAccount, kRegion, "analytics", {}}).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateTableBucket({kAccount, kRegion, "Bad_Name", {}}).error().code(),
            StatusCode::kInvalidArgument);
  for (const char* name : {"c-bucket", "b-bucket", "a-bucket"}) {
    ASSERT_TRUE(store.CreateTableBucket({kAccount, kRegion, name, {}}).has_value());
  }
  ASSERT_TRUE(store.CreateTableBucket({kOtherAccount, kRegion, "elsewhere", {}}).has_value());

  auto got = store.GetTableBucket(bucket->arn);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->table_bucket_id, bucket->table_bucket_id);
  EXPECT_EQ(store.GetTableBucket(BucketArn("missing")).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.GetTableBucket("not-an-arn").error().code(), StatusCode::kInvalidArgument);

  auto page = store.ListTableBuckets(kAccount, {"", "", 2});
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->items[0].name, "a-bucket");
  EXPECT_EQ(page->items[1].name, "analytics");
  auto rest = store.ListTableBuckets(kAccount, {"", page->continuation_token, 2});
  ASSERT_TRUE(rest.has_value());
  ASSERT_EQ(rest->items.size(), 2u);
  EXPECT_EQ(rest->items[1].name, "c-bucket");
  EXPECT_TRUE(rest->continuation_token.empty());
  auto prefixed = store.ListTableBuckets(kAccount, {"b-", "", 10});
  ASSERT_TRUE(prefixed.has_value());
  ASSERT_EQ(prefixed->items.size(), 1u);

  ASSERT_TRUE(store.DeleteTableBucket(bucket->arn).ok());
  EXPECT_EQ(store.GetTableBucket(bucket->arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.DeleteTableBucket(bucket->arn).code(), StatusCode::kNotFound);
}

TEST_P(TableBucketStoreConformance, DeleteRefusedWhileNamespacesRemain) {
  TableBucket bucket = MakeBucket("full");
  ASSERT_TRUE(store_->CreateNamespace(bucket.arn, "ns", kAccount).has_value());
  EXPECT_EQ(buckets().DeleteTableBucket(bucket.arn).code(), StatusCode::kConflict);
  EXPECT_TRUE(buckets().GetTableBucket(bucket.arn).has_value());
}

TEST_P(TableBucketStoreConformance, PolicyEncryptionMaintenance) {
  TableBucketStore& store = buckets();
  TableBucket bucket = MakeBucket("configured");
  EXPECT_EQ(store.GetTableBucketPolicy(bucket.arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.PutTableBucketPolicy(BucketArn("missing"), "{}").code(), StatusCode::kNotFound);
  EXPECT_EQ(store.PutTableBucketPolicy(bucket.arn, "").code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.PutTableBucketPolicy(bucket.arn, R"({"v":1})").ok());
  ASSERT_TRUE(store.PutTableBucketPolicy(bucket.arn, R"({"v":2})").ok());
  EXPECT_EQ(store.GetTableBucketPolicy(bucket.arn).value(), R"({"v":2})");
  ASSERT_TRUE(store.DeleteTableBucketPolicy(bucket.arn).ok());
  ASSERT_TRUE(store.DeleteTableBucketPolicy(bucket.arn).ok());  // Idempotent.
  EXPECT_EQ(store.GetTableBucketPolicy(bucket.arn).error().code(), StatusCode::kNotFound);

  const std::string key =
      "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
  ASSERT_TRUE(store.PutTableBucketEncryption(bucket.arn, {"aws:kms", key}).ok());
  EXPECT_EQ(store.GetTableBucket(bucket.arn)->encryption, (EncryptionConfig{"aws:kms", key}));
  EXPECT_EQ(store.PutTableBucketEncryption(bucket.arn, {"rot13", ""}).code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.DeleteTableBucketEncryption(bucket.arn).ok());
  EXPECT_EQ(store.GetTableBucket(bucket.arn)->encryption, EncryptionConfig{});

  EXPECT_TRUE(store.GetTableBucketMaintenance(bucket.arn)->empty());
  const std::string value = R"({"status":"disabled"})";
  ASSERT_TRUE(
      store.PutTableBucketMaintenance(bucket.arn, "icebergUnreferencedFileRemoval", value).ok());
  auto configs = store.GetTableBucketMaintenance(bucket.arn);
  ASSERT_TRUE(configs.has_value());
  EXPECT_EQ(configs->at("icebergUnreferencedFileRemoval"), value);
  EXPECT_EQ(store.GetTableBucketMaintenance(BucketArn("missing")).error().code(),
            StatusCode::kNotFound);
}

class NamespaceStoreConformance : public StoreConformance {
 protected:
  NamespaceStore& namespaces() { return *store_; }
};

TEST_P(NamespaceStoreConformance, Lifecycle) {
  NamespaceStore& store = namespaces();
  EXPECT_EQ(store.CreateNamespace(BucketArn("missing"), "ns", kAccount).error().code(),
            StatusCode::kNotFound);
  TableBucket bucket = MakeBucket("bucket1");
  auto ns = store.CreateNamespace(bucket.arn, "sales", kAccount);
  ASSERT_TRUE(ns.has_value()) << ns.error().ToString();
  EXPECT_EQ(ns->bucket_arn, bucket.arn);
  EXPECT_EQ(ns->table_bucket_id, bucket.table_bucket_id);
  EXPECT_EQ(ns->created_by, kAccount);
  EXPECT_EQ(store.CreateNamespace(bucket.arn, "sales", kAccount).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateNamespace(bucket.arn, "Bad-Name", kAccount).error().code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.CreateNamespace(bucket.arn, "ads", kAccount).has_value());
  EXPECT_EQ(store.GetNamespace(bucket.arn, "sales")->namespace_id, ns->namespace_id);
  EXPECT_EQ(store.GetNamespace(bucket.arn, "nope").error().code(), StatusCode::kNotFound);
  auto page = store.ListNamespaces(bucket.arn, {"", "", 1});
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->items[0].name, "ads");
  auto rest = store.ListNamespaces(bucket.arn, {"", page->continuation_token, 1});
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(rest->items.at(0).name, "sales");
  EXPECT_EQ(store.ListNamespaces(BucketArn("missing"), {}).error().code(), StatusCode::kNotFound);

  ASSERT_TRUE(store_->CreateTable({bucket.arn, "sales", "t", kAccount, {}, {}}).has_value());
  EXPECT_EQ(store.DeleteNamespace(bucket.arn, "sales").code(), StatusCode::kConflict);
  ASSERT_TRUE(store.DeleteNamespace(bucket.arn, "ads").ok());
  EXPECT_EQ(store.DeleteNamespace(bucket.arn, "ads").code(), StatusCode::kNotFound);
}

}  // namespace st::catalog::conformance
