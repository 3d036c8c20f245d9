// The metadata-pointer compare-and-swap and the channel-fenced commit.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "sqlite/database.h"
#include "store_fixture.h"

namespace st::catalog {
namespace {

using StoreCommitTest = StoreTest;

constexpr const char* kChannel = "arn:aws:kafka:us-east-1:111122223333:channel/clicks";
constexpr const char* kOtherChannel = "arn:aws:kafka:us-east-1:111122223333:channel/zombie";

TEST_F(StoreCommitTest, SwapAdvancesTokenAndRejectsStaleOnes) {
  Table table = MakeTable();
  TableWriter writer{kAccount, std::nullopt};
  clock_.Advance(std::chrono::seconds(1));
  auto first =
      store_->SwapMetadataLocation(table.table_id, table.version_token,
                                   table.warehouse_location + "/metadata/1.metadata.json", writer);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_EQ(first->metadata_location, table.warehouse_location + "/metadata/1.metadata.json");
  EXPECT_NE(first->version_token, table.version_token);
  EXPECT_EQ(first->modified_at, clock_.Now());

  // The old token lost: Conflict, pointer and token unchanged.
  auto stale =
      store_->SwapMetadataLocation(table.table_id, table.version_token,
                                   table.warehouse_location + "/metadata/2.metadata.json", writer);
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code(), StatusCode::kConflict);
  EXPECT_EQ(stale.error().message(),
            "Provided version token does not match the table version token.");
  auto now = store_->GetTableById(table.table_id);
  EXPECT_EQ(now->metadata_location, first->metadata_location);
  EXPECT_EQ(now->version_token, first->version_token);

  EXPECT_EQ(store_->SwapMetadataLocation("missing", "x", "loc", writer).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(
      store_->SwapMetadataLocation(table.table_id, first->version_token, "", writer).error().code(),
      StatusCode::kInvalidArgument);
}

TEST_F(StoreCommitTest, StreamingTableRefusesOtherWriters) {
  Table table = MakeTable("bucket1", "clicks", std::string(kChannel));
  EXPECT_EQ(table.managed_by_channel, std::string(kChannel));
  TableWriter anyone{kAccount, std::nullopt};
  auto swap = store_->SwapMetadataLocation(table.table_id, table.version_token, "loc", anyone);
  ASSERT_FALSE(swap.has_value());
  EXPECT_EQ(swap.error().code(), StatusCode::kAccessDenied);
  EXPECT_NE(swap.error().message().find(kChannel), std::string::npos) << swap.error().message();
  TableWriter zombie{kAccount, std::string(kOtherChannel)};
  EXPECT_EQ(store_->SwapMetadataLocation(table.table_id, table.version_token, "loc", zombie)
                .error()
                .code(),
            StatusCode::kAccessDenied);
  auto rename = store_->RenameTable(table.table_id, std::nullopt, "ns", "renamed", anyone);
  EXPECT_EQ(rename.error().code(), StatusCode::kAccessDenied);
  EXPECT_EQ(store_->GetTableById(table.table_id)->version_token, table.version_token);

  TableWriter channel{kAccount, std::string(kChannel)};
  EXPECT_TRUE(store_->SwapMetadataLocation(table.table_id, table.version_token, "loc", channel)
                  .has_value());
  // Deleting a streaming table is allowed (its channel then fails with a clear status).
  EXPECT_TRUE(store_->DeleteTable(table.table_id, std::nullopt).ok());
}

TEST_F(StoreCommitTest, ChannelFencedCommit) {
  Table table = MakeTable("bucket1", "clicks", std::string(kChannel));
  OffsetRanges ranges{{0, {100, 150}}, {1, {200, 210}}};
  // Never initialised: the channel has no recorded start.
  EXPECT_EQ(
      store_
          ->CommitWithOffsets(table.table_id, table.version_token, "l1", kChannel, ranges, kAccount)
          .error()
          .code(),
      StatusCode::kFailedPrecondition);
  ASSERT_TRUE(store_->InitChannelOffsets(kChannel, {{0, 100}, {1, 200}}, 0).ok());
  EXPECT_EQ(store_->InitChannelOffsets(kChannel, {}, 0).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(*store_->GetChannelOffsets(kChannel), (NextOffsets{{0, 100}, {1, 200}}));

  auto committed = store_->CommitWithOffsets(table.table_id, table.version_token, "l1", kChannel,
                                             ranges, kAccount);
  ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  EXPECT_EQ(committed->metadata_location, "l1");
  EXPECT_EQ(*store_->GetChannelOffsets(kChannel), (NextOffsets{{0, 150}, {1, 210}}));

  // A zombie repeating the same ranges with the fresh token: fenced, nothing changes.
  auto zombie = store_->CommitWithOffsets(table.table_id, committed->version_token, "l2", kChannel,
                                          ranges, kAccount);
  ASSERT_FALSE(zombie.has_value());
  EXPECT_EQ(zombie.error().code(), StatusCode::kConflict);
  EXPECT_NE(zombie.error().message().find("Offset fence"), std::string::npos);
  // One good partition and one stale one: still nothing changes.
  auto mixed = store_->CommitWithOffsets(table.table_id, committed->version_token, "l2", kChannel,
                                         {{0, {150, 160}}, {1, {205, 220}}}, kAccount);
  EXPECT_EQ(mixed.error().code(), StatusCode::kConflict);
  Table after = *store_->GetTableById(table.table_id);
  EXPECT_EQ(after.metadata_location, "l1");
  EXPECT_EQ(after.version_token, committed->version_token);
  EXPECT_EQ(*store_->GetChannelOffsets(kChannel), (NextOffsets{{0, 150}, {1, 210}}));

  // Right offsets, stale token: Conflict, offsets untouched.
  EXPECT_EQ(store_
                ->CommitWithOffsets(table.table_id, table.version_token, "l2", kChannel,
                                    {{0, {150, 160}}}, kAccount)
                .error()
                .code(),
            StatusCode::kConflict);
  EXPECT_EQ(*store_->GetChannelOffset(kChannel, 0), 150);

  // A partition that appeared after creation starts at the default start (0).
  EXPECT_EQ(*store_->GetChannelOffset(kChannel, 7), 0);
  auto grown = store_->CommitWithOffsets(table.table_id, committed->version_token, "l3", kChannel,
                                         {{0, {150, 160}}, {7, {0, 5}}}, kAccount);
  ASSERT_TRUE(grown.has_value()) << grown.error().ToString();
  EXPECT_EQ(*store_->GetChannelOffsets(kChannel), (NextOffsets{{0, 160}, {1, 210}, {7, 5}}));

  // Only the table's own channel may commit, and ranges must make sense.
  ASSERT_TRUE(store_->InitChannelOffsets(kOtherChannel, {}, 0).ok());
  EXPECT_EQ(store_
                ->CommitWithOffsets(table.table_id, grown->version_token, "l4", kOtherChannel,
                                    {{0, {0, 1}}}, kAccount)
                .error()
                .code(),
            StatusCode::kAccessDenied);
  EXPECT_EQ(store_
                ->CommitWithOffsets(table.table_id, grown->version_token, "l4", kChannel,
                                    {{0, {160, 150}}}, kAccount)
                .error()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(
      store_->CommitWithOffsets(table.table_id, grown->version_token, "l4", kChannel, {}, kAccount)
          .error()
          .code(),
      StatusCode::kInvalidArgument);
  Table plain = MakeTable("bucket1", "plain");
  EXPECT_EQ(store_
                ->CommitWithOffsets(plain.table_id, plain.version_token, "l", kChannel,
                                    {{0, {160, 170}}}, kAccount)
                .error()
                .code(),
            StatusCode::kAccessDenied);

  ASSERT_TRUE(store_->DeleteChannelOffsets(kChannel).ok());
  EXPECT_EQ(store_->GetChannelOffsets(kChannel).error().code(), StatusCode::kNotFound);
  ASSERT_TRUE(store_->InitChannelOffsets(kChannel, {{0, 500}}, 0).ok());
  EXPECT_EQ(*store_->GetChannelOffset(kChannel, 0), 500);
}

// Two threads, each with its own store on the same file (like two server
// processes), race on every round: exactly one swap per round wins.
TEST_F(StoreCommitTest, ConcurrentSwapsExactlyOneWinsPerRound) {
  Table table = MakeTable();
  std::unique_ptr<MetadataStore> second = Open();
  ASSERT_NE(second, nullptr);
  MetadataStore* stores[2] = {store_.get(), second.get()};
  constexpr int kRounds = 100;
  for (int round = 0; round < kRounds; ++round) {
    std::string token = store_->GetTableById(table.table_id)->version_token;
    std::atomic<int> wins{0}, conflicts{0};
    std::thread threads[2];
    for (int t = 0; t < 2; ++t) {
      threads[t] = std::thread([&, t] {
        auto result = stores[t]->SwapMetadataLocation(
            table.table_id, token, "loc-" + std::to_string(round) + "-" + std::to_string(t),
            {kAccount, std::nullopt});
        if (result.has_value()) {
          ++wins;
        } else if (result.error().code() == StatusCode::kConflict) {
          ++conflicts;
        } else {
          ADD_FAILURE() << result.error().ToString();
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    ASSERT_EQ(wins.load(), 1) << "round " << round;
    ASSERT_EQ(conflicts.load(), 1) << "round " << round;
  }
}

TEST_F(StoreCommitTest, MigrationIsIdempotentAcrossOpens) {
  for (int i = 0; i < 3; ++i) {
    auto again = Open();
    ASSERT_NE(again, nullptr);
  }
  MakeTable();
}

TEST_F(StoreCommitTest, RefusesADatabaseFromANewerBinary) {
  store_.reset();
  {
    auto db = ::st::sqlite::Database::Open(
        {.path = DbPath(), .busy_timeout = std::chrono::milliseconds(1000)});
    ASSERT_TRUE(db.has_value());
    ASSERT_TRUE((*db)->Exec("INSERT INTO schema_migrations VALUES (999, 0)").ok());
  }
  auto newer = OpenSqliteMetadataStore({DbPath()}, clock_, random_);
  ASSERT_FALSE(newer.has_value());
  EXPECT_EQ(newer.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(newer.error().message().find("999"), std::string::npos);
  EXPECT_EQ(OpenSqliteMetadataStore({dir_ + "/no/such/dir/c.db"}, clock_, random_).error().code(),
            StatusCode::kIo);
}

// A writer holding the database lock longer than the busy timeout makes
// others fail with Unavailable (retryable), never with a wrong answer.
TEST_F(StoreCommitTest, BusyDatabaseIsUnavailable) {
  Table table = MakeTable();
  auto db = ::st::sqlite::Database::Open(
      {.path = DbPath(), .busy_timeout = std::chrono::milliseconds(1000)});
  ASSERT_TRUE(db.has_value());
  ASSERT_TRUE((*db)->Exec("BEGIN IMMEDIATE").ok());
  SqliteStoreOptions options{DbPath()};
  options.busy_timeout = std::chrono::milliseconds(50);
  auto impatient = OpenSqliteMetadataStore(options, clock_, random_);
  ASSERT_TRUE(impatient.has_value()) << impatient.error().ToString();
  auto swap = (*impatient)
                  ->SwapMetadataLocation(table.table_id, table.version_token, "l",
                                         {kAccount, std::nullopt});
  ASSERT_FALSE(swap.has_value());
  EXPECT_EQ(swap.error().code(), StatusCode::kUnavailable);
  // Readers are not blocked by the writer (WAL).
  EXPECT_TRUE((*impatient)->GetTableById(table.table_id).has_value());
  ASSERT_TRUE((*db)->Exec("ROLLBACK").ok());
  EXPECT_TRUE(
      (*impatient)
          ->SwapMetadataLocation(table.table_id, table.version_token, "l", {kAccount, std::nullopt})
          .has_value());
}

// The SQLite unit of work holds the connection lock: a call on the store
// from the thread that holds an open unit would deadlock, so it aborts.
TEST_F(StoreCommitTest, StoreCallWhileOwnUnitIsOpenAborts) {
  Table table = MakeTable();
  EXPECT_DEATH(
      {
        auto unit = store_->BeginUnitOfWork();
        (void)store_->GetTableById(table.table_id);
      },
      "HeldByThisThread");
  // Another thread waits for the unit instead.
  auto unit = store_->BeginUnitOfWork();
  ASSERT_TRUE(unit.has_value());
  std::atomic<bool> read{false};
  std::thread reader([&] {
    EXPECT_TRUE(store_->GetTableById(table.table_id).has_value());
    read = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(read.load());
  unit->reset();
  reader.join();
  EXPECT_TRUE(read.load());
}

}  // namespace
}  // namespace st::catalog
