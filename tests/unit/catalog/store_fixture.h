// Test fixture: a fresh SQLite catalog in a temporary directory, a manual
// clock and seeded randomness, plus a bucket/namespace factory.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "catalog/metadata_store.h"
#include "catalog/sqlite_metadata_store.h"
#include "common/clock.h"
#include "common/random.h"

namespace st::catalog {

inline constexpr const char* kAccount = "111122223333";
inline constexpr const char* kRegion = "us-east-1";

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-catalog-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    store_ = Open();
    ASSERT_NE(store_, nullptr);
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::string DbPath() const { return dir_ + "/catalog.db"; }

  // Another store on the same database file (as a second process would have).
  std::unique_ptr<MetadataStore> Open() {
    auto store = OpenSqliteMetadataStore({DbPath()}, clock_, random_);
    EXPECT_TRUE(store.has_value()) << store.error().ToString();
    return store.has_value() ? *std::move(store) : nullptr;
  }

  TableBucket MakeBucket(const std::string& name) {
    auto bucket = store_->CreateTableBucket({kAccount, kRegion, name, {}});
    EXPECT_TRUE(bucket.has_value()) << bucket.error().ToString();
    return *bucket;
  }

  // A bucket "b-<suffix>" with namespace "ns", and a table "t" in it.
  Table MakeTable(const std::string& bucket_name = "bucket1", const std::string& table = "t",
                  std::optional<std::string> channel = std::nullopt) {
    auto bucket = store_->GetTableBucket(TableBucketArn(bucket_name));
    if (!bucket.has_value()) bucket = MakeBucket(bucket_name);
    if (!store_->GetNamespace(bucket->arn, "ns").has_value()) {
      EXPECT_TRUE(store_->CreateNamespace(bucket->arn, "ns", kAccount).has_value());
    }
    auto created = store_->CreateTable({bucket->arn, "ns", table, kAccount, channel, {}});
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return *created;
  }

  static std::string TableBucketArn(const std::string& name) {
    return "arn:aws:s3tables:us-east-1:111122223333:bucket/" + name;
  }

  std::string dir_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1733250000))};
  DefaultRandom random_{42};
  std::unique_ptr<MetadataStore> store_;
};

}  // namespace st::catalog
