// Workers of one channel on several replicas (issue 13 item 4): incremental
// revokes commit the batch and keep the retained partitions' rows without a
// re-read; a revoke whose commit is fenced by the partition's new owner drops
// the batch and re-reads only from the catalog; two workers committing to
// one table at once re-apply their commits on the moved table.
#include <deque>

#include "delivery/channel_worker.h"
#include "delivery_group_fakes.h"
#include "delivery_test_fixture.h"

namespace st::delivery {
namespace {

class ChannelWorkerRebalanceTest : public DeliveryFixture {
 protected:
  void TearDown() override {
    replicas_.clear();  // The workers use the fixture's catalog.
    DeliveryFixture::TearDown();
  }

  struct Replica {
    std::unique_ptr<DeliveryContext> context;
    std::shared_ptr<ChannelMetrics> metrics;
    std::unique_ptr<ChannelWorker> worker;
    std::string instance_id;
  };

  // A channel whose offsets start at the (empty) topic's beginning, as the
  // reconciler leaves it when it goes ACTIVE.
  catalog::Channel MakeActiveChannel() {
    catalog::Channel channel = MakeChannel();
    Status init = store_->InitChannelOffsets(channel.arn, topic4_.Ends(), 0);
    EXPECT_TRUE(init.ok()) << init.ToString();
    return channel;
  }

  // Partitions 0 and 1 of the channel's catalog offsets.
  std::pair<int64_t, int64_t> First2(const std::string& arn) {
    catalog::NextOffsets offsets = Offsets(arn);
    return {offsets[0], offsets[1]};
  }

  Replica& StartReplica(const catalog::Channel& channel, const std::string& replica_id,
                        int64_t buffer_budget_bytes = 64LL << 20) {
    auto config =
        catalog::ParseChannelConfig(channel.configuration_json, catalog::ChannelDocument::kStored);
    EXPECT_TRUE(config.has_value()) << config.error().ToString();
    Replica& r = replicas_.emplace_back();
    r.context = std::make_unique<DeliveryContext>(
        DeliveryContext{*store_, *commits_, *faulty_, group_, format_, authorizer_, clock_, random_,
                        "", log_, replica_id});
    r.metrics = std::make_shared<ChannelMetrics>();
    WorkerOptions options;
    options.buffer_budget_bytes = buffer_budget_bytes;
    options.poll_timeout = 2ms;
    options.max_backoff = 50ms;
    r.worker =
        std::make_unique<ChannelWorker>(*r.context, options, channel, *config, cluster_, r.metrics);
    r.instance_id = "streamtables-" + channel.channel_id + "-" + replica_id;
    r.worker->RunOnce();  // Joins: makes its group member.
    EXPECT_NE(group_.Member(r.instance_id), nullptr);
    return r;
  }

  // Replica "a" with partitions 0 and 1, five uncommitted records of each read.
  Replica& ReplicaHoldingFiveOfPartitions01(const catalog::Channel& channel) {
    Produce(0, 5);
    Produce(1, 5);
    Replica& a = StartReplica(channel, "a");
    MemberOf(a).Assign({0, 1});
    Drive(a, 20);
    return a;
  }

  testing::GroupMember& MemberOf(const Replica& r) { return *group_.Member(r.instance_id); }

  static void Drive(Replica& r, int polls) {
    for (int i = 0; i < polls; ++i) r.worker->RunOnce();
  }

  void Produce(int partition, int count) {
    for (int i = 0; i < count; ++i) topic4_.Produce(partition, "r" + std::to_string(i));
  }

  // Every offset below the topic's ends is in the table exactly once.
  void ExpectExactlyOnce(const std::string& arn) {
    const std::string table_id = Get(arn).table_id;
    ASSERT_FALSE(table_id.empty());
    std::map<std::string, int> rows = DeliveredRows(table_id);
    size_t expected = 0;
    for (const auto& [partition, end] : topic4_.Ends()) {
      for (int64_t offset = 0; offset < end; ++offset) {
        const std::string key = std::to_string(partition) + ":" + std::to_string(offset);
        EXPECT_EQ(rows.count(key) ? rows[key] : 0, 1) << "row " << key;
        ++expected;
      }
    }
    EXPECT_EQ(rows.size(), expected);
  }

  JsonLinesLogger log_{stderr, LogLevel::kWarn, clock_};
  testing::FakeTopic topic4_{4};
  testing::GroupKafka group_{topic4_};
  std::deque<Replica> replicas_;
};

TEST_F(ChannelWorkerRebalanceTest, AnIncrementalRevokeCommitsTheBatchAndKeepsTheOtherPartitions) {
  freshness_seconds_ = 600;  // Only the revokes commit.
  catalog::Channel channel = MakeActiveChannel();
  Replica& a = ReplicaHoldingFiveOfPartitions01(channel);
  EXPECT_EQ(First2(channel.arn), std::make_pair(int64_t{0}, int64_t{0}));

  // Partition 1 moves away: the batch (both partitions) commits first.
  MemberOf(a).Revoke({1});
  Drive(a, 1);
  EXPECT_EQ(First2(channel.arn), std::make_pair(int64_t{5}, int64_t{5}));
  EXPECT_EQ(a.metrics->revoke_commits.load(), 1);

  // Partition 0 goes on where it was, partition 1 comes back at the catalog's offset.
  Produce(0, 5);
  Produce(1, 5);
  Drive(a, 10);
  MemberOf(a).Assign({1});
  Drive(a, 10);
  MemberOf(a).Revoke({0, 1});
  Drive(a, 1);
  EXPECT_EQ(First2(channel.arn), std::make_pair(int64_t{10}, int64_t{10}));
  EXPECT_TRUE(MemberOf(a).seeks().empty()) << "a retained partition was re-read";
  EXPECT_EQ(a.metrics->revoke_commits.load(), 2);
  a.worker->Stop();
  ExpectExactlyOnce(channel.arn);
}

TEST_F(ChannelWorkerRebalanceTest, ARevokeFencedByTheNewOwnerDropsTheBatchAndRereadsTheRest) {
  freshness_seconds_ = 600;
  catalog::Channel channel = MakeActiveChannel();
  Replica& a = ReplicaHoldingFiveOfPartitions01(channel);

  // Replica b got partition 1 and committed it before a heard of the
  // revoke (a is its zombie for partition 1).
  Replica& b = StartReplica(channel, "b");
  MemberOf(b).Assign({1});
  Drive(b, 10);
  MemberOf(b).Revoke({1});
  Drive(b, 1);
  EXPECT_EQ(Offsets(channel.arn)[1], 5);

  // a's revoke commit is refused by the fence: nothing of a's batch lands,
  // partition 0 is re-read from its catalog offset.
  MemberOf(a).Revoke({1});
  Drive(a, 2);
  EXPECT_EQ(Offsets(channel.arn)[0], 0);
  EXPECT_EQ(MemberOf(a).seeks(), std::vector<std::string>{"0@0"});
  Drive(a, 10);
  MemberOf(a).Revoke({0});
  Drive(a, 1);
  EXPECT_EQ(First2(channel.arn), std::make_pair(int64_t{5}, int64_t{5}));
  a.worker->Stop();
  b.worker->Stop();
  ExpectExactlyOnce(channel.arn);
}

TEST_F(ChannelWorkerRebalanceTest, TwoReplicasCommittingToOneTableReapplyOnTheMovedTable) {
  freshness_seconds_ = 600;
  catalog::Channel channel = MakeActiveChannel();
  for (int p = 0; p < 4; ++p) Produce(p, 60);
  // Five rows (10 bytes each in the fake writer) fill the buffer: both
  // workers commit as fast as they can, so their commits collide.
  Replica& a = StartReplica(channel, "a", 50);
  MemberOf(a).Assign({0, 1});
  Drive(a, 3);  // Creates the table.
  Replica& b = StartReplica(channel, "b", 50);
  MemberOf(b).Assign({2, 3});
  a.worker->Start();
  b.worker->Start();
  ASSERT_TRUE(WaitFor([&] { return Offsets(channel.arn) == topic4_.Ends(); }))
      << "offsets stuck at " << Offsets(channel.arn)[0] << "/" << Offsets(channel.arn)[2];
  a.worker->Stop();
  b.worker->Stop();
  EXPECT_FALSE(a.worker->fault().has_value());
  EXPECT_FALSE(b.worker->fault().has_value());
  EXPECT_GT(a.metrics->commits.load(), 10);
  EXPECT_GT(b.metrics->commits.load(), 10);
  EXPECT_GT(a.metrics->commit_retries.load() + b.metrics->commit_retries.load(), 0)
      << "the commits never collided";
  ExpectExactlyOnce(channel.arn);
}

}  // namespace
}  // namespace st::delivery
