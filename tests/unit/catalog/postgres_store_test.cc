// PostgreSQL-only behaviour of the catalog store, against the real test
// server: lost connections (before and during COMMIT), the writer lock
// between stores, and two stores (two processes' worth) racing on the
// delivery fence.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "catalog/metadata_store.h"
#include "catalog/postgres_metadata_store.h"
#include "postgres_test_server.h"

namespace st::catalog {
namespace {

using testing::PostgresTestSchema;

constexpr const char* kAccount = "111122223333";
constexpr const char* kChannel = "arn:aws:kafka:us-east-1:111122223333:channel/c/u/ch/id";

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(testing::PostgresTestUrl().empty()) << testing::PostgresTestError();
    store_ = Open();
    ASSERT_NE(store_, nullptr);
    auto bucket = store_->CreateTableBucket({kAccount, "us-east-1", "bucket1", {}});
    ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
    ASSERT_TRUE(store_->CreateNamespace(bucket->arn, "ns", kAccount).has_value());
    auto table =
        store_->CreateTable({bucket->arn, "ns", "stream", kAccount, std::string(kChannel), {}});
    ASSERT_TRUE(table.has_value()) << table.error().ToString();
    table_ = *table;
    ASSERT_TRUE(store_->InitChannelOffsets(kChannel, {{0, 100}}, 0).ok());
  }

  std::unique_ptr<MetadataStore> Open() {
    auto store = schema_.Open(clock_, random_);
    EXPECT_TRUE(store.has_value()) << store.error().ToString();
    return store.has_value() ? *std::move(store) : nullptr;
  }
  std::string Location(int version) const {
    return table_.warehouse_location + "/metadata/" + std::to_string(version) + ".metadata.json";
  }
  // Terminates every catalog connection on the server (all stores' pooled
  // ones), as a server restart or a network cut would.
  void KillConnections() {
    ASSERT_TRUE(schema_
                    .AdminExec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE application_name = 'streamtables' AND "
                               "pid <> pg_backend_pid()")
                    .ok());
    // Termination is asynchronous: wait until the backends are gone.
    for (int i = 0; i < 100; ++i) {
      auto probe = schema_.AdminExec(
          "DO $$ BEGIN IF (SELECT count(*) FROM pg_stat_activity WHERE application_name = "
          "'streamtables' AND pid <> pg_backend_pid()) > 0 THEN RAISE EXCEPTION 'alive'; END IF; "
          "END $$");
      if (probe.ok()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    FAIL() << "the catalog connections did not go away";
  }

  PostgresTestSchema schema_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1733250000))};
  DefaultRandom random_{7};
  std::unique_ptr<MetadataStore> store_;
  Table table_;
};

TEST_F(PostgresStoreTest, IdleConnectionsLostAreReplacedWithoutAnError) {
  ASSERT_TRUE(store_->GetTableById(table_.table_id).has_value());
  KillConnections();
  // The pool notices the dead idle connection and opens another.
  auto table = store_->GetTableById(table_.table_id);
  ASSERT_TRUE(table.has_value()) << table.error().ToString();
  EXPECT_EQ(table->version_token, table_.version_token);
}

TEST_F(PostgresStoreTest, ConnectionLostMidUnitOfWorkAppliesNothingAndRecovers) {
  {
    auto unit = store_->BeginUnitOfWork();
    ASSERT_TRUE(unit.has_value()) << unit.error().ToString();
    ASSERT_TRUE((*unit)
                    ->channel_offsets()
                    .AdvanceChannelOffsets(kChannel, table_.table_id, {{0, {100, 150}}})
                    .ok());
    KillConnections();
    auto swapped = (*unit)->tables().SwapMetadataLocation(table_.table_id, table_.version_token,
                                                          Location(1), {kAccount, kChannel});
    ASSERT_FALSE(swapped.has_value());
    EXPECT_EQ(swapped.error().code(), StatusCode::kUnavailable) << swapped.error().ToString();
    Status committed = (*unit)->Commit();
    EXPECT_FALSE(committed.ok());
  }
  // Nothing of the unit landed, and the store works again.
  EXPECT_EQ(store_->GetChannelOffset(kChannel, 0).value(), 100);
  EXPECT_EQ(store_->GetTableById(table_.table_id)->version_token, table_.version_token);
  auto ok = store_->CommitWithOffsets(table_.table_id, table_.version_token, Location(1), kChannel,
                                      {{0, {100, 150}}}, kAccount);
  ASSERT_TRUE(ok.has_value()) << ok.error().ToString();
  EXPECT_EQ(store_->GetChannelOffset(kChannel, 0).value(), 150);
}

// The connection dies inside COMMIT (a deferred trigger terminates its own
// backend at commit time): the client cannot know the outcome, so the
// pointer swap answers CommitStateUnknown, never Conflict or OK; re-reading
// resolves it (here: not applied), and a retry from the re-read state works.
TEST_F(PostgresStoreTest, ConnectionLostDuringCommitIsCommitStateUnknown) {
  const std::string s = schema_.name();
  ASSERT_TRUE(schema_
                  .AdminExec("CREATE FUNCTION " + s +
                             ".die_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                             "PERFORM pg_terminate_backend(pg_backend_pid()); "
                             "PERFORM pg_sleep(5); RETURN NULL; END $$; "
                             "CREATE CONSTRAINT TRIGGER die AFTER UPDATE ON " +
                             s +
                             ".tables DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
                             "EXECUTE FUNCTION " +
                             s + ".die_at_commit()")
                  .ok());
  auto committed = store_->CommitWithOffsets(table_.table_id, table_.version_token, Location(1),
                                             kChannel, {{0, {100, 150}}}, kAccount);
  ASSERT_FALSE(committed.has_value());
  EXPECT_EQ(committed.error().code(), StatusCode::kCommitStateUnknown)
      << committed.error().ToString();
  ASSERT_TRUE(schema_.AdminExec("DROP TRIGGER die ON " + s + ".tables").ok());
  // Resolved by re-reading: the server rolled it back.
  EXPECT_EQ(store_->GetChannelOffset(kChannel, 0).value(), 100);
  EXPECT_EQ(store_->GetTableById(table_.table_id)->version_token, table_.version_token);
  auto retried = store_->CommitWithOffsets(table_.table_id, table_.version_token, Location(1),
                                           kChannel, {{0, {100, 150}}}, kAccount);
  ASSERT_TRUE(retried.has_value()) << retried.error().ToString();
}

// A writer waits for another store's open transaction up to the lock
// timeout, then answers Unavailable (retry), as SQLite's busy timeout does.
TEST_F(PostgresStoreTest, WriterWaitsForAnotherStoresTransactionThenUnavailable) {
  std::unique_ptr<MetadataStore> other = Open();
  ASSERT_NE(other, nullptr);
  auto unit = store_->BeginUnitOfWork();
  ASSERT_TRUE(unit.has_value());
  auto blocked = other->CommitWithOffsets(table_.table_id, table_.version_token, Location(1),
                                          kChannel, {{0, {100, 101}}}, kAccount);
  ASSERT_FALSE(blocked.has_value());
  EXPECT_EQ(blocked.error().code(), StatusCode::kUnavailable) << blocked.error().ToString();
  // Readers never wait for the writer lock.
  EXPECT_EQ(other->GetChannelOffset(kChannel, 0).value(), 100);
  unit->reset();
  EXPECT_TRUE(other
                  ->CommitWithOffsets(table_.table_id, table_.version_token, Location(1), kChannel,
                                      {{0, {100, 101}}}, kAccount)
                  .has_value());
}

// Two stores on one database (two server processes' worth), racing from the
// same token and offsets, round after round: exactly one wins the fence,
// the other gets Conflict, and pointer and offsets move together.
TEST_F(PostgresStoreTest, TwoStoresRacingOnTheFenceHaveExactlyOneWinner) {
  std::unique_ptr<MetadataStore> other = Open();
  ASSERT_NE(other, nullptr);
  MetadataStore* stores[] = {store_.get(), other.get()};
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    auto table = store_->GetTableById(table_.table_id);
    ASSERT_TRUE(table.has_value());
    const KafkaOffset from = 100 + round * 10;
    std::atomic<int> won{0};
    std::atomic<int> conflicted{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        auto result = stores[t % 2]->CommitWithOffsets(
            table->table_id, table->version_token, Location(round) + "-" + std::to_string(t),
            kChannel, {{0, {from, from + 10}}}, kAccount);
        if (result.has_value()) {
          ++won;
        } else if (result.error().code() == StatusCode::kConflict) {
          ++conflicted;
        } else {
          ADD_FAILURE() << result.error().ToString();
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(won.load(), 1);
    EXPECT_EQ(conflicted.load(), 3);
    EXPECT_EQ(other->GetChannelOffset(kChannel, 0).value(), from + 10);
    EXPECT_NE(other->GetTableById(table_.table_id)->version_token, table->version_token);
  }
}

// A zombie writer (a second store still holding an old token and offsets)
// cannot commit after the fence moved.
TEST_F(PostgresStoreTest, ZombieOnAnotherStoreIsFenced) {
  std::unique_ptr<MetadataStore> zombie = Open();
  ASSERT_NE(zombie, nullptr);
  ASSERT_TRUE(store_
                  ->CommitWithOffsets(table_.table_id, table_.version_token, Location(1), kChannel,
                                      {{0, {100, 120}}}, kAccount)
                  .has_value());
  auto current = store_->GetTableById(table_.table_id);
  auto fenced = zombie->CommitWithOffsets(table_.table_id, current->version_token, Location(2),
                                          kChannel, {{0, {100, 110}}}, kAccount);
  ASSERT_FALSE(fenced.has_value());
  EXPECT_EQ(fenced.error().code(), StatusCode::kConflict);
  EXPECT_EQ(zombie->GetChannelOffset(kChannel, 0).value(), 120);
}

TEST(PostgresStoreOpen, UnreachableServerIsUnavailable) {
  PostgresStoreOptions options;
  // Port 1 on loopback: nothing listens.
  options.conninfo = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2";
  ManualClock clock{std::chrono::system_clock::time_point(std::chrono::seconds(1))};
  DefaultRandom random{1};
  auto store = OpenPostgresMetadataStore(options, clock, random);
  ASSERT_FALSE(store.has_value());
  EXPECT_EQ(store.error().code(), StatusCode::kUnavailable) << store.error().ToString();
}

}  // namespace
}  // namespace st::catalog
