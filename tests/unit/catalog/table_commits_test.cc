// The Iceberg commit engine over a real SQLite store and a local object store.
#include "catalog/table_commits.h"

#include <gtest/gtest.h>

#include <thread>

#include "catalog/id_generation.h"
#include "iceberg/table_paths.h"
#include "storage/local_object_store.h"
#include "store_fixture.h"

namespace st::catalog {
namespace {

namespace ice = st::iceberg;

constexpr const char* kChannelArn = "arn:aws:kafka:us-east-1:111122223333:channel/clicks";

ice::Schema TestSchema() {
  auto schema = ice::Schema::Make(
      0, {{1, "id", true, ice::Type::Long(), ""}, {2, "name", false, ice::Type::String(), ""}});
  EXPECT_TRUE(schema.has_value());
  return *schema;
}

InitialMetadata TestMetadata() {
  return InitialMetadata{TestSchema(),
                         ice::PartitionSpec::Unpartitioned(),
                         ice::SortOrder::Unsorted(),
                         {{"owner", "tests"}}};
}

std::vector<ice::TableUpdate> SetProperty(const std::string& key, const std::string& value) {
  return {ice::SetProperties{{{key, value}}}};
}

class TableCommitsTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    auto objects = storage::OpenLocalObjectStore(dir_ + "/objects");
    ASSERT_TRUE(objects.has_value());
    objects_ = *std::move(objects);
    engine_ = std::make_unique<TableCommits>(*store_, *objects_, clock_, random_,
                                             TableCommitsOptions{"tables/", 4});
    bucket_ = MakeBucket("bucket1");
    ASSERT_TRUE(store_->CreateNamespace(bucket_.arn, "ns", kAccount).has_value());
  }

  NewTable Spec(const std::string& name, std::optional<std::string> channel = std::nullopt) {
    return NewTable{bucket_.arn, "ns", name, kAccount, std::move(channel), std::nullopt};
  }

  // Metadata files of `table` in the object store.
  size_t MetadataFileCount(const Table& table) {
    auto listed =
        objects_->List("tables/" + WarehouseBucketName(table.warehouse_location) + "/metadata/");
    EXPECT_TRUE(listed.has_value());
    return listed.has_value() ? listed->size() : 0;
  }

  std::unique_ptr<storage::ObjectStore> objects_;
  std::unique_ptr<TableCommits> engine_;
  TableBucket bucket_;
};

TEST_F(TableCommitsTest, CreateWithMetadataWritesVersionZero) {
  auto created = engine_->CreateTable(Spec("t"), TestMetadata());
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  const Table& table = created->table;
  ASSERT_TRUE(table.metadata_location.has_value());
  EXPECT_EQ(table.metadata_location->rfind(table.warehouse_location + "/metadata/00000-", 0), 0u)
      << *table.metadata_location;
  EXPECT_EQ(ice::MetadataFileVersion(*table.metadata_location), 0);
  ASSERT_TRUE(created->metadata.has_value());
  EXPECT_EQ(created->metadata->metadata.location, table.warehouse_location);
  EXPECT_EQ(created->metadata->metadata.properties.at("owner"), "tests");

  // The file is where the S3 endpoint will look: <key_root><warehouse bucket>/metadata/...
  std::string key = "tables/" + WarehouseBucketName(table.warehouse_location) +
                    table.metadata_location->substr(table.warehouse_location.size());
  EXPECT_TRUE(objects_->Head(key).has_value()) << key;

  auto loaded = engine_->LoadTable(table.table_id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata->metadata, created->metadata->metadata);
  EXPECT_EQ(loaded->table.version_token, table.version_token);
}

TEST_F(TableCommitsTest, CreateWithoutMetadataThenCommitAsCreate) {
  auto created = engine_->CreateTable(Spec("t"), std::nullopt);
  ASSERT_TRUE(created.has_value());
  EXPECT_FALSE(created->metadata.has_value());
  EXPECT_FALSE(engine_->LoadTable(created->table.table_id)->metadata.has_value());

  std::vector<ice::TableUpdate> updates = {
      ice::AssignUuid{"9a0f7c39-6b6d-4d7a-9d5e-0123456789ab"},
      ice::UpgradeFormatVersion{2},
      ice::AddSchema{TestSchema(), std::nullopt},
      ice::SetCurrentSchema{ice::kLastAdded},
      ice::AddPartitionSpec{ice::PartitionSpec::Unpartitioned()},
      ice::SetDefaultSpec{ice::kLastAdded},
      ice::AddSortOrder{ice::SortOrder::Unsorted()},
      ice::SetDefaultSortOrder{ice::kLastAdded},
      ice::SetLocation{created->table.warehouse_location},
  };
  // Any requirement but assert-create fails on a table without metadata.
  auto wrong = engine_->CommitTable(created->table.table_id,
                                    {ice::AssertTableUuid{"9a0f7c39-6b6d-4d7a-9d5e-0123456789ab"}},
                                    updates, {kAccount});
  EXPECT_EQ(wrong.error().code(), StatusCode::kConflict);
  auto committed =
      engine_->CommitTable(created->table.table_id, {ice::AssertCreate{}}, updates, {kAccount});
  ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  EXPECT_EQ(committed->metadata->metadata.table_uuid, "9a0f7c39-6b6d-4d7a-9d5e-0123456789ab");
  EXPECT_NE(committed->table.version_token, created->table.version_token);
  // Now it exists, assert-create fails.
  EXPECT_EQ(engine_->CommitTable(created->table.table_id, {ice::AssertCreate{}}, {}, {kAccount})
                .error()
                .code(),
            StatusCode::kConflict);
}

TEST_F(TableCommitsTest, CommitWritesNextVersionAndSwaps) {
  auto created = engine_->CreateTable(Spec("t"), TestMetadata());
  ASSERT_TRUE(created.has_value());
  const std::string uuid = created->metadata->metadata.table_uuid;
  clock_.Advance(std::chrono::seconds(10));
  auto committed = engine_->CommitTable(created->table.table_id, {ice::AssertTableUuid{uuid}},
                                        SetProperty("k", "v"), {"444455556666"});
  ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  EXPECT_EQ(ice::MetadataFileVersion(*committed->table.metadata_location), 1);
  EXPECT_EQ(committed->metadata->metadata.properties.at("k"), "v");
  EXPECT_EQ(committed->metadata->metadata.last_updated_ms, clock_.NowMillis());
  ASSERT_EQ(committed->metadata->metadata.metadata_log.size(), 1u);
  EXPECT_EQ(committed->metadata->metadata.metadata_log[0].metadata_file,
            *created->table.metadata_location);
  EXPECT_EQ(committed->table.modified_by, "444455556666");

  // A failed requirement: Conflict, pointer unchanged, no file written.
  auto failed = engine_->CommitTable(created->table.table_id,
                                     {ice::AssertTableUuid{"00000000-0000-4000-8000-000000000000"}},
                                     SetProperty("k", "w"), {kAccount});
  EXPECT_EQ(failed.error().code(), StatusCode::kConflict);
  EXPECT_EQ(store_->GetTableById(created->table.table_id)->metadata_location,
            committed->table.metadata_location);
  EXPECT_EQ(MetadataFileCount(created->table), 2u);

  // The table location is fixed.
  auto moved = engine_->CommitTable(created->table.table_id, {},
                                    {ice::SetLocation{"s3://elsewhere--table-s3"}}, {kAccount});
  EXPECT_EQ(moved.error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(engine_->CommitTable("no-such-id", {}, {}, {kAccount}).error().code(),
            StatusCode::kNotFound);
}

TEST_F(TableCommitsTest, UpdateTableMetadataLocationSharesTheSwap) {
  auto created = engine_->CreateTable(Spec("t"), TestMetadata());
  ASSERT_TRUE(created.has_value());
  const Table& table = created->table;
  // A client (the awslabs catalog) writes its own next metadata file...
  ice::FileIO io = TableFileIO(*objects_, table, "tables/");
  ice::TableMetadata next = created->metadata->metadata;
  next.properties["written-by"] = "client";
  auto written = ice::WriteNextMetadata(io, *created->metadata, next, random_);
  ASSERT_TRUE(written.has_value()) << written.error().ToString();
  const std::string location = written->version.location;

  TableWriter writer{kAccount, std::nullopt};
  EXPECT_EQ(
      engine_
          ->UpdateTableMetadataLocation(table.table_id, table.version_token,
                                        "s3://other--table-s3/metadata/x.metadata.json", writer)
          .error()
          .code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(engine_
                ->UpdateTableMetadataLocation(table.table_id, table.version_token,
                                              table.warehouse_location + "/metadata/x.json", writer)
                .error()
                .code(),
            StatusCode::kInvalidArgument);

  // ...while a REST commit lands first: the control-plane update with the old token loses.
  auto rest = engine_->CommitTable(table.table_id, {}, SetProperty("via", "rest"), {kAccount});
  ASSERT_TRUE(rest.has_value());
  auto lost =
      engine_->UpdateTableMetadataLocation(table.table_id, table.version_token, location, writer);
  EXPECT_EQ(lost.error().code(), StatusCode::kConflict);
  EXPECT_EQ(store_->GetTableById(table.table_id)->metadata_location, rest->table.metadata_location);

  // With the current token it wins, and the next REST commit builds on the client's file.
  auto updated = engine_->UpdateTableMetadataLocation(table.table_id, rest->table.version_token,
                                                      location, writer);
  ASSERT_TRUE(updated.has_value()) << updated.error().ToString();
  EXPECT_EQ(updated->metadata_location, location);
  auto loaded = engine_->LoadTable(table.table_id);
  EXPECT_EQ(loaded->metadata->metadata.properties.at("written-by"), "client");
  auto after = engine_->CommitTable(table.table_id, {}, SetProperty("again", "1"), {kAccount});
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->metadata->metadata.properties.at("written-by"), "client");
  EXPECT_EQ(ice::MetadataFileVersion(*after->table.metadata_location), 2);
}

TEST_F(TableCommitsTest, StreamingTableOnlyAcceptsItsChannel) {
  auto created = engine_->CreateTable(Spec("clicks", std::string(kChannelArn)), TestMetadata());
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  const Table& table = created->table;

  auto refused = engine_->CommitTable(table.table_id, {}, SetProperty("k", "v"), {kAccount});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kAccessDenied);
  EXPECT_NE(refused.error().message().find(kChannelArn), std::string::npos);
  auto update = engine_->UpdateTableMetadataLocation(
      table.table_id, table.version_token, *table.metadata_location, {kAccount, std::nullopt});
  EXPECT_EQ(update.error().code(), StatusCode::kAccessDenied);
  auto rename =
      store_->RenameTable(table.table_id, std::nullopt, "ns", "other", {kAccount, std::nullopt});
  EXPECT_EQ(rename.error().code(), StatusCode::kAccessDenied);
  EXPECT_EQ(MetadataFileCount(table), 1u);

  // The channel commits with offsets; a zombie with a stale range is fenced and not retried.
  ASSERT_TRUE(store_->InitChannelOffsets(kChannelArn, {{0, 10}}, 0).ok());
  CommitOptions channel{kAccount, std::string(kChannelArn), {{0, {10, 20}}}};
  auto delivered = engine_->CommitTable(table.table_id, {}, SetProperty("batch", "1"), channel);
  ASSERT_TRUE(delivered.has_value()) << delivered.error().ToString();
  EXPECT_EQ(*store_->GetChannelOffset(kChannelArn, 0), 20);
  auto zombie = engine_->CommitTable(table.table_id, {}, SetProperty("batch", "zombie"), channel);
  ASSERT_FALSE(zombie.has_value());
  EXPECT_EQ(zombie.error().code(), StatusCode::kConflict);
  EXPECT_EQ(*store_->GetChannelOffset(kChannelArn, 0), 20);
  EXPECT_EQ(store_->GetTableById(table.table_id)->metadata_location,
            delivered->table.metadata_location);
  EXPECT_EQ(MetadataFileCount(table), 2u);  // The zombie's file was removed again.
}

// Two writers with their own connections commit 100 property updates each,
// retrying on Conflict: every update survives (no lost update) and each
// commit produced exactly one metadata version.
TEST_F(TableCommitsTest, ConcurrentCommitsLoseNoUpdate) {
  auto created = engine_->CreateTable(Spec("t"), TestMetadata());
  ASSERT_TRUE(created.has_value());
  const std::string table_id = created->table.table_id;
  std::unique_ptr<MetadataStore> second_store = Open();
  ASSERT_NE(second_store, nullptr);
  // No engine-level retries: the test sees every lost swap and retries itself.
  TableCommits first(*store_, *objects_, clock_, random_, {"tables/", 0});
  TableCommits second(*second_store, *objects_, clock_, random_, {"tables/", 0});
  TableCommits* engines[2] = {&first, &second};
  constexpr int kPerThread = 100;
  std::atomic<int> conflicts{0};
  std::thread threads[2];
  for (int t = 0; t < 2; ++t) {
    threads[t] = std::thread([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        while (true) {
          auto result = engines[t]->CommitTable(
              table_id, {}, SetProperty("w" + std::to_string(t) + "-" + std::to_string(i), "x"),
              {kAccount});
          if (result.has_value()) break;
          if (result.error().code() != StatusCode::kConflict) {
            ADD_FAILURE() << result.error().ToString();
            return;
          }
          ++conflicts;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  auto loaded = engine_->LoadTable(table_id);
  ASSERT_TRUE(loaded.has_value());
  for (int t = 0; t < 2; ++t) {
    for (int i = 0; i < kPerThread; ++i) {
      EXPECT_EQ(loaded->metadata->metadata.properties.count("w" + std::to_string(t) + "-" +
                                                            std::to_string(i)),
                1u);
    }
  }
  EXPECT_EQ(ice::MetadataFileVersion(*loaded->table.metadata_location), 2 * kPerThread);
  // Losers' files were deleted: one file per winning commit plus version 0.
  EXPECT_EQ(MetadataFileCount(loaded->table), static_cast<size_t>(2 * kPerThread + 1));
  RecordProperty("conflicts", conflicts.load());
}

// A row without metadata (a staged create, or CreateTable without metadata)
// gets its version 0 in place; a row that has metadata, or gets it first
// through a racing commit, stays as it is.
TEST_F(TableCommitsTest, InitializeTableGivesARowWithoutMetadataItsFirstVersion) {
  auto row = engine_->CreateTable(Spec("t"), std::nullopt);
  ASSERT_TRUE(row.has_value()) << row.error().ToString();
  ASSERT_FALSE(row->table.metadata_location.has_value());

  auto initialized = engine_->InitializeTable(row->table, TestMetadata(), {kAccount, {}});
  ASSERT_TRUE(initialized.has_value()) << initialized.error().ToString();
  EXPECT_EQ(initialized->table.table_id, row->table.table_id);
  ASSERT_TRUE(initialized->table.metadata_location.has_value());
  EXPECT_EQ(ice::MetadataFileVersion(*initialized->table.metadata_location), 0);
  EXPECT_EQ(initialized->metadata->metadata.location, row->table.warehouse_location);
  EXPECT_EQ(MetadataFileCount(initialized->table), 1u);

  // Again with the stale row (its old version token): AlreadyExists, and the
  // file it wrote before losing the swap is gone.
  auto again = engine_->InitializeTable(row->table, TestMetadata(), {kAccount, {}});
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(again.error().message().find("Table already exists: ns.t"), std::string::npos);
  EXPECT_EQ(MetadataFileCount(initialized->table), 1u);
  // With the current row: AlreadyExists without writing anything.
  auto current = store_->GetTableById(row->table.table_id);
  ASSERT_TRUE(current.has_value());
  EXPECT_EQ(engine_->InitializeTable(*current, TestMetadata(), {kAccount, {}}).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->GetTableById(row->table.table_id)->metadata_location,
            initialized->table.metadata_location);

  // A streaming table's row refuses anyone but its channel.
  auto streaming = engine_->CreateTable(Spec("s", kChannelArn), std::nullopt);
  ASSERT_TRUE(streaming.has_value()) << streaming.error().ToString();
  auto refused = engine_->InitializeTable(streaming->table, TestMetadata(), {kAccount, {}});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kAccessDenied);
  EXPECT_FALSE(store_->GetTableById(streaming->table.table_id)->metadata_location.has_value());
}

}  // namespace
}  // namespace st::catalog
