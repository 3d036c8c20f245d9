// TableStore and TagStore conformance (table_store.h, tag_store.h).
#pragma once

#include "catalog/table_store.h"
#include "catalog/tag_store.h"
#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

inline constexpr const char* kVersionMismatch =
    "Provided version token does not match the table version token.";

class TableStoreConformance : public StoreConformance {
 protected:
  TableStore& tables() { return *store_; }
  static std::string Location(const Table& table, int version) {
    return table.warehouse_location + "/metadata/0000" + std::to_string(version) + ".metadata.json";
  }
};

TEST_P(TableStoreConformance, CreateAndLookups) {
  TableStore& store = tables();
  TableBucket bucket = MakeBucket("bucket1");
  EXPECT_EQ(store.CreateTable({bucket.arn, "ns", "t", kAccount, {}, {}}).error().code(),
            StatusCode::kNotFound);
  ASSERT_TRUE(store_->CreateNamespace(bucket.arn, "ns", kAccount).has_value());
  ASSERT_TRUE(store_->CreateNamespace(bucket.arn, "other", kAccount).has_value());
  auto table = store.CreateTable({bucket.arn, "ns", "t", kAccount, {}, {}});
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  EXPECT_EQ(table->arn, bucket.arn + "/table/" + table->table_id);
  EXPECT_FALSE(table->metadata_location.has_value());
  EXPECT_FALSE(table->version_token.empty());
  EXPECT_EQ(table->warehouse_location.rfind("s3://", 0), 0u);
  EXPECT_EQ(table->created_by, kAccount);
  EXPECT_EQ(table->encryption, bucket.encryption);
  EXPECT_EQ(store.CreateTable({bucket.arn, "ns", "t", kAccount, {}, {}}).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateTable({bucket.arn, "ns", "Bad Name", kAccount, {}, {}}).error().code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.CreateTable({bucket.arn, "other", "a", kAccount, {}, {}}).has_value());
  ASSERT_TRUE(store.CreateTable({bucket.arn, "ns", "b", kAccount, {}, {}}).has_value());

  EXPECT_EQ(store.GetTable(bucket.arn, "ns", "t")->table_id, table->table_id);
  EXPECT_EQ(store.GetTableById(table->table_id)->arn, table->arn);
  EXPECT_EQ(store.GetTableByArn(table->arn)->table_id, table->table_id);
  EXPECT_EQ(store.GetTableByWarehouseLocation(table->warehouse_location)->table_id,
            table->table_id);
  EXPECT_EQ(store.GetTable(bucket.arn, "ns", "nope").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.GetTableById("nope").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.GetTableByArn("not-an-arn").error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.GetTableByWarehouseLocation("s3://nope--table-s3").error().code(),
            StatusCode::kNotFound);

  auto all = store.ListTables(bucket.arn, std::nullopt, {});
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->items.size(), 3u);  // (namespace, name) order.
  EXPECT_EQ(all->items[0].name, "b");
  EXPECT_EQ(all->items[1].name, "t");
  EXPECT_EQ(all->items[2].name, "a");
  auto in_ns = store.ListTables(bucket.arn, std::string("ns"), {"t", "", 10});
  ASSERT_TRUE(in_ns.has_value());
  ASSERT_EQ(in_ns->items.size(), 1u);
  EXPECT_EQ(in_ns->items[0].name, "t");
  EXPECT_EQ(store.ListTables(BucketArn("missing"), std::nullopt, {}).error().code(),
            StatusCode::kNotFound);
}

TEST_P(TableStoreConformance, SwapIsCompareAndSwap) {
  TableStore& store = tables();
  Table table = MakeTable();
  TableWriter writer{kAccount, std::nullopt};
  auto swapped =
      store.SwapMetadataLocation(table.table_id, table.version_token, Location(table, 0), writer);
  ASSERT_TRUE(swapped.has_value()) << swapped.error().ToString();
  EXPECT_EQ(swapped->metadata_location, Location(table, 0));
  EXPECT_NE(swapped->version_token, table.version_token);

  auto stale =
      store.SwapMetadataLocation(table.table_id, table.version_token, Location(table, 1), writer);
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code(), StatusCode::kConflict);
  EXPECT_EQ(stale.error().message(), kVersionMismatch);
  auto now = store.GetTableById(table.table_id);
  EXPECT_EQ(now->metadata_location, Location(table, 0));
  EXPECT_EQ(now->version_token, swapped->version_token);

  EXPECT_EQ(store.SwapMetadataLocation("nope", "x", Location(table, 1), writer).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(
      store.SwapMetadataLocation(table.table_id, swapped->version_token, "", writer).error().code(),
      StatusCode::kInvalidArgument);
}

TEST_P(TableStoreConformance, StreamingTableAcceptsOnlyItsChannel) {
  TableStore& store = tables();
  const std::string channel = "arn:aws:kafka:us-east-1:111122223333:channel/c/u/ch/id";
  Table table = MakeTable("bucket1", "stream", channel);
  EXPECT_EQ(table.managed_by_channel, channel);
  auto refused = store.SwapMetadataLocation(table.table_id, table.version_token, Location(table, 0),
                                            {kAccount, std::nullopt});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kAccessDenied);
  EXPECT_EQ(store
                .RenameTable(table.table_id, std::nullopt, "ns", "renamed",
                             {kAccount, std::string("arn:other")})
                .error()
                .code(),
            StatusCode::kAccessDenied);
  EXPECT_TRUE(store
                  .SwapMetadataLocation(table.table_id, table.version_token, Location(table, 0),
                                        {kAccount, channel})
                  .has_value());
  // Anyone allowed to may delete it.
  EXPECT_TRUE(store.DeleteTable(table.table_id, std::nullopt).ok());
}

TEST_P(TableStoreConformance, RenameAndDelete) {
  TableStore& store = tables();
  Table table = MakeTable("bucket1", "t");
  MakeTable("bucket1", "taken");
  TableWriter writer{kAccount, std::nullopt};
  EXPECT_EQ(store.RenameTable(table.table_id, std::nullopt, "ns", "taken", writer).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.RenameTable(table.table_id, std::nullopt, "nope", "x", writer).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(
      store.RenameTable(table.table_id, std::string("stale"), "ns", "x", writer).error().code(),
      StatusCode::kConflict);
  auto renamed = store.RenameTable(table.table_id, table.version_token, "ns", "moved", writer);
  ASSERT_TRUE(renamed.has_value()) << renamed.error().ToString();
  EXPECT_EQ(renamed->name, "moved");
  EXPECT_NE(renamed->version_token, table.version_token);
  EXPECT_EQ(store.GetTable(renamed->bucket_arn, "ns", "t").error().code(), StatusCode::kNotFound);

  EXPECT_EQ(store.DeleteTable(table.table_id, table.version_token).code(), StatusCode::kConflict);
  ASSERT_TRUE(store.DeleteTable(table.table_id, renamed->version_token).ok());
  EXPECT_EQ(store.GetTableById(table.table_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.DeleteTable(table.table_id, std::nullopt).code(), StatusCode::kNotFound);
}

TEST_P(TableStoreConformance, PolicyMaintenanceRecordExpiration) {
  TableStore& store = tables();
  Table table = MakeTable();
  EXPECT_EQ(store.GetTablePolicy(table.table_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.PutTablePolicy("nope", "{}").code(), StatusCode::kNotFound);
  EXPECT_EQ(store.PutTablePolicy(table.table_id, "").code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.PutTablePolicy(table.table_id, R"({"v":1})").ok());
  EXPECT_EQ(store.GetTablePolicy(table.table_id).value(), R"({"v":1})");
  ASSERT_TRUE(store.DeleteTablePolicy(table.table_id).ok());
  EXPECT_EQ(store.GetTablePolicy(table.table_id).error().code(), StatusCode::kNotFound);

  EXPECT_TRUE(store.GetTableMaintenance(table.table_id)->empty());
  ASSERT_TRUE(store.PutTableMaintenance(table.table_id, "icebergCompaction", R"({"a":1})").ok());
  ASSERT_TRUE(store.PutTableMaintenance(table.table_id, "icebergCompaction", R"({"a":2})").ok());
  EXPECT_EQ(store.GetTableMaintenance(table.table_id)->at("icebergCompaction"), R"({"a":2})");
  EXPECT_EQ(store.PutTableMaintenance("nope", "icebergCompaction", "{}").code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store.GetTableMaintenance("nope").error().code(), StatusCode::kNotFound);

  EXPECT_EQ(store.GetTableRecordExpiration(table.table_id).value(), std::nullopt);
  ASSERT_TRUE(store.PutTableRecordExpiration(table.table_id, R"({"days":3})").ok());
  EXPECT_EQ(store.GetTableRecordExpiration(table.table_id).value(),
            std::optional<std::string>(R"({"days":3})"));
  EXPECT_EQ(store.PutTableRecordExpiration(table.table_id, "").code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store.GetTableRecordExpiration("nope").error().code(), StatusCode::kNotFound);

  // Deleting the table takes its configuration along.
  ASSERT_TRUE(store.DeleteTable(table.table_id, std::nullopt).ok());
  EXPECT_EQ(store.GetTableMaintenance(table.table_id).error().code(), StatusCode::kNotFound);
}

class TagStoreConformance : public StoreConformance {
 protected:
  TagStore& tags() { return *store_; }
};

TEST_P(TagStoreConformance, TagUntagList) {
  TagStore& store = tags();
  Table table = MakeTable();
  const std::string bucket_arn = BucketArn("bucket1");
  EXPECT_EQ(store.TagResource(BucketArn("missing"), {{"k", "v"}}).code(), StatusCode::kNotFound);
  EXPECT_EQ(store.ListTags(BucketArn("missing")).error().code(), StatusCode::kNotFound);
  EXPECT_TRUE(store.ListTags(bucket_arn)->empty());
  ASSERT_TRUE(store.TagResource(bucket_arn, {{"team", "a"}, {"env", "dev"}}).ok());
  ASSERT_TRUE(store.TagResource(bucket_arn, {{"env", "prod"}}).ok());  // Merges.
  ASSERT_TRUE(store.TagResource(table.arn, {{"only", "table"}}).ok());
  EXPECT_EQ(store.ListTags(bucket_arn).value(), (Tags{{"env", "prod"}, {"team", "a"}}));
  EXPECT_EQ(store.ListTags(table.arn).value(), (Tags{{"only", "table"}}));
  ASSERT_TRUE(store.UntagResource(bucket_arn, {"team", "absent"}).ok());
  EXPECT_EQ(store.ListTags(bucket_arn).value(), (Tags{{"env", "prod"}}));
  EXPECT_EQ(store.UntagResource(BucketArn("missing"), {"k"}).code(), StatusCode::kNotFound);

  Tags too_many;
  for (int i = 0; i <= 50; ++i) too_many["k" + std::to_string(i)] = "v";
  EXPECT_EQ(store.TagResource(table.arn, too_many).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.ListTags(table.arn).value(), (Tags{{"only", "table"}}));  // Nothing changed.

  KafkaCluster cluster = MakeCluster();
  ASSERT_TRUE(store.TagResource(cluster.arn, {{"c", "1"}}).ok());
  EXPECT_EQ(store.ListTags(cluster.arn).value(), (Tags{{"c", "1"}}));
  ASSERT_TRUE(store_->DeleteTable(table.table_id, std::nullopt).ok());
  EXPECT_EQ(store.ListTags(table.arn).error().code(), StatusCode::kNotFound);
}

}  // namespace st::catalog::conformance
