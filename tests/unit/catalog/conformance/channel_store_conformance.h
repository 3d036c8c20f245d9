// ChannelStore, ChannelOffsetStore, KafkaClusterStore and
// GeneralPurposeBucketStore conformance (channel_store.h,
// channel_offset_store.h, kafka_cluster_store.h,
// general_purpose_bucket_store.h).
#pragma once

#include "catalog/channel_offset_store.h"
#include "catalog/channel_store.h"
#include "catalog/general_purpose_bucket_store.h"
#include "catalog/kafka_cluster_store.h"
#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

class KafkaClusterStoreConformance : public StoreConformance {
 protected:
  KafkaClusterStore& clusters() { return *store_; }
};

TEST_P(KafkaClusterStoreConformance, Lifecycle) {
  KafkaClusterStore& store = clusters();
  auto cluster =
      store.CreateKafkaCluster({kAccount, kRegion, "local", "h:9092", {{"client.id", "st"}}});
  ASSERT_TRUE(cluster.has_value()) << cluster.error().ToString();
  EXPECT_EQ(cluster->arn,
            "arn:aws:kafka:us-east-1:111122223333:cluster/local/" + cluster->cluster_uuid);
  EXPECT_EQ(store.GetKafkaCluster(cluster->arn)->client_properties.at("client.id"), "st");
  EXPECT_EQ(store.CreateKafkaCluster({kAccount, kRegion, "local", "h:1", {}}).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateKafkaCluster({kAccount, kRegion, "x", "", {}}).error().code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.CreateKafkaCluster({kOtherAccount, kRegion, "local", "h:1", {}}).has_value());
  ASSERT_TRUE(store.CreateKafkaCluster({kAccount, kRegion, "another", "h:1", {}}).has_value());
  auto listed = store.ListKafkaClusters(kAccount);
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "another");
  EXPECT_EQ(store.GetKafkaCluster("not-an-arn").error().code(), StatusCode::kInvalidArgument);

  auto channel = store_->CreateChannel({cluster->arn, kAccount, "ch", "orders", "{}"});
  ASSERT_TRUE(channel.has_value());
  EXPECT_EQ(store.DeleteKafkaCluster(cluster->arn).code(), StatusCode::kConflict);
  ASSERT_TRUE(store_->DeleteChannel(channel->arn).ok());
  ASSERT_TRUE(store.DeleteKafkaCluster(cluster->arn).ok());
  EXPECT_EQ(store.GetKafkaCluster(cluster->arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.DeleteKafkaCluster(cluster->arn).code(), StatusCode::kNotFound);
}

class ChannelStoreConformance : public StoreConformance {
 protected:
  ChannelStore& channels() { return *store_; }
};

TEST_P(ChannelStoreConformance, CreateGetList) {
  ChannelStore& store = channels();
  KafkaCluster cluster = MakeCluster();
  // The configuration is kept as the exact text given.
  const std::string config = R"({"b": 2, "a": [1, 2]})";
  auto channel = store.CreateChannel({cluster.arn, kAccount, "orders-ch", "orders", config});
  ASSERT_TRUE(channel.has_value()) << channel.error().ToString();
  EXPECT_EQ(channel->status, ChannelStatus::kCreating);
  EXPECT_EQ(channel->generation, 1);
  ASSERT_TRUE(channel->cluster_operation_arn.has_value());
  auto got = store.GetChannel(channel->arn);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->configuration_json, config);
  EXPECT_EQ(got->topic_name, "orders");
  EXPECT_EQ(store.CreateChannel({cluster.arn, kAccount, "orders-ch", "x", "{}"}).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateChannel({cluster.arn, kOtherAccount, "y", "x", "{}"}).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store.CreateChannel({cluster.arn, kAccount, "bad name", "x", "{}"}).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store.GetChannel("arn:nope").error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.GetChannel(channel->arn + "x").error().code(), StatusCode::kNotFound);

  ASSERT_TRUE(store.CreateChannel({cluster.arn, kAccount, "a-ch", "clicks", "{}"}).has_value());
  auto page = store.ListChannels(cluster.arn, std::nullopt, {"", "", 1});
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->items[0].name, "a-ch");
  auto rest = store.ListChannels(cluster.arn, std::nullopt, {"", page->continuation_token, 1});
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(rest->items.at(0).name, "orders-ch");
  auto by_topic = store.ListChannels(cluster.arn, std::string("clicks"), {});
  ASSERT_TRUE(by_topic.has_value());
  ASSERT_EQ(by_topic->items.size(), 1u);
  EXPECT_EQ(store.ListAllChannels()->size(), 2u);
}

TEST_P(ChannelStoreConformance, UpdateIsCompareAndSwapOnStatus) {
  ChannelStore& store = channels();
  KafkaCluster cluster = MakeCluster();
  auto channel = store.CreateChannel({cluster.arn, kAccount, "ch", "orders", "{}"});
  ASSERT_TRUE(channel.has_value());
  const std::string create_op = *channel->cluster_operation_arn;

  ChannelChange wrong;
  wrong.expected_status = ChannelStatus::kActive;
  wrong.paused = true;
  EXPECT_EQ(store.UpdateChannel(channel->arn, wrong).error().code(), StatusCode::kConflict);
  EXPECT_EQ(store.GetChannel(channel->arn)->generation, 1);  // Nothing changed.

  ChannelChange activate;
  activate.expected_status = ChannelStatus::kCreating;
  activate.status = ChannelStatus::kActive;
  auto active = store.UpdateChannel(channel->arn, activate);
  ASSERT_TRUE(active.has_value()) << active.error().ToString();
  EXPECT_EQ(active->status, ChannelStatus::kActive);
  EXPECT_EQ(active->generation, 2);
  EXPECT_FALSE(active->cluster_operation_arn.has_value());
  auto op = store.GetChannelOperation(create_op);
  ASSERT_TRUE(op.has_value());
  EXPECT_EQ(op->state, "COMPLETED");
  EXPECT_EQ(op->type, "CREATE_CHANNEL");

  ChannelChange configure;
  configure.configuration_json = R"({"new":true})";
  configure.table_id = "some-table";
  auto updated = store.UpdateChannel(channel->arn, configure);
  ASSERT_TRUE(updated.has_value());
  EXPECT_EQ(updated->configuration_json, R"({"new":true})");
  EXPECT_EQ(updated->table_id, "some-table");
  EXPECT_EQ(updated->status, ChannelStatus::kActive);
  EXPECT_EQ(store.UpdateChannel(channel->arn + "x", configure).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store.GetChannelOperation(create_op + "x").error().code(), StatusCode::kNotFound);
}

TEST_P(ChannelStoreConformance, DeleteTakesOffsetsAndTags) {
  ChannelStore& store = channels();
  KafkaCluster cluster = MakeCluster();
  auto channel = store.CreateChannel({cluster.arn, kAccount, "ch", "orders", "{}"});
  ASSERT_TRUE(channel.has_value());
  ASSERT_TRUE(store_->InitChannelOffsets(channel->arn, {{0, 5}}, 0).ok());
  ASSERT_TRUE(store_->TagResource(channel->arn, {{"k", "v"}}).ok());
  ASSERT_TRUE(store.DeleteChannel(channel->arn).ok());
  EXPECT_EQ(store.GetChannel(channel->arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->GetChannelOffsets(channel->arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->ListTags(channel->arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.DeleteChannel(channel->arn).code(), StatusCode::kNotFound);
  auto op = store.GetChannelOperation(*channel->cluster_operation_arn);
  ASSERT_TRUE(op.has_value());
  EXPECT_EQ(op->state, "COMPLETED");
}

class ChannelOffsetStoreConformance : public StoreConformance {
 protected:
  ChannelOffsetStore& offsets() { return *store_; }
  const std::string channel_ = "arn:aws:kafka:us-east-1:111122223333:channel/c/u/ch/id";
};

TEST_P(ChannelOffsetStoreConformance, InitGetDelete) {
  ChannelOffsetStore& store = offsets();
  EXPECT_EQ(store.GetChannelOffsets(channel_).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.GetChannelOffset(channel_, 0).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.InitChannelOffsets(channel_, {{0, -1}}, 0).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.InitChannelOffsets(channel_, {}, -1).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.InitChannelOffsets("", {}, 0).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.InitChannelOffsets(channel_, {{0, 10}, {1, 20}}, 0).ok());
  EXPECT_EQ(store.InitChannelOffsets(channel_, {}, 0).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(store.GetChannelOffsets(channel_).value(), (NextOffsets{{0, 10}, {1, 20}}));
  EXPECT_EQ(store.GetChannelOffset(channel_, 1).value(), 20);
  EXPECT_EQ(store.GetChannelOffset(channel_, 7).value(), 0);  // The default start.
  ASSERT_TRUE(store.DeleteChannelOffsets(channel_).ok());
  ASSERT_TRUE(store.DeleteChannelOffsets(channel_).ok());  // Idempotent.
  EXPECT_EQ(store.GetChannelOffsets(channel_).error().code(), StatusCode::kNotFound);
  ASSERT_TRUE(store.InitChannelOffsets(channel_, {}, 3).ok());  // Starts over.
  EXPECT_EQ(store.GetChannelOffset(channel_, 0).value(), 3);
}

class GeneralPurposeBucketStoreConformance : public StoreConformance {
 protected:
  GeneralPurposeBucketStore& gp_buckets() { return *store_; }
};

TEST_P(GeneralPurposeBucketStoreConformance, Lifecycle) {
  GeneralPurposeBucketStore& store = gp_buckets();
  auto bucket = store.CreateGeneralPurposeBucket(kAccount, kRegion, "dlq-bucket");
  ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
  EXPECT_EQ(bucket->arn, "arn:aws:s3:::dlq-bucket");
  EXPECT_EQ(bucket->owner_account_id, kAccount);
  // Names are global.
  EXPECT_EQ(store.CreateGeneralPurposeBucket(kOtherAccount, kRegion, "dlq-bucket").error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateGeneralPurposeBucket(kAccount, kRegion, "X").error().code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(store.CreateGeneralPurposeBucket(kAccount, kRegion, "another").has_value());
  ASSERT_TRUE(store.CreateGeneralPurposeBucket(kOtherAccount, kRegion, "theirs").has_value());
  auto listed = store.ListGeneralPurposeBuckets(kAccount);
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "another");
  EXPECT_EQ(store.GetGeneralPurposeBucket("dlq-bucket")->owner_account_id, kAccount);
  ASSERT_TRUE(store.DeleteGeneralPurposeBucket("dlq-bucket").ok());
  EXPECT_EQ(store.GetGeneralPurposeBucket("dlq-bucket").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.DeleteGeneralPurposeBucket("dlq-bucket").code(), StatusCode::kNotFound);
}

}  // namespace st::catalog::conformance
