// Shared by the delivery runtime's tests: a real SQLite catalog, table
// commit engine and local object store (behind a FaultyObjectStore that
// passes everything until a test injects faults), with fake Kafka, record
// format and authorizer.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "catalog/sqlite_metadata_store.h"
#include "delivery/channel_worker.h"
#include "delivery/delivery_service.h"
#include "delivery_fakes.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"
#include "storage/local_object_store.h"
#include "testing/faulty_object_store.h"

namespace st::delivery {

using catalog::ChannelStatus;
using namespace std::chrono_literals;

constexpr const char* kAccount = "111122223333";
constexpr const char* kRegion = "us-east-1";
constexpr const char* kRole = "arn:aws:iam::111122223333:role/channel-role";

class DeliveryFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-delivery-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = catalog::OpenSqliteMetadataStore({dir_ + "/catalog.db"}, clock_, random_);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = *std::move(store);
    std::filesystem::create_directories(dir_ + "/objects");
    auto objects = storage::OpenLocalObjectStore(dir_ + "/objects");
    ASSERT_TRUE(objects.has_value());
    objects_ = *std::move(objects);
    faulty_ = std::make_unique<fault_injection::FaultyObjectStore>(*objects_);
    commits_ = std::make_unique<catalog::TableCommits>(*store_, *faulty_, clock_, random_);
    (void)store_->CreateAccount(kAccount);
    auto bucket = store_->CreateTableBucket({kAccount, kRegion, "bucket1", {}});
    ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
    bucket_arn_ = bucket->arn;
    ASSERT_TRUE(store_->CreateGeneralPurposeBucket(kAccount, kRegion, "dlq").has_value());
    auto cluster = store_->CreateKafkaCluster({kAccount, kRegion, "local", "127.0.0.1:9", {}});
    ASSERT_TRUE(cluster.has_value()) << cluster.error().ToString();
    cluster_ = *cluster;
  }
  void TearDown() override {
    service_.reset();
    commits_.reset();
    faulty_.reset();
    objects_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::string ConfigJson(bool dlq_topic = false) {
    nlohmann::json iceberg = {
        {"appendOnly", true},
        {"serviceExecutionRoleArn", kRole},
        {"dataFreshnessInSeconds", freshness_seconds_},
        {"catalog", {{"warehouseLocation", bucket_arn_}}},
        {"deadLetterQueueS3",
         {{"bucketArn", "arn:aws:s3:::dlq"}, {"errorOutputPrefix", "errors/"}}},
        {"destinationTableList",
         {{{"destinationDatabaseName", "events"},
           {"destinationTableName", "orders"},
           {"partitionSpec", {{"partitionStrategy", "TIME_HOUR"}}}}}},
        {"compressionType", "ZSTD"}};
    if (dlq_topic) iceberg["deadLetterTopic"] = {{"topicName", "orders-dlq"}};
    nlohmann::json body = {
        {"channelName", "orders-ch"},
        {"topicConfigurationList",
         {{{"topicArn", "arn:aws:kafka:us-east-1:111122223333:topic/local/u/orders"},
           {"recordConverter", {{"valueConverter", "JSON"}}},
           {"recordSchema", {{"gsrArn", "arn:aws:glue:us-east-1:111122223333:schema/r/s"}}}}}},
        {"icebergDestinationConfiguration", iceberg}};
    return body.dump();
  }

  catalog::Channel MakeChannel(bool dlq_topic = false) {
    auto channel = store_->CreateChannel(
        {cluster_.arn, kAccount, "orders-ch", "orders", ConfigJson(dlq_topic)});
    EXPECT_TRUE(channel.has_value()) << channel.error().ToString();
    return *channel;
  }

  DeliveryService& Service() {
    if (!service_) {
      DeliveryService::Options options;
      options.poll_timeout = 5ms;
      options.max_backoff = 50ms;
      service_ = std::make_unique<DeliveryService>(
          DeliveryService::Deps{*store_, *commits_, *faulty_, authorizer_, clock_, random_, kRegion,
                                "", logger_, kafka_, format_},
          options);
    }
    return *service_;
  }

  catalog::Channel Get(const std::string& arn) {
    auto channel = store_->GetChannel(arn);
    EXPECT_TRUE(channel.has_value()) << channel.error().ToString();
    return *channel;
  }

  // Polls `done` for up to 15 s.
  template <typename F>
  bool WaitFor(F done) {
    auto deadline = std::chrono::steady_clock::now() + 15s;
    while (std::chrono::steady_clock::now() < deadline) {
      if (done()) return true;
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }

  catalog::NextOffsets Offsets(const std::string& arn) {
    auto offsets = store_->GetChannelOffsets(arn);
    return offsets.has_value() ? *offsets : catalog::NextOffsets{};
  }

  // Every data file of the table's current snapshot (live entries).
  std::vector<iceberg::DataFile> LiveDataFiles(const std::string& table_id) {
    std::vector<iceberg::DataFile> out;
    auto loaded = commits_->LoadTable(table_id);
    EXPECT_TRUE(loaded.has_value()) << loaded.error().ToString();
    if (!loaded.has_value() || !loaded->metadata.has_value()) return out;
    const iceberg::Snapshot* current = loaded->metadata->metadata.CurrentSnapshot();
    if (current == nullptr) return out;
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, "");
    auto manifests = iceberg::ReadManifestList(io, current->manifest_list);
    EXPECT_TRUE(manifests.has_value()) << manifests.error().ToString();
    if (!manifests.has_value()) return out;
    for (const iceberg::ManifestFile& manifest : *manifests) {
      auto read = iceberg::ReadManifest(io, manifest);
      EXPECT_TRUE(read.has_value()) << read.error().ToString();
      if (!read.has_value()) continue;
      for (const iceberg::ManifestEntry& entry : read->entries) {
        if (entry.status != iceberg::ManifestEntryStatus::kDeleted) out.push_back(entry.data_file);
      }
    }
    return out;
  }

  // How often each "<partition>:<offset>" occurs in the table's live data
  // files (FakeWriter writes one line per row).
  std::map<std::string, int> DeliveredRows(const std::string& table_id) {
    std::map<std::string, int> seen;
    auto loaded = commits_->LoadTable(table_id);
    if (!loaded.has_value()) return seen;
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, "");
    for (const iceberg::DataFile& file : LiveDataFiles(table_id)) {
      auto body = io.Read(file.file_path);
      EXPECT_TRUE(body.has_value()) << file.file_path;
      if (!body.has_value()) continue;
      size_t start = 0;
      while (start < body->size()) {
        size_t end = body->find('\n', start);
        seen[body->substr(start, end - start)] += 1;
        start = end + 1;
      }
    }
    return seen;
  }

  int freshness_seconds_ = 1;
  std::string dir_;
  SystemClock clock_;
  DefaultRandom random_{7};
  NullLogger logger_;
  std::unique_ptr<catalog::MetadataStore> store_;
  std::unique_ptr<storage::ObjectStore> objects_;
  // What the catalog and delivery write through.
  std::unique_ptr<fault_injection::FaultyObjectStore> faulty_;
  std::unique_ptr<catalog::TableCommits> commits_;
  std::string bucket_arn_;
  catalog::KafkaCluster cluster_;
  testing::FakeTopic topic_{2};
  testing::FakeKafka kafka_{topic_};
  testing::FakeFormat format_;
  testing::FakeAuthorizer authorizer_;
  std::unique_ptr<DeliveryService> service_;
};

}  // namespace st::delivery
