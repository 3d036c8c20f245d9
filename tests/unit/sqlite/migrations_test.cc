#include "sqlite/migrations.h"

#include <gtest/gtest.h>

#include <vector>

#include "temp_database.h"

namespace st::sqlite {
namespace {

using MigrationsTest = TempDatabaseTest;

const std::vector<Migration> kFirst = {
    {1, "CREATE TABLE a (x INTEGER);"},
    {2, "ALTER TABLE a ADD COLUMN y TEXT; CREATE TABLE b (z TEXT);"},
};

TEST_F(MigrationsTest, NewDatabaseGetsEveryMigrationOnce) {
  auto before = SchemaVersion(*db_);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(*before, 0);
  ASSERT_TRUE(Migrate(*db_, kFirst, 1000).ok());
  EXPECT_EQ(*SchemaVersion(*db_), 2);
  EXPECT_TRUE(db_->Exec("INSERT INTO a(x, y) VALUES (1, 'one'); INSERT INTO b VALUES ('z')").ok());
  EXPECT_EQ(Query(*db_,
                  "SELECT group_concat(version || ':' || applied_at_ms) FROM "
                  "(SELECT * FROM schema_migrations ORDER BY version)"),
            "1:1000,2:1000");

  // Again, and from another connection: nothing is re-applied.
  ASSERT_TRUE(Migrate(*db_, kFirst, 2000).ok());
  std::unique_ptr<Database> other = Open();
  ASSERT_TRUE(Migrate(*other, kFirst, 3000).ok());
  EXPECT_EQ(Query(*db_, "SELECT count(*) FROM a"), "1");
  EXPECT_EQ(Query(*db_, "SELECT max(applied_at_ms) FROM schema_migrations"), "1000");
}

TEST_F(MigrationsTest, AppendedMigrationRunsOnAnOlderDatabase) {
  ASSERT_TRUE(Migrate(*db_, std::span(kFirst).first(1), 1000).ok());
  EXPECT_EQ(*SchemaVersion(*db_), 1);
  ASSERT_TRUE(Migrate(*db_, kFirst, 2000).ok());
  EXPECT_EQ(*SchemaVersion(*db_), 2);
  EXPECT_EQ(Query(*db_, "SELECT applied_at_ms FROM schema_migrations WHERE version = 2"), "2000");
}

TEST_F(MigrationsTest, DatabaseFromANewerBinaryIsRefused) {
  ASSERT_TRUE(Migrate(*db_, kFirst, 1000).ok());
  ASSERT_TRUE(db_->Exec("INSERT INTO schema_migrations VALUES (7, 0)").ok());
  Status status = Migrate(*db_, kFirst, 2000);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "the test database schema is version 7 but this binary knows only up to 2; run a "
            "newer streamtables");
}

TEST_F(MigrationsTest, FailingMigrationLeavesNoTrace) {
  const std::vector<Migration> broken = {
      {1, "CREATE TABLE a (x INTEGER);"},
      {2, "CREATE TABLE c (x INTEGER); CREATE TABLE a (x INTEGER);"},
  };
  Status status = Migrate(*db_, broken, 1000);
  EXPECT_EQ(status.code(), StatusCode::kIo);
  EXPECT_EQ(*SchemaVersion(*db_), 1);
  EXPECT_EQ(Query(*db_, "SELECT count(*) FROM sqlite_master WHERE name = 'c'"), "0");
}

}  // namespace
}  // namespace st::sqlite
