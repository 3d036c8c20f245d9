// The PostgreSQL driver's own guarantees, on the real test server: typed
// errors for the failures the stores act on, and no statement of a
// transaction whose connection was lost ever runs outside it.
#include <gtest/gtest.h>

#include "postgres/connection.h"
#include "postgres_backend.h"
#include "sql/transaction.h"

namespace st::catalog::conformance {
namespace {

using ::st::postgres::Connection;
using ::st::sql::ErrorKind;

std::unique_ptr<Connection> Connect() {
  auto url = PostgresTestUrl();
  EXPECT_TRUE(url.has_value()) << url.error().ToString();
  if (!url.has_value()) return nullptr;
  auto db = Connection::Open({*url, "test database"});
  EXPECT_TRUE(db.has_value()) << db.error().ToString();
  return db.has_value() ? *std::move(db) : nullptr;
}

class PostgresDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = Connect();
    ASSERT_NE(db_, nullptr);
    table_ = "driver_" + std::to_string(getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(db_->Exec("CREATE TABLE " + table_ + " (k TEXT PRIMARY KEY, v BIGINT)").ok());
  }
  void TearDown() override {
    if (db_ != nullptr) (void)db_->Exec("DROP TABLE IF EXISTS " + table_);
  }
  int64_t Count(Connection& db) {
    auto stmt = db.Prepare("SELECT count(*) FROM " + table_);
    EXPECT_TRUE(stmt.has_value());
    auto row = stmt->Step();
    EXPECT_TRUE(row.has_value() && *row);
    return stmt->Int64(0);
  }

  std::unique_ptr<Connection> db_;
  std::string table_;
};

TEST(PostgresPlaceholders, QuestionMarksBecomeNumberedOutsideQuotes) {
  int params = 0;
  EXPECT_EQ(postgres::TranslatePlaceholders("a = ? AND b = '?' AND \"?\" = ?3 OR c = ?", params),
            "a = $1 AND b = '?' AND \"?\" = $3 OR c = $4");
  EXPECT_EQ(params, 4);
  EXPECT_EQ(postgres::RedactedUrl("postgresql://u:secret@h:1/d"), "postgresql://u:***@h:1/d");
}

TEST_F(PostgresDriverTest, UniqueViolationIsTypedAndAlreadyExists) {
  ASSERT_TRUE(db_->Exec("INSERT INTO " + table_ + " VALUES ('a', 1)").ok());
  Status again = db_->Exec("INSERT INTO " + table_ + " VALUES ('a', 2)");
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists) << again.ToString();
  EXPECT_EQ(db_->last_error(), ErrorKind::kUniqueViolation);
}

TEST_F(PostgresDriverTest, ConcurrentSerializableWritersGetASerializationFailure) {
  std::unique_ptr<Connection> other = Connect();
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(db_->Exec("INSERT INTO " + table_ + " VALUES ('n', 0)").ok());
  sql::Transaction first(*db_);
  sql::Transaction second(*other);
  ASSERT_TRUE(first.status().ok() && second.status().ok());
  // Both read the row, then both write it: the second writer must lose.
  EXPECT_EQ(Count(*db_), 1);
  EXPECT_EQ(Count(*other), 1);
  ASSERT_TRUE(db_->Exec("UPDATE " + table_ + " SET v = v + 1").ok());
  ASSERT_TRUE(first.Commit().ok());
  Status lost = other->Exec("UPDATE " + table_ + " SET v = v + 1");
  EXPECT_EQ(lost.code(), StatusCode::kUnavailable) << lost.ToString();
  EXPECT_EQ(other->last_error(), ErrorKind::kSerializationFailure);
  EXPECT_TRUE(sql::IsRetryable(other->last_error()));
}

TEST_F(PostgresDriverTest, LostConnectionInsideATransactionRunsNothingOutsideIt) {
  std::unique_ptr<Connection> admin = Connect();
  ASSERT_NE(admin, nullptr);
  auto pid = db_->Prepare("SELECT pg_backend_pid()");
  ASSERT_TRUE(pid.has_value() && pid->Step().value_or(false));
  int64_t backend = pid->Int64(0);
  {
    sql::Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->Exec("INSERT INTO " + table_ + " VALUES ('in-txn', 1)").ok());
    ASSERT_TRUE(admin->Exec("SELECT pg_terminate_backend(" + std::to_string(backend) + ")").ok());
    Status failed = db_->Exec("INSERT INTO " + table_ + " VALUES ('after-loss', 2)");
    EXPECT_EQ(failed.code(), StatusCode::kUnavailable) << failed.ToString();
    EXPECT_EQ(db_->last_error(), ErrorKind::kConnectionLost);
    Status again = db_->Exec("INSERT INTO " + table_ + " VALUES ('after-loss-2', 3)");
    EXPECT_EQ(again.code(), StatusCode::kUnavailable) << again.ToString();
    Status commit = txn.Commit(StatusCode::kCommitStateUnknown);
    EXPECT_EQ(commit.code(), StatusCode::kCommitStateUnknown) << commit.ToString();
  }
  // Reconnected, and nothing of the lost transaction was applied.
  EXPECT_EQ(Count(*db_), 0);
  EXPECT_TRUE(db_->Exec("INSERT INTO " + table_ + " VALUES ('later', 4)").ok());
  EXPECT_EQ(Count(*admin), 1);
}

}  // namespace
}  // namespace st::catalog::conformance
