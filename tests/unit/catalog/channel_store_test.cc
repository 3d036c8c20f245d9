// General-purpose buckets, Kafka clusters and delivery channels in the SQLite
// MetadataStore, and their ARN shapes.
#include <gtest/gtest.h>

#include "catalog/arns.h"
#include "catalog/names.h"
#include "store_fixture.h"

namespace st::catalog {
namespace {

using ChannelStoreTest = StoreTest;

TEST_F(ChannelStoreTest, GeneralPurposeBucketCrud) {
  auto bucket = store_->CreateGeneralPurposeBucket(kAccount, kRegion, "dlq.bucket-1");
  ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
  EXPECT_EQ(bucket->arn, "arn:aws:s3:::dlq.bucket-1");
  EXPECT_EQ(bucket->created_at, clock_.Now());
  EXPECT_EQ(GeneralPurposeBucketKeyPrefix("dlq.bucket-1"), "s3-buckets/dlq.bucket-1/");

  // Names are global: another account cannot take it either.
  EXPECT_EQ(
      store_->CreateGeneralPurposeBucket("999988887777", kRegion, "dlq.bucket-1").error().code(),
      StatusCode::kAlreadyExists);
  for (const char* bad : {"ab", "Upper", "a..b", "192.168.1.1", "xn--abc", "x--table-s3", "-ab"}) {
    EXPECT_EQ(store_->CreateGeneralPurposeBucket(kAccount, kRegion, bad).error().code(),
              StatusCode::kInvalidArgument)
        << bad;
  }
  ASSERT_TRUE(store_->CreateGeneralPurposeBucket(kAccount, kRegion, "aaa").has_value());
  ASSERT_TRUE(store_->CreateGeneralPurposeBucket("999988887777", kRegion, "zzz").has_value());

  auto got = store_->GetGeneralPurposeBucket("dlq.bucket-1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->owner_account_id, kAccount);
  EXPECT_EQ(got->region, kRegion);
  auto mine = store_->ListGeneralPurposeBuckets(kAccount);
  ASSERT_TRUE(mine.has_value());
  ASSERT_EQ(mine->size(), 2u);
  EXPECT_EQ((*mine)[0].name, "aaa");
  EXPECT_EQ((*mine)[1].name, "dlq.bucket-1");

  ASSERT_TRUE(store_->DeleteGeneralPurposeBucket("dlq.bucket-1").ok());
  EXPECT_EQ(store_->GetGeneralPurposeBucket("dlq.bucket-1").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->DeleteGeneralPurposeBucket("dlq.bucket-1").code(), StatusCode::kNotFound);
  // A second store on the same file sees the same rows (migration 2 applied once).
  auto other = Open();
  EXPECT_EQ(other->ListGeneralPurposeBuckets(kAccount)->size(), 1u);
}

TEST(GeneralPurposeBucketArnTest, RoundTrip) {
  EXPECT_EQ(*ParseGeneralPurposeBucketArn("arn:aws:s3:::dlq"), "dlq");
  EXPECT_FALSE(ParseGeneralPurposeBucketArn("arn:aws:s3:::dlq/key").has_value());
  EXPECT_FALSE(ParseGeneralPurposeBucketArn("arn:aws:s3:us-east-1::dlq").has_value());
  EXPECT_FALSE(
      ParseGeneralPurposeBucketArn("arn:aws:s3tables:us-east-1:111122223333:bucket/b").has_value());
}

TEST(KafkaArnTest, BuildAndParse) {
  auto cluster = ParseKafkaClusterArn("arn:aws:kafka:us-east-1:123456789012:cluster/c-1/u-s1");
  ASSERT_TRUE(cluster.has_value()) << cluster.error().ToString();
  EXPECT_EQ(cluster->cluster_name, "c-1");
  EXPECT_EQ(cluster->cluster_uuid, "u-s1");
  EXPECT_EQ(cluster->cluster_arn, "arn:aws:kafka:us-east-1:123456789012:cluster/c-1/u-s1");
  EXPECT_EQ(KafkaClusterArn("us-east-1", "123456789012", "c-1", "u-s1"), cluster->cluster_arn);
  EXPECT_EQ(KafkaTopicArn(*cluster, "orders"),
            "arn:aws:kafka:us-east-1:123456789012:topic/c-1/u-s1/orders");
  EXPECT_EQ(KafkaChannelArn(*cluster, "ch.1", "id1"),
            "arn:aws:kafka:us-east-1:123456789012:channel/c-1/u-s1/ch.1/id1");
  EXPECT_EQ(KafkaClusterOperationArn(*cluster, "op"),
            "arn:aws:kafka:us-east-1:123456789012:cluster-operation/c-1/u-s1/op");

  auto topic = ParseKafkaTopicArn("arn:aws:kafka:us-east-1:123456789012:topic/c-1/u-s1/my.topic");
  ASSERT_TRUE(topic.has_value());
  EXPECT_EQ(topic->topic, "my.topic");
  EXPECT_EQ(topic->cluster.cluster_arn, cluster->cluster_arn);
  auto channel = ParseKafkaChannelArn(KafkaChannelArn(*cluster, "ch.1", "id1"));
  ASSERT_TRUE(channel.has_value());
  EXPECT_EQ(channel->channel_name, "ch.1");
  EXPECT_EQ(channel->channel_id, "id1");
  EXPECT_EQ(channel->cluster.cluster_arn, cluster->cluster_arn);
  auto op = ParseKafkaClusterOperationArn(KafkaClusterOperationArn(*cluster, "op"));
  ASSERT_TRUE(op.has_value());
  EXPECT_EQ(op->operation_id, "op");

  for (const char* bad : {
           "arn:aws:kafka:us-east-1:123456789012:cluster/c-1",
           "arn:aws:kafka:us-east-1:123456789012:cluster/c-1/u/extra",
           "arn:aws:kafka:us-east-1:12345:cluster/c-1/u",
           "arn:aws:s3:us-east-1:123456789012:cluster/c-1/u",
           "arn:aws:kafka:us-east-1:123456789012:topic/c-1/u",
       }) {
    EXPECT_FALSE(ParseKafkaClusterArn(bad).has_value()) << bad;
  }
  EXPECT_FALSE(
      ParseKafkaTopicArn("arn:aws:kafka:us-east-1:123456789012:topic/c/u/a/b").has_value());
  EXPECT_FALSE(
      ParseKafkaChannelArn("arn:aws:kafka:us-east-1:123456789012:channel/c/u/name").has_value());
  EXPECT_FALSE(ParseKafkaChannelArn("arn:aws:kafka:us-east-1:123456789012:channel/c/u/bad name/x")
                   .has_value());
}

class KafkaChannelStoreTest : public StoreTest {
 protected:
  KafkaCluster MakeCluster(const std::string& name = "local") {
    auto cluster = store_->CreateKafkaCluster(
        {kAccount, kRegion, name, "localhost:9092", {{"security.protocol", "PLAINTEXT"}}});
    EXPECT_TRUE(cluster.has_value()) << cluster.error().ToString();
    return *cluster;
  }
  Channel MakeChannel(const KafkaCluster& cluster, const std::string& name,
                      const std::string& topic = "orders") {
    auto channel = store_->CreateChannel({cluster.arn, kAccount, name, topic, R"({"a":1})"});
    EXPECT_TRUE(channel.has_value()) << channel.error().ToString();
    return *channel;
  }
};

TEST_F(KafkaChannelStoreTest, ClusterCrud) {
  KafkaCluster cluster = MakeCluster("local");
  EXPECT_EQ(cluster.arn,
            "arn:aws:kafka:us-east-1:111122223333:cluster/local/" + cluster.cluster_uuid);
  EXPECT_EQ(cluster.cluster_uuid.size(), 36u);
  auto got = store_->GetKafkaCluster(cluster.arn);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->bootstrap_servers, "localhost:9092");
  EXPECT_EQ(got->client_properties.at("security.protocol"), "PLAINTEXT");
  EXPECT_EQ(got->created_at, clock_.Now());

  EXPECT_EQ(store_->CreateKafkaCluster({kAccount, kRegion, "local", "h:1", {}}).error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->CreateKafkaCluster({kAccount, kRegion, "bad name", "h:1", {}}).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->CreateKafkaCluster({kAccount, kRegion, "x", "", {}}).error().code(),
            StatusCode::kInvalidArgument);
  // Another account may reuse the name.
  ASSERT_TRUE(
      store_->CreateKafkaCluster({"999988887777", kRegion, "local", "h:1", {}}).has_value());
  MakeCluster("another");
  auto list = store_->ListKafkaClusters(kAccount);
  ASSERT_TRUE(list.has_value());
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].name, "another");

  EXPECT_EQ(store_->GetKafkaCluster("not-an-arn").error().code(), StatusCode::kInvalidArgument);
  Channel channel = MakeChannel(cluster, "ch");
  EXPECT_EQ(store_->DeleteKafkaCluster(cluster.arn).code(), StatusCode::kConflict);
  ASSERT_TRUE(store_->DeleteChannel(channel.arn).ok());
  ASSERT_TRUE(store_->DeleteKafkaCluster(cluster.arn).ok());
  EXPECT_EQ(store_->GetKafkaCluster(cluster.arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->DeleteKafkaCluster(cluster.arn).code(), StatusCode::kNotFound);
}

TEST_F(KafkaChannelStoreTest, ChannelCreateGetDuplicate) {
  KafkaCluster cluster = MakeCluster();
  Channel channel = MakeChannel(cluster, "orders-channel");
  auto parts = ParseKafkaChannelArn(channel.arn);
  ASSERT_TRUE(parts.has_value()) << channel.arn;
  EXPECT_EQ(parts->cluster.cluster_arn, cluster.arn);
  EXPECT_EQ(parts->channel_name, "orders-channel");
  EXPECT_EQ(parts->channel_id, channel.channel_id);
  EXPECT_EQ(channel.status, ChannelStatus::kCreating);
  ASSERT_TRUE(channel.cluster_operation_arn.has_value());
  EXPECT_TRUE(ParseKafkaClusterOperationArn(*channel.cluster_operation_arn).has_value());
  EXPECT_EQ(channel.generation, 1);

  auto got = store_->GetChannel(channel.arn);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->name, "orders-channel");
  EXPECT_EQ(got->topic_name, "orders");
  EXPECT_EQ(got->configuration_json, R"({"a":1})");
  EXPECT_EQ(got->cluster_operation_arn, channel.cluster_operation_arn);
  EXPECT_FALSE(got->state_info.has_value());
  EXPECT_FALSE(got->paused);
  EXPECT_EQ(got->table_id, "");
  EXPECT_EQ(got->created_at, clock_.Now());

  EXPECT_EQ(
      store_->CreateChannel({cluster.arn, kAccount, "orders-channel", "t2", "{}"}).error().code(),
      StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->CreateChannel({cluster.arn, "999988887777", "x", "t", "{}"}).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store_->CreateChannel({cluster.arn, kAccount, "bad name", "t", "{}"}).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->CreateChannel({cluster.arn, kAccount, "x", "t/x", "{}"}).error().code(),
            StatusCode::kInvalidArgument);
  std::string unknown_cluster = KafkaClusterArn(kRegion, kAccount, "nope", "u");
  EXPECT_EQ(store_->CreateChannel({unknown_cluster, kAccount, "x", "t", "{}"}).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store_->GetChannel(channel.arn + "x").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->GetChannel("arn:nope").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(KafkaChannelStoreTest, ListChannelsPagesAndFilters) {
  KafkaCluster cluster = MakeCluster();
  KafkaCluster other = MakeCluster("other");
  for (const char* name : {"e", "a", "c", "d", "b"}) {
    MakeChannel(cluster, name, std::string(name) < "c" ? "t1" : "t2");
  }
  MakeChannel(other, "z");
  std::vector<std::string> names;
  PageRequest page;
  page.limit = 2;
  int pages = 0;
  while (true) {
    auto got = store_->ListChannels(cluster.arn, std::nullopt, page);
    ASSERT_TRUE(got.has_value()) << got.error().ToString();
    ++pages;
    for (const Channel& c : got->items) names.push_back(c.name);
    if (got->continuation_token.empty()) break;
    page.continuation_token = got->continuation_token;
  }
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "d", "e"}));

  auto t2 = store_->ListChannels(cluster.arn, std::string("t2"), PageRequest{});
  ASSERT_TRUE(t2.has_value());
  ASSERT_EQ(t2->items.size(), 3u);
  EXPECT_EQ(t2->items[0].name, "c");
  EXPECT_EQ(store_->ListChannels(cluster.arn, std::string("t"), PageRequest{})->items.size(), 0u);

  // A token from the unfiltered listing is not valid for the filtered one.
  PageRequest first;
  first.limit = 1;
  auto one = store_->ListChannels(cluster.arn, std::nullopt, first);
  ASSERT_FALSE(one->continuation_token.empty());
  first.continuation_token = one->continuation_token;
  EXPECT_EQ(store_->ListChannels(cluster.arn, std::string("t2"), first).error().code(),
            StatusCode::kInvalidArgument);
  PageRequest zero;
  zero.limit = 0;
  EXPECT_EQ(store_->ListChannels(cluster.arn, std::nullopt, zero).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(
      store_
          ->ListChannels(KafkaClusterArn(kRegion, kAccount, "no", "u"), std::nullopt, PageRequest{})
          .error()
          .code(),
      StatusCode::kNotFound);

  auto all = store_->ListAllChannels();
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->size(), 6u);
}

TEST_F(KafkaChannelStoreTest, UpdateChannelCasAndOperationArn) {
  KafkaCluster cluster = MakeCluster();
  Channel channel = MakeChannel(cluster, "ch");

  ChannelChange activate;
  activate.expected_status = ChannelStatus::kCreating;
  activate.status = ChannelStatus::kActive;
  activate.table_id = "table-1";
  auto active = store_->UpdateChannel(channel.arn, activate);
  ASSERT_TRUE(active.has_value()) << active.error().ToString();
  EXPECT_EQ(active->status, ChannelStatus::kActive);
  EXPECT_FALSE(active->cluster_operation_arn.has_value());
  EXPECT_EQ(active->generation, 2);
  EXPECT_EQ(active->table_id, "table-1");

  // The same CAS again loses: nothing changes.
  auto stale = store_->UpdateChannel(channel.arn, activate);
  EXPECT_EQ(stale.error().code(), StatusCode::kConflict);
  EXPECT_EQ(store_->GetChannel(channel.arn)->generation, 2);

  ChannelChange update;
  update.expected_status = ChannelStatus::kActive;
  update.status = ChannelStatus::kUpdating;
  update.configuration_json = R"({"b":2})";
  auto updating = store_->UpdateChannel(channel.arn, update);
  ASSERT_TRUE(updating.has_value());
  ASSERT_TRUE(updating->cluster_operation_arn.has_value());
  EXPECT_NE(updating->cluster_operation_arn, channel.cluster_operation_arn);
  EXPECT_EQ(store_->GetChannel(channel.arn)->configuration_json, R"({"b":2})");

  ChannelChange fail;
  fail.status = ChannelStatus::kFailed;
  fail.state_info = ChannelStateInfo{"ACCESS_DENIED", "role R may not s3tables:PutTableData"};
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, fail).has_value());
  auto failed = store_->GetChannel(channel.arn);
  EXPECT_EQ(failed->status, ChannelStatus::kFailed);
  EXPECT_EQ(failed->state_info,
            (ChannelStateInfo{"ACCESS_DENIED", "role R may not s3tables:PutTableData"}));
  EXPECT_FALSE(failed->cluster_operation_arn.has_value());

  ChannelChange pause;
  pause.paused = true;
  pause.state_info = FieldUpdate<ChannelStateInfo>::Clear();
  auto paused = store_->UpdateChannel(channel.arn, pause);
  ASSERT_TRUE(paused.has_value());
  EXPECT_TRUE(paused->paused);
  EXPECT_FALSE(paused->state_info.has_value());
  EXPECT_EQ(paused->status, ChannelStatus::kFailed);
  EXPECT_EQ(paused->generation, 5);

  ChannelChange empty_config;
  empty_config.configuration_json = "";
  EXPECT_EQ(store_->UpdateChannel(channel.arn, empty_config).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->UpdateChannel(channel.arn + "x", pause).error().code(), StatusCode::kNotFound);
}

// Operations outlive their flight: create → COMPLETED, update → FAILED with
// the channel's reason, delete → COMPLETED after the row is gone.
TEST_F(KafkaChannelStoreTest, ChannelOperationsAreKeptWithHowTheyEnded) {
  KafkaCluster cluster = MakeCluster();
  Channel channel = MakeChannel(cluster, "ch");
  ASSERT_TRUE(channel.cluster_operation_arn.has_value());
  const std::string create_op = *channel.cluster_operation_arn;
  auto pending = store_->GetChannelOperation(create_op);
  ASSERT_TRUE(pending.has_value()) << pending.error().ToString();
  EXPECT_EQ(pending->type, "CREATE_CHANNEL");
  EXPECT_EQ(pending->state, "PENDING");
  EXPECT_EQ(pending->channel_arn, channel.arn);
  EXPECT_EQ(pending->cluster_arn, cluster.arn);
  EXPECT_EQ(pending->owner_account_id, kAccount);
  EXPECT_FALSE(pending->end_time.has_value());

  ChannelChange activate;
  activate.status = ChannelStatus::kActive;
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, activate).has_value());
  auto created = store_->GetChannelOperation(create_op);
  ASSERT_TRUE(created.has_value());
  EXPECT_EQ(created->state, "COMPLETED");
  EXPECT_TRUE(created->end_time.has_value());
  EXPECT_FALSE(created->error.has_value());

  ChannelChange update;
  update.status = ChannelStatus::kUpdating;
  auto updating = store_->UpdateChannel(channel.arn, update);
  ASSERT_TRUE(updating.has_value());
  const std::string update_op = updating->cluster_operation_arn.value();
  EXPECT_EQ(store_->GetChannelOperation(update_op)->type, "UPDATE_CHANNEL");
  ChannelChange fail;
  fail.status = ChannelStatus::kFailed;
  fail.state_info = ChannelStateInfo{"ACCESS_DENIED", "role R may not s3tables:PutTableData"};
  fail.cluster_operation_arn = FieldUpdate<std::string>::Clear();  // As the reconciler clears it.
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, fail).has_value());
  auto failed = store_->GetChannelOperation(update_op);
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->state, "FAILED");
  EXPECT_EQ(failed->error,
            (ChannelStateInfo{"ACCESS_DENIED", "role R may not s3tables:PutTableData"}));
  EXPECT_EQ(store_->GetChannelOperation(create_op)->state, "COMPLETED");

  ChannelChange remove;
  remove.status = ChannelStatus::kDeleting;
  auto deleting = store_->UpdateChannel(channel.arn, remove);
  ASSERT_TRUE(deleting.has_value());
  const std::string delete_op = deleting->cluster_operation_arn.value();
  ASSERT_TRUE(store_->DeleteChannel(channel.arn).ok());
  auto deleted = store_->GetChannelOperation(delete_op);
  ASSERT_TRUE(deleted.has_value());
  EXPECT_EQ(deleted->type, "DELETE_CHANNEL");
  EXPECT_EQ(deleted->state, "COMPLETED");

  EXPECT_EQ(store_->GetChannelOperation(create_op + "x").error().code(), StatusCode::kNotFound);
}

TEST_F(KafkaChannelStoreTest, DeleteChannelRemovesTagsAndOffsets) {
  KafkaCluster cluster = MakeCluster();
  Channel channel = MakeChannel(cluster, "ch");
  ASSERT_TRUE(store_->TagResource(channel.arn, {{"team", "data"}}).ok());
  EXPECT_EQ(store_->ListTags(channel.arn)->at("team"), "data");
  ASSERT_TRUE(store_->TagResource(cluster.arn, {{"env", "dev"}}).ok());
  ASSERT_TRUE(store_->UntagResource(channel.arn, {"team"}).ok());
  EXPECT_TRUE(store_->ListTags(channel.arn)->empty());
  ASSERT_TRUE(store_->TagResource(channel.arn, {{"team", "data"}}).ok());
  ASSERT_TRUE(store_->InitChannelOffsets(channel.arn, {{0, 5}}, 0).ok());

  ASSERT_TRUE(store_->DeleteChannel(channel.arn).ok());
  EXPECT_EQ(store_->GetChannel(channel.arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->GetChannelOffsets(channel.arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->ListTags(channel.arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->DeleteChannel(channel.arn).code(), StatusCode::kNotFound);
  // A same-name channel is a new resource without the old tags.
  Channel again = MakeChannel(cluster, "ch");
  EXPECT_NE(again.arn, channel.arn);
  EXPECT_TRUE(store_->ListTags(again.arn)->empty());
}

}  // namespace
}  // namespace st::catalog
