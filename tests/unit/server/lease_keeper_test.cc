// LeaseKeeper on a real SQLite catalog: two keepers stand for two replicas
// on one database. The store's clock is the database's clock (SQLite), the
// keepers' steady clock is a manual one, so expiry and the local renew
// deadline are stepped exactly. The one fake is a LeaseStore wrapper that
// can make the catalog unreachable, a fault SQLite on a local file cannot
// produce on demand.
#include "server/lease_keeper.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <thread>

#include "catalog/sqlite_metadata_store.h"
#include "common/clock.h"
#include "common/logger.h"
#include "common/random.h"

namespace st::server {
namespace {

using std::chrono::seconds;

class UnreachableSwitch final : public catalog::LeaseStore {
 public:
  explicit UnreachableSwitch(catalog::LeaseStore& real) : real_(real) {}
  Result<catalog::Lease> TryAcquireOrRenew(const std::string& name, const std::string& holder,
                                           std::chrono::milliseconds ttl) override {
    if (down) return Err(StatusCode::kUnavailable, "catalog unreachable");
    return real_.TryAcquireOrRenew(name, holder, ttl);
  }
  Status Release(const std::string& name, const std::string& holder) override {
    if (down) return Status(StatusCode::kUnavailable, "catalog unreachable");
    return real_.Release(name, holder);
  }
  Result<std::optional<catalog::Lease>> GetLease(const std::string& name) override {
    return real_.GetLease(name);
  }
  bool down = false;

 private:
  catalog::LeaseStore& real_;
};

class LeaseKeeperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-lease-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = catalog::OpenSqliteMetadataStore({dir_ + "/catalog.db"}, db_clock_, random_);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = *std::move(store);
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  LeaseKeeperOptions Options() {
    LeaseKeeperOptions options;
    options.now = [this] { return steady_; };
    return options;
  }
  // Both clocks move together, as real time does.
  void Advance(std::chrono::milliseconds d) {
    steady_ += d;
    db_clock_.Advance(d);
  }

  std::string dir_;
  ManualClock db_clock_{std::chrono::system_clock::time_point(seconds(1733250000))};
  std::chrono::steady_clock::time_point steady_{seconds(1000)};
  DefaultRandom random_{7};
  NullLogger logger_;
  std::unique_ptr<catalog::MetadataStore> store_;
};

TEST_F(LeaseKeeperTest, OneLeaderAndCleanStopHandsOverAtOnce) {
  LeaseKeeper a(*store_, "replica-a", logger_, Options());
  LeaseKeeper b(*store_, "replica-b", logger_, Options());
  a.TickOnce();
  b.TickOnce();
  EXPECT_TRUE(a.IsLeader());
  EXPECT_FALSE(b.IsLeader());
  EXPECT_EQ(a.epoch(), 1);
  EXPECT_EQ(b.epoch(), 0);
  EXPECT_NE(a.MetricsText().find("streamtables_lease_holder{lease=\"coordinator\"} 1\n"),
            std::string::npos);
  EXPECT_NE(b.MetricsText().find("streamtables_lease_holder{lease=\"coordinator\"} 0\n"),
            std::string::npos);

  // Renewals keep it for a; b keeps failing to take it.
  for (int i = 0; i < 5; ++i) {
    Advance(std::chrono::seconds(5));
    a.TickOnce();
    b.TickOnce();
    EXPECT_TRUE(a.IsLeader());
    EXPECT_FALSE(b.IsLeader());
  }
  a.Stop();  // Releases: no TTL to wait for.
  EXPECT_FALSE(a.IsLeader());
  b.TickOnce();
  EXPECT_TRUE(b.IsLeader());
  EXPECT_EQ(b.epoch(), 2);
}

TEST_F(LeaseKeeperTest, AHolderThatCannotRenewStopsLeadingBeforeAnotherCanTakeOver) {
  UnreachableSwitch cut(*store_);
  LeaseKeeper a(cut, "replica-a", logger_, Options());
  LeaseKeeper b(*store_, "replica-b", logger_, Options());
  a.TickOnce();
  ASSERT_TRUE(a.IsLeader());
  cut.down = true;
  // Until renew_deadline (10 s) after the last good renewal a still leads.
  for (int t = 5; t <= 20; t += 5) {
    Advance(std::chrono::seconds(5));
    a.TickOnce();
    b.TickOnce();
    // Never both.
    EXPECT_FALSE(a.IsLeader() && b.IsLeader()) << "at " << t << " s";
    EXPECT_EQ(a.IsLeader(), t < 10) << "at " << t << " s";
    // The lease (TTL 15 s on the database's clock) is a's until 15 s.
    EXPECT_EQ(b.IsLeader(), t >= 15) << "at " << t << " s";
  }
  // b took over after the TTL, with the next epoch.
  EXPECT_TRUE(b.IsLeader());
  EXPECT_EQ(b.epoch(), 2);
  // a's catalog is back: it sees b and does not lead.
  cut.down = false;
  a.TickOnce();
  EXPECT_FALSE(a.IsLeader());
}

TEST_F(LeaseKeeperTest, TheThreadRenewsAndStopReleases) {
  LeaseKeeperOptions options;  // Real steady clock.
  options.renew_interval = std::chrono::milliseconds(20);
  LeaseKeeper a(*store_, "replica-a", logger_, options);
  a.Start();
  EXPECT_TRUE(a.IsLeader());  // Start's first attempt is synchronous.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(a.IsLeader());
  a.Stop();
  auto lease = store_->GetLease("coordinator");
  ASSERT_TRUE(lease.has_value() && lease->has_value());
  EXPECT_EQ((*lease)->holder, "");
}

TEST(LeaseMetrics, TextNamesTheLease) {
  const std::string text = LeaseMetricsText("coordinator", true, 3);
  EXPECT_NE(text.find("streamtables_lease_holder{lease=\"coordinator\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("streamtables_lease_epoch{lease=\"coordinator\"} 3\n"), std::string::npos);
}

}  // namespace
}  // namespace st::server
