// Unreferenced file removal over a real catalog, commit engine and local
// object store; object ages come from the files' real mtimes against the
// injected clock.
#include "maintenance/unreferenced_files.h"

#include <gtest/gtest.h>

#include "maintenance/snapshot_expiration.h"
#include "maintenance_fixture.h"

namespace st::maintenance {
namespace {

class UnreferencedFilesTest : public MaintenanceTest {
 protected:
  Result<UnreferencedFilesOutcome> Remove(const catalog::Table& table,
                                          UnreferencedFileRules rules = {}) {
    return RemoveUnreferencedFiles({*commits_, *objects_, kKeyRoot, clock_}, table, rules);
  }
  // Every object under the table's location.
  std::vector<std::string> Keys(const catalog::Table& table) {
    auto listed = objects_->List(catalog::WarehouseBucketName(table.warehouse_location) + "/");
    EXPECT_TRUE(listed.has_value());
    std::vector<std::string> keys;
    for (const auto& o : *listed) keys.push_back(o.key);
    return keys;
  }
  std::string Key(const catalog::Table& table, const std::string& uri) {
    return *catalog::TableFileIO(*objects_, table, kKeyRoot).KeyFor(uri);
  }
};

TEST_F(UnreferencedFilesTest, AnOrphanGoesOnlyAfterUnreferencedPlusNonCurrentDays) {
  catalog::Table table = MakeTable("t");
  std::vector<std::string> data;
  for (int i = 0; i < 3; ++i) data.push_back(Append(table));
  const std::string orphan = table.warehouse_location + "/data/orphan.parquet";
  ASSERT_TRUE(catalog::TableFileIO(*objects_, table, kKeyRoot).Write(orphan, "junk").ok());
  const auto written = std::chrono::system_clock::now();
  const size_t all = Keys(table).size();

  // 2 days old: not yet unreferenced long enough.
  clock_.Set(written + std::chrono::days(2));
  auto outcome = Remove(table, {std::chrono::days(3), std::chrono::days(10)});
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->noncurrent_files, 0);
  EXPECT_EQ(outcome->deleted_files, 0);

  // 5 days: noncurrent, still there.
  clock_.Set(written + std::chrono::days(5));
  outcome = Remove(table, {std::chrono::days(3), std::chrono::days(10)});
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->noncurrent_files, 1);
  EXPECT_EQ(outcome->deleted_files, 0);
  EXPECT_TRUE(Exists(table, orphan));

  // 14 days: deleted; every referenced file stays, however old.
  clock_.Set(written + std::chrono::days(14));
  outcome = Remove(table, {std::chrono::days(3), std::chrono::days(10)});
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->deleted_files, 1);
  EXPECT_EQ(outcome->deleted_bytes, 4);
  EXPECT_FALSE(Exists(table, orphan));
  EXPECT_EQ(Keys(table).size(), all - 1);
  for (const std::string& f : data) EXPECT_TRUE(Exists(table, f)) << f;
  auto loaded = commits_->LoadTable(table.table_id);
  ASSERT_TRUE(loaded.has_value()) << "the table must still load: " << loaded.error().ToString();
}

TEST_F(UnreferencedFilesTest, FilesExpirationLeftBehindAreRemovedButNotTheMetadataLog) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < 4; ++i) Append(table);
  // A manifest list no snapshot names any more (as a crash between the
  // expiration commit and its deletes would leave).
  auto before = Current(table);
  clock_.Set(std::chrono::system_clock::now() + std::chrono::days(30));
  auto expired = ExpireTableSnapshots({*commits_, *objects_, kKeyRoot, clock_}, table,
                                      {1, std::chrono::hours(1)});
  ASSERT_TRUE(expired.has_value()) << expired.error().ToString();
  const std::string leftover = before.snapshots[0].manifest_list;
  ASSERT_TRUE(catalog::TableFileIO(*objects_, table, kKeyRoot).Write(leftover, "avro").ok());
  clock_.Set(std::chrono::system_clock::now() + std::chrono::days(30));
  auto outcome = Remove(table);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->deleted_files, 1);
  EXPECT_FALSE(Exists(table, leftover));
  auto loaded = commits_->LoadTable(table.table_id);
  ASSERT_TRUE(loaded.has_value());
  for (const auto& entry : loaded->metadata->metadata.metadata_log) {
    EXPECT_TRUE(Exists(table, entry.metadata_file)) << entry.metadata_file;
  }
}

TEST_F(UnreferencedFilesTest, AnUnreadableManifestListDeletesNothing) {
  catalog::Table table = MakeTable("t");
  for (int i = 0; i < 2; ++i) Append(table);
  const std::string orphan = table.warehouse_location + "/data/orphan.parquet";
  ASSERT_TRUE(catalog::TableFileIO(*objects_, table, kKeyRoot).Write(orphan, "junk").ok());
  ASSERT_TRUE(objects_->Delete(Key(table, Current(table).snapshots[0].manifest_list)).ok());
  clock_.Set(std::chrono::system_clock::now() + std::chrono::days(30));
  auto outcome = Remove(table);
  EXPECT_FALSE(outcome.has_value());
  EXPECT_TRUE(Exists(table, orphan));
}

TEST(UnreferencedRulesTest, DefaultsFillWhatWasNotSet) {
  UnreferencedFileRules rules = UnreferencedRulesFrom({});
  EXPECT_EQ(rules.unreferenced, std::chrono::days(3));
  EXPECT_EQ(rules.non_current, std::chrono::days(10));
  rules = UnreferencedRulesFrom({std::chrono::days(1), std::chrono::days(2)});
  EXPECT_EQ(rules.unreferenced, std::chrono::days(1));
  EXPECT_EQ(rules.non_current, std::chrono::days(2));
}

}  // namespace
}  // namespace st::maintenance
