// Test fixture: a real SQLite catalog, a local object store, the commit
// engine over them, a manual clock, and a table with N appended snapshots
// whose data files exist as objects.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "auth/authorizer.h"
#include "catalog/id_generation.h"
#include "catalog/sqlite_metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/logger.h"
#include "common/random.h"
#include "common/value.h"
#include "iceberg/append.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"
#include "storage/local_object_store.h"

namespace st::maintenance {

inline constexpr const char* kAccount = "111122223333";
inline constexpr const char* kRegion = "us-east-1";
inline constexpr const char* kKeyRoot = "";

// Allows or denies everything, explicitly or not, and counts its calls.
class FakeAuthorizer final : public auth::Authorizer {
 public:
  enum class Mode { kAllow, kImplicitDeny, kExplicitDeny };
  Mode mode = Mode::kImplicitDeny;
  mutable std::vector<std::string> seen;  // "principal action resource"
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal& principal,
                                       const auth::AccessRequest& access) const override {
    seen.push_back(principal.service + " " + access.action + " " + access.resource);
    return auth::AuthDecision{mode == Mode::kAllow, "decided by the fake",
                              mode == Mode::kExplicitDeny};
  }
};

class MaintenanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-maint-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = catalog::OpenSqliteMetadataStore({dir_ + "/catalog.db"}, clock_, random_);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = *std::move(store);
    auto objects = storage::OpenLocalObjectStore(dir_ + "/objects");
    ASSERT_TRUE(objects.has_value());
    objects_ = *std::move(objects);
    commits_ = std::make_unique<catalog::TableCommits>(*store_, *objects_, clock_, random_,
                                                       catalog::TableCommitsOptions{kKeyRoot, 4});
    ASSERT_TRUE(store_->CreateAccount(kAccount).ok());
    auto bucket = store_->CreateTableBucket({kAccount, kRegion, "bucket1", {}});
    ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
    bucket_ = *bucket;
    ASSERT_TRUE(store_->CreateNamespace(bucket_.arn, "ns", kAccount).has_value());
  }
  void TearDown() override {
    commits_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  catalog::Table MakeTable(const std::string& name,
                           std::optional<std::string> channel = std::nullopt) {
    auto schema = iceberg::Schema::Make(0, {{1, "id", true, iceberg::Type::Long(), ""}});
    EXPECT_TRUE(schema.has_value());
    catalog::InitialMetadata metadata{
        *schema, iceberg::PartitionSpec::Unpartitioned(), iceberg::SortOrder::Unsorted(), {}};
    auto created = commits_->CreateTable(
        catalog::NewTable{bucket_.arn, "ns", name, kAccount, std::move(channel), std::nullopt},
        metadata);
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return created->table;
  }

  // One append of one data file (written as an object of `bytes` bytes), an
  // hour after the previous one. Returns the data file's URI.
  std::string Append(const catalog::Table& table, size_t bytes = 100) {
    clock_.Advance(std::chrono::hours(1));
    auto loaded = commits_->LoadTable(table.table_id);
    EXPECT_TRUE(loaded.has_value());
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, kKeyRoot);
    iceberg::DataFile file;
    file.file_path =
        table.warehouse_location + "/data/f" + std::to_string(next_file_++) + ".parquet";
    file.partition = Value::MakeStruct({});
    file.record_count = 10;
    file.file_size_in_bytes = static_cast<int64_t>(bytes);
    EXPECT_TRUE(io.Write(file.file_path, std::string(bytes, 'x')).ok());
    iceberg::OperationContext op{io, clock_, random_};
    auto snapshot = iceberg::FastAppend(loaded->metadata->metadata, {file}, {}, op);
    EXPECT_TRUE(snapshot.has_value()) << snapshot.error().ToString();
    catalog::CommitOptions options;
    options.account_id = kAccount;
    options.acting_channel = table.managed_by_channel;
    auto committed =
        commits_->CommitTable(table.table_id, snapshot->requirements, snapshot->updates, options);
    EXPECT_TRUE(committed.has_value()) << committed.error().ToString();
    return file.file_path;
  }

  bool Exists(const catalog::Table& table, const std::string& uri) {
    iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
    auto exists = io.Exists(uri);
    return exists.has_value() && *exists;
  }

  iceberg::TableMetadata Current(const catalog::Table& table) {
    auto loaded = commits_->LoadTable(table.table_id);
    EXPECT_TRUE(loaded.has_value());
    return loaded->metadata->metadata;
  }

  std::string dir_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::hours(480000))};
  DefaultRandom random_{7};
  std::unique_ptr<catalog::MetadataStore> store_;
  std::unique_ptr<storage::ObjectStore> objects_;
  std::unique_ptr<catalog::TableCommits> commits_;
  catalog::TableBucket bucket_;
  int next_file_ = 0;
};

}  // namespace st::maintenance
