// The backend conformance suite's fixture: what a MetadataStore backend
// provides to run every per-entity suite (identity_store_conformance.h, ...)
// against itself. A backend's test file includes all_conformance.h and
// instantiates the suites once:
//
//   ST_INSTANTIATE_STORE_CONFORMANCE(Sqlite, [] { return MakeSqliteBackend(); });
//
// Each suite's tests reach the store only through the interface under test
// (setup of prerequisites, such as a bucket for a namespace, uses the
// aggregate); assertions are on the interface's documented contract, never
// on backend details.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/random.h"

namespace st::catalog::conformance {

inline constexpr const char* kAccount = "111122223333";
inline constexpr const char* kOtherAccount = "999988887777";
inline constexpr const char* kRegion = "us-east-1";

// One empty database of the backend under test. Destroying it removes the
// database (after every store opened on it is gone).
class StoreBackend {
 public:
  virtual ~StoreBackend() = default;
  // A store on this database; each call opens another, independent store on
  // the same database, as a second process would. `clock` and `random` must
  // outlive the store.
  virtual Result<std::unique_ptr<MetadataStore>> Open(const Clock& clock, Random& random) = 0;
};

using BackendFactory = std::function<std::unique_ptr<StoreBackend>()>;

class StoreConformance : public ::testing::TestWithParam<BackendFactory> {
 protected:
  void SetUp() override {
    backend_ = GetParam()();
    ASSERT_NE(backend_, nullptr);
    store_ = OpenAnother();
    ASSERT_NE(store_, nullptr);
  }
  void TearDown() override {
    store_.reset();
    backend_.reset();
  }

  std::unique_ptr<MetadataStore> OpenAnother() {
    auto store = backend_->Open(clock_, random_);
    EXPECT_TRUE(store.has_value()) << store.error().ToString();
    return store.has_value() ? *std::move(store) : nullptr;
  }

  static std::string BucketArn(const std::string& name, const std::string& account = kAccount) {
    return "arn:aws:s3tables:us-east-1:" + account + ":bucket/" + name;
  }

  TableBucket MakeBucket(const std::string& name) {
    auto bucket = store_->CreateTableBucket({kAccount, kRegion, name, {}});
    EXPECT_TRUE(bucket.has_value()) << bucket.error().ToString();
    return bucket.has_value() ? *bucket : TableBucket{};
  }

  // Table `table` in namespace "ns" of bucket `bucket_name`, both made when
  // missing.
  Table MakeTable(const std::string& bucket_name = "bucket1", const std::string& table = "t",
                  std::optional<std::string> channel = std::nullopt) {
    auto bucket = store_->GetTableBucket(BucketArn(bucket_name));
    if (!bucket.has_value()) bucket = MakeBucket(bucket_name);
    if (!store_->GetNamespace(bucket->arn, "ns").has_value()) {
      EXPECT_TRUE(store_->CreateNamespace(bucket->arn, "ns", kAccount).has_value());
    }
    auto created = store_->CreateTable({bucket->arn, "ns", table, kAccount, channel, {}});
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return created.has_value() ? *created : Table{};
  }

  KafkaCluster MakeCluster(const std::string& name = "local") {
    auto cluster = store_->CreateKafkaCluster({kAccount, kRegion, name, "localhost:9092", {}});
    EXPECT_TRUE(cluster.has_value()) << cluster.error().ToString();
    return cluster.has_value() ? *cluster : KafkaCluster{};
  }

  std::unique_ptr<StoreBackend> backend_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1733250000))};
  DefaultRandom random_{42};
  std::unique_ptr<MetadataStore> store_;
};

}  // namespace st::catalog::conformance
