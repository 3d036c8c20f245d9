#include "sqlite/database.h"

#include <gtest/gtest.h>

#include <fstream>

#include "sqlite/transaction.h"
#include "temp_database.h"

namespace st::sqlite {
namespace {

using DatabaseTest = TempDatabaseTest;

TEST_F(DatabaseTest, OpensWithWalForeignKeysAndSynchronous) {
  EXPECT_EQ(Query(*db_, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(Query(*db_, "PRAGMA foreign_keys"), "1");
  EXPECT_EQ(Query(*db_, "PRAGMA synchronous"), "1");  // NORMAL
  EXPECT_EQ(Query(*db_, "PRAGMA busy_timeout"), "5000");
  EXPECT_TRUE(std::filesystem::exists(DbPath()));

  auto durable = Database::Open(
      {.path = DbPath(), .busy_timeout = std::chrono::milliseconds(250), .durable = true});
  ASSERT_TRUE(durable.has_value()) << durable.error().ToString();
  EXPECT_EQ(Query(**durable, "PRAGMA synchronous"), "2");  // FULL
  EXPECT_EQ(Query(**durable, "PRAGMA busy_timeout"), "250");
}

TEST_F(DatabaseTest, InMemoryDatabaseOpensWithoutWal) {
  auto db = Database::Open({.path = ":memory:"});
  ASSERT_TRUE(db.has_value()) << db.error().ToString();
  EXPECT_EQ(Query(**db, "PRAGMA journal_mode"), "memory");
}

TEST_F(DatabaseTest, MissingDirectoryIsIoNamingLabelAndPath) {
  std::string path = dir_ + "/no/such/dir/x.db";
  auto db = Database::Open({.path = path, .label = "catalog database"});
  ASSERT_FALSE(db.has_value());
  EXPECT_EQ(db.error().code(), StatusCode::kIo);
  EXPECT_NE(db.error().message().find("catalog database '" + path + "'"), std::string::npos)
      << db.error().message();
  EXPECT_NE(db.error().message().find("writable"), std::string::npos);
}

TEST_F(DatabaseTest, FileThatIsNotADatabaseIsCorruption) {
  std::string path = dir_ + "/garbage.db";
  {
    std::ofstream out(path);
    out << std::string(4096, 'x');
  }
  auto db = Database::Open({.path = path, .label = "catalog database"});
  ASSERT_FALSE(db.has_value());
  EXPECT_EQ(db.error().code(), StatusCode::kCorruption) << db.error().ToString();
  EXPECT_NE(db.error().message().find(path), std::string::npos) << db.error().message();
}

TEST_F(DatabaseTest, ExecErrorNamesLabelAndStatement) {
  Status status = db_->Exec("CREATE TABLE t (a); CREATE TABLE t (a)");
  EXPECT_EQ(status.code(), StatusCode::kIo);
  EXPECT_NE(status.message().find("test database '" + DbPath() + "': "), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("already exists"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("(in: CREATE TABLE t"), std::string::npos) << status.message();

  auto bad = db_->Prepare("SELEKT 1");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), StatusCode::kIo);
  EXPECT_NE(bad.error().message().find("preparing: SELEKT 1"), std::string::npos);
}

// Two connections on one file: a writer holding the lock past the other's busy
// timeout makes its writes fail with Unavailable, while reads go on (WAL).
TEST_F(DatabaseTest, BusyWriterMapsToUnavailable) {
  ASSERT_TRUE(db_->Exec("CREATE TABLE t (a INTEGER)").ok());
  std::unique_ptr<Database> other = Open(std::chrono::milliseconds(20));
  ASSERT_NE(other, nullptr);
  Transaction holder(*db_);
  ASSERT_TRUE(holder.status().ok()) << holder.status().ToString();
  ASSERT_TRUE(db_->Exec("INSERT INTO t VALUES (1)").ok());

  Status insert = other->Exec("INSERT INTO t VALUES (2)");
  EXPECT_EQ(insert.code(), StatusCode::kUnavailable) << insert.ToString();
  EXPECT_NE(insert.message().find("retry later"), std::string::npos) << insert.message();

  auto stmt = other->Prepare("INSERT INTO t VALUES (3)");
  ASSERT_TRUE(stmt.has_value());
  EXPECT_EQ(stmt->Run().code(), StatusCode::kUnavailable);

  Transaction blocked(*other);
  EXPECT_EQ(blocked.status().code(), StatusCode::kUnavailable);

  EXPECT_EQ(Query(*other, "SELECT count(*) FROM t"), "0");  // Not blocked, not dirty.
  ASSERT_TRUE(holder.Commit().ok());
  EXPECT_TRUE(other->Exec("INSERT INTO t VALUES (2)").ok());
  EXPECT_EQ(Query(*other, "SELECT count(*) FROM t"), "2");
}

TEST_F(DatabaseTest, ChangesCountsRowsOfTheLastStatement) {
  ASSERT_TRUE(db_->Exec("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2), (3)").ok());
  EXPECT_EQ(db_->Changes(), 3);
  ASSERT_TRUE(db_->Exec("DELETE FROM t WHERE a > 1").ok());
  EXPECT_EQ(db_->Changes(), 2);
  ASSERT_TRUE(db_->Exec("DELETE FROM t WHERE a > 100").ok());
  EXPECT_EQ(db_->Changes(), 0);
}

}  // namespace
}  // namespace st::sqlite
