// The PostgreSQL store's connection pool, on the real test server: a unit of
// work holds one connection and other threads go on reading on the others;
// many threads sharing a few connections all get their answers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/random.h"
#include "postgres_backend.h"

namespace st::catalog::conformance {
namespace {

constexpr const char* kPoolAccount = "111122223333";

class PostgresPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = MakePostgresBackend();
    auto store = backend_->Open(clock_, random_);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = *std::move(store);
    ASSERT_TRUE(store_->CreateAccount(kPoolAccount).ok());
    auto bucket = store_->CreateTableBucket({kPoolAccount, "us-east-1", "pool", {}});
    ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
    bucket_arn_ = bucket->arn;
  }

  ManualClock clock_{std::chrono::system_clock::now()};
  DefaultRandom random_{7};
  std::unique_ptr<StoreBackend> backend_;
  std::unique_ptr<MetadataStore> store_;
  std::string bucket_arn_;
};

TEST_F(PostgresPoolTest, AnOpenUnitOfWorkDoesNotBlockOtherThreadsReads) {
  auto unit = store_->BeginUnitOfWork();
  ASSERT_TRUE(unit.has_value()) << unit.error().ToString();
  std::atomic<bool> read{false};
  std::thread reader([&] {
    EXPECT_TRUE(store_->GetTableBucket(bucket_arn_).has_value());
    read = true;
  });
  // With one connection the reader would wait for the unit (the SQLite
  // store's StoreCommitTest shows that); here it takes another connection.
  for (int i = 0; i < 500 && !read.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(read.load());
  unit->reset();
  reader.join();
}

TEST_F(PostgresPoolTest, ManyThreadsShareTheConnectionsAndEveryWriteLands) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 25;
  std::atomic<int> created{0}, retried{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::string name = "ns_" + std::to_string(t) + "_" + std::to_string(i);
        // A serialization failure between two of the pool's own
        // transactions is Unavailable and changed nothing: try again.
        for (int attempt = 0;; ++attempt) {
          auto ns = store_->CreateNamespace(bucket_arn_, name, kPoolAccount);
          if (ns.has_value()) {
            ++created;
            break;
          }
          if (ns.error().code() != StatusCode::kUnavailable || attempt == 20) {
            ADD_FAILURE() << ns.error().ToString();
            ++failed;
            break;
          }
          ++retried;
        }
        EXPECT_TRUE(store_->GetNamespace(bucket_arn_, name).has_value());
        EXPECT_TRUE(store_->GetTableBucket(bucket_arn_).has_value());
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(created.load(), kThreads * kPerThread);
  auto listed = store_->ListNamespaces(bucket_arn_, PageRequest{});
  ASSERT_TRUE(listed.has_value()) << listed.error().ToString();
  EXPECT_EQ(static_cast<int>(listed->items.size()), kThreads * kPerThread);
  std::printf("pool: %d namespaces created by %d threads, %d serialization retries\n",
              created.load(), kThreads, retried.load());
}

}  // namespace
}  // namespace st::catalog::conformance
