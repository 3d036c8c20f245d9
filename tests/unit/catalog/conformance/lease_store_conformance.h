// LeaseStore conformance (lease_store.h). Expiry is on the database's clock:
// the injected clock on SQLite, PostgreSQL's own on PostgreSQL, so a test
// that lets a lease expire both advances the injected clock and waits past
// the (short) TTL in real time.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

#include "catalog/lease_store.h"
#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

class LeaseStoreConformance : public StoreConformance {
 protected:
  LeaseStore& leases() { return *store_; }
  // Past `ttl` on either backend's clock.
  void LetExpire(std::chrono::milliseconds ttl) {
    clock_.Advance(ttl + std::chrono::seconds(1));
    std::this_thread::sleep_for(ttl + std::chrono::milliseconds(150));
  }
};

TEST_P(LeaseStoreConformance, FirstHolderGetsEpochOneAndOthersSeeIt) {
  auto none = leases().GetLease("coordinator");
  ASSERT_TRUE(none.has_value()) << none.error().ToString();
  EXPECT_FALSE(none->has_value());

  auto a = leases().TryAcquireOrRenew("coordinator", "replica-a", std::chrono::seconds(30));
  ASSERT_TRUE(a.has_value()) << a.error().ToString();
  EXPECT_EQ(a->holder, "replica-a");
  EXPECT_EQ(a->epoch, 1);

  // Another replica (another store on the database) cannot take a live lease.
  std::unique_ptr<MetadataStore> other = OpenAnother();
  ASSERT_NE(other, nullptr);
  auto b = other->TryAcquireOrRenew("coordinator", "replica-b", std::chrono::seconds(30));
  ASSERT_TRUE(b.has_value()) << b.error().ToString();
  EXPECT_EQ(b->holder, "replica-a");
  EXPECT_EQ(b->epoch, 1);

  // Renewing keeps the epoch and does not shorten the lease.
  auto renewed = leases().TryAcquireOrRenew("coordinator", "replica-a", std::chrono::seconds(30));
  ASSERT_TRUE(renewed.has_value());
  EXPECT_EQ(renewed->holder, "replica-a");
  EXPECT_EQ(renewed->epoch, 1);
  EXPECT_GE(renewed->expires_at, a->expires_at);

  auto got = other->GetLease("coordinator");
  ASSERT_TRUE(got.has_value() && got->has_value());
  EXPECT_EQ((*got)->holder, "replica-a");
  EXPECT_EQ((*got)->epoch, 1);
  EXPECT_EQ((*got)->expires_at, renewed->expires_at);

  // Leases are independent by name.
  auto maintenance = other->TryAcquireOrRenew("other-work", "replica-b", std::chrono::seconds(30));
  ASSERT_TRUE(maintenance.has_value());
  EXPECT_EQ(maintenance->holder, "replica-b");
}

TEST_P(LeaseStoreConformance, AnExpiredLeaseIsTakenOverWithTheNextEpoch) {
  const std::chrono::milliseconds ttl(300);
  std::unique_ptr<MetadataStore> other = OpenAnother();
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(leases().TryAcquireOrRenew("coordinator", "replica-a", ttl).has_value());
  LetExpire(ttl);
  auto b = other->TryAcquireOrRenew("coordinator", "replica-b", std::chrono::seconds(30));
  ASSERT_TRUE(b.has_value()) << b.error().ToString();
  EXPECT_EQ(b->holder, "replica-b");
  EXPECT_EQ(b->epoch, 2);
  // The old holder, back too late, sees the new one and changes nothing.
  auto late = leases().TryAcquireOrRenew("coordinator", "replica-a", ttl);
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->holder, "replica-b");
  EXPECT_EQ(late->epoch, 2);
  // A holder whose own lease expired untaken gets it back, as a new epoch.
  auto c = leases().TryAcquireOrRenew("solo", "replica-a", ttl);
  ASSERT_TRUE(c.has_value());
  LetExpire(ttl);
  auto again = leases().TryAcquireOrRenew("solo", "replica-a", ttl);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->holder, "replica-a");
  EXPECT_EQ(again->epoch, c->epoch + 1);
}

TEST_P(LeaseStoreConformance, ReleaseFreesTheLeaseAtOnceOnlyForItsHolder) {
  std::unique_ptr<MetadataStore> other = OpenAnother();
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(leases().TryAcquireOrRenew("coordinator", "replica-a", std::chrono::hours(1)));
  // Not the holder: nothing happens.
  ASSERT_TRUE(other->Release("coordinator", "replica-b").ok());
  EXPECT_EQ(other->TryAcquireOrRenew("coordinator", "replica-b", std::chrono::hours(1))->holder,
            "replica-a");
  ASSERT_TRUE(leases().Release("coordinator", "replica-a").ok());
  auto released = other->GetLease("coordinator");
  ASSERT_TRUE(released.has_value() && released->has_value());
  EXPECT_EQ((*released)->holder, "");
  auto b = other->TryAcquireOrRenew("coordinator", "replica-b", std::chrono::hours(1));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->holder, "replica-b");
  EXPECT_EQ(b->epoch, 2);
  // Releasing a lease that never existed is not an error.
  EXPECT_TRUE(leases().Release("never", "replica-a").ok());
}

TEST_P(LeaseStoreConformance, RacingReplicasNeverBothHoldIt) {
  constexpr int kReplicas = 4;
  std::vector<std::unique_ptr<MetadataStore>> stores;
  for (int i = 0; i < kReplicas; ++i) {
    stores.push_back(OpenAnother());
    ASSERT_NE(stores.back(), nullptr);
  }
  for (int round = 0; round < 5; ++round) {
    const std::string name = "race-" + std::to_string(round);
    std::vector<Result<Lease>> results(kReplicas, Err(Internal("not run")));
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < kReplicas; ++i) {
      threads.emplace_back([&, i] {
        while (!go.load()) std::this_thread::yield();
        results[i] = stores[i]->TryAcquireOrRenew(name, "replica-" + std::to_string(i),
                                                  std::chrono::seconds(30));
      });
    }
    go = true;
    for (std::thread& t : threads) t.join();
    auto stored = leases().GetLease(name);
    ASSERT_TRUE(stored.has_value() && stored->has_value());
    int winners = 0;
    for (int i = 0; i < kReplicas; ++i) {
      if (!results[i].has_value()) {
        // A lost race may only ever be reported as retryable.
        EXPECT_EQ(results[i].error().code(), StatusCode::kUnavailable);
        continue;
      }
      EXPECT_EQ(results[i]->holder, (*stored)->holder);
      if (results[i]->holder == "replica-" + std::to_string(i)) ++winners;
    }
    EXPECT_EQ(winners, 1) << name;
    EXPECT_EQ((*stored)->epoch, 1);
  }
}

TEST_P(LeaseStoreConformance, BadArgumentsAreRefused) {
  EXPECT_EQ(leases().TryAcquireOrRenew("", "a", std::chrono::seconds(1)).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(leases().TryAcquireOrRenew("x", "", std::chrono::seconds(1)).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(leases().TryAcquireOrRenew("x", "a", std::chrono::seconds(0)).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(leases().Release("", "a").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(leases().GetLease("").error().code(), StatusCode::kInvalidArgument);
}

}  // namespace st::catalog::conformance
