#include "sqlite/transaction.h"

#include <gtest/gtest.h>

#include "temp_database.h"

namespace st::sqlite {
namespace {

class TransactionTest : public TempDatabaseTest {
 protected:
  void SetUp() override {
    TempDatabaseTest::SetUp();
    ASSERT_TRUE(db_->Exec("CREATE TABLE t (a INTEGER)").ok());
  }
};

TEST_F(TransactionTest, CommitKeepsTheWrites) {
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok()) << txn.status().ToString();
    ASSERT_TRUE(db_->Exec("INSERT INTO t VALUES (1)").ok());
    ASSERT_TRUE(txn.Commit().ok());
  }
  std::unique_ptr<Database> other = Open();
  EXPECT_EQ(Query(*other, "SELECT count(*) FROM t"), "1");
}

TEST_F(TransactionTest, DestructionWithoutCommitRollsBack) {
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->Exec("INSERT INTO t VALUES (1)").ok());
  }
  EXPECT_EQ(Query(*db_, "SELECT count(*) FROM t"), "0");
  // The lock is released: a new transaction starts at once.
  Transaction next(*db_);
  EXPECT_TRUE(next.status().ok()) << next.status().ToString();
}

TEST_F(TransactionTest, FailedCommitTakesTheGivenCode) {
  ASSERT_TRUE(db_->Exec("CREATE TABLE parent (id TEXT PRIMARY KEY);"
                        "CREATE TABLE child (p TEXT REFERENCES parent(id) "
                        "DEFERRABLE INITIALLY DEFERRED)")
                  .ok());
  Transaction txn(*db_);
  ASSERT_TRUE(txn.status().ok());
  // A deferred foreign key fails only at COMMIT.
  ASSERT_TRUE(db_->Exec("INSERT INTO child VALUES ('missing')").ok());
  Status commit = txn.Commit(StatusCode::kCommitStateUnknown);
  EXPECT_EQ(commit.code(), StatusCode::kCommitStateUnknown) << commit.ToString();
  EXPECT_NE(commit.message().find("FOREIGN KEY"), std::string::npos) << commit.message();
  EXPECT_EQ(txn.Commit().code(), StatusCode::kIo);
}

}  // namespace
}  // namespace st::sqlite
