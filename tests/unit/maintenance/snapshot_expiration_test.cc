// Snapshot expiration over a real catalog, commit engine and object store.
#include "maintenance/snapshot_expiration.h"

#include <gtest/gtest.h>

#include "iceberg/table_paths.h"
#include "maintenance_fixture.h"

namespace st::maintenance {
namespace {

class SnapshotExpirationTest : public MaintenanceTest {
 protected:
  Result<SnapshotExpirationOutcome> Expire(const catalog::Table& table,
                                           SnapshotExpirationRules rules) {
    return ExpireTableSnapshots({*commits_, *objects_, kKeyRoot, clock_}, table, rules);
  }
};

TEST_F(SnapshotExpirationTest, ExpiresOnlyOldSnapshotsBeyondMinToKeep) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < 6; ++i) Append(table);  // Ages 5, 4, ..., 0 hours.
  ASSERT_EQ(Current(table).snapshots.size(), 6u);

  // Max age 3 h: the two strictly older (5 h and 4 h) go.
  auto outcome = Expire(table, {1, std::chrono::hours(3)});
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->expired_snapshots, 2);
  EXPECT_EQ(Current(table).snapshots.size(), 4u);

  // Min to keep wins over age: everything is old, the 2 newest stay.
  clock_.Advance(std::chrono::hours(1000));
  outcome = Expire(table, {2, std::chrono::hours(3)});
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->expired_snapshots, 2);
  EXPECT_EQ(outcome->live_snapshots, 2);
  // Nothing left to expire: no commit, nothing deleted.
  std::string before = *commits_->LoadTable(table.table_id)->table.metadata_location;
  outcome = Expire(table, {2, std::chrono::hours(3)});
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->expired_snapshots, 0);
  EXPECT_EQ(*commits_->LoadTable(table.table_id)->table.metadata_location, before);
}

TEST_F(SnapshotExpirationTest, DeletesUnreachableFilesAndKeepsEveryCurrentFile) {
  catalog::Table table = MakeTable("t");
  std::vector<std::string> files;
  for (int i = 0; i < 5; ++i) files.push_back(Append(table));
  std::vector<std::string> old_lists;
  for (const auto& s : Current(table).snapshots) old_lists.push_back(s.manifest_list);
  clock_.Advance(std::chrono::hours(200));
  auto outcome = Expire(table, {1, std::chrono::hours(120)});
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->expired_snapshots, 4);
  // Appends keep every file live: the current snapshot still reaches all five.
  for (const std::string& f : files) EXPECT_TRUE(Exists(table, f)) << f;
  EXPECT_EQ(outcome->deleted_data_files, 0);
  // The expired snapshots' manifest lists are gone; the current one stays.
  iceberg::TableMetadata now = Current(table);
  ASSERT_EQ(now.snapshots.size(), 1u);
  for (const std::string& list : old_lists) {
    EXPECT_EQ(Exists(table, list), list == now.snapshots[0].manifest_list) << list;
  }
  EXPECT_GT(outcome->deleted_files, 0);
  EXPECT_GT(outcome->deleted_bytes, 0);
}

TEST_F(SnapshotExpirationTest, RefsKeepTheirSnapshots) {
  catalog::Table table = MakeTable("t");
  Append(table);
  int64_t tagged = *Current(table).current_snapshot_id;
  auto tag = commits_->CommitTable(
      table.table_id, {},
      {iceberg::SetSnapshotRef{"keep",
                               iceberg::SnapshotRef{tagged, iceberg::SnapshotRefType::kTag}}},
      {kAccount});
  ASSERT_TRUE(tag.has_value()) << tag.error().ToString();
  for (int i = 0; i < 3; ++i) Append(table);
  clock_.Advance(std::chrono::hours(500));
  auto outcome = Expire(table, {1, std::chrono::hours(1)});
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->expired_snapshots, 2);
  iceberg::TableMetadata now = Current(table);
  ASSERT_EQ(now.snapshots.size(), 2u);
  EXPECT_NE(now.SnapshotById(tagged), nullptr);
}

TEST_F(SnapshotExpirationTest, OldMetadataFilesBeyondTheLogAreDeleted) {
  catalog::Table table = MakeTable("t");
  auto shrink = commits_->CommitTable(
      table.table_id, {}, {iceberg::SetProperties{{{iceberg::kMetadataPreviousVersionsMax, "2"}}}},
      {kAccount});
  ASSERT_TRUE(shrink.has_value()) << shrink.error().ToString();
  for (int i = 0; i < 6; ++i) Append(table);
  auto metadata_files = [&] {
    auto listed =
        objects_->List(catalog::WarehouseBucketName(table.warehouse_location) + "/metadata/");
    EXPECT_TRUE(listed.has_value());
    int n = 0;
    for (const auto& o : *listed) n += o.key.ends_with(".metadata.json") ? 1 : 0;
    return n;
  };
  EXPECT_EQ(metadata_files(), 8);  // Versions 0..7.
  auto outcome = Expire(table, {100, std::chrono::hours(120)});
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->expired_snapshots, 0);
  // The current file and the 2 it logs remain.
  EXPECT_EQ(metadata_files(), 3);
  auto loaded = commits_->LoadTable(table.table_id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  for (const auto& entry : loaded->metadata->metadata.metadata_log) {
    EXPECT_TRUE(Exists(table, entry.metadata_file)) << entry.metadata_file;
  }
}

TEST_F(SnapshotExpirationTest, StreamingTableIsExpiredInItsChannelsName) {
  const std::string channel = "arn:aws:kafka:us-east-1:111122223333:channel/c/x";
  catalog::Table table = MakeTable("live", channel);
  for (int i = 0; i < 3; ++i) Append(table);
  clock_.Advance(std::chrono::hours(500));
  auto outcome = Expire(table, {1, std::chrono::hours(1)});
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->expired_snapshots, 2);
}

TEST(SnapshotExpirationRulesTest, DefaultsFillWhatWasNotSet) {
  SnapshotExpirationRules rules = RulesFrom({});
  EXPECT_EQ(rules.min_snapshots_to_keep, 1);
  EXPECT_EQ(rules.max_snapshot_age, std::chrono::hours(120));
  rules = RulesFrom({5, std::chrono::hours(2)});
  EXPECT_EQ(rules.min_snapshots_to_keep, 5);
  EXPECT_EQ(rules.max_snapshot_age, std::chrono::hours(2));
}

}  // namespace
}  // namespace st::maintenance
