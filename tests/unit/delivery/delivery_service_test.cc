// The delivery runtime over a real SQLite catalog, table commit engine and
// local object store, with fake Kafka, record format and authorizer.
#include "delivery/delivery_service.h"

#include <atomic>
#include <optional>

#include "delivery/memory_budget.h"
#include "delivery/prefetch_sizes.h"
#include "delivery_test_fixture.h"

namespace st::delivery {
namespace {

class DeliveryServiceTest : public DeliveryFixture {
 protected:
  // Activates `channel` and delivers one record to partition 1, which makes
  // the channel create its table.
  void DeliverFirstRecord(const catalog::Channel& channel) {
    Service().ReconcileOnce();
    topic_.Produce(1, "x");
    Service().ReconcileOnce();
    ASSERT_TRUE(WaitFor(
        [&] { return !Get(channel.arn).table_id.empty() && Offsets(channel.arn)[1] == 1; }));
  }

  // Activates `channel` with the service's own worker, then stops the
  // service so that the workers a test makes run alone; the channel's stored
  // configuration, which those workers are given.
  std::optional<ChannelConfig> ActivateThenStopService(const catalog::Channel& channel) {
    Service().ReconcileOnce();
    Service().Stop();
    Result<ChannelConfig> config =
        catalog::ParseChannelConfig(channel.configuration_json, catalog::ChannelDocument::kStored);
    EXPECT_TRUE(config.has_value());
    if (!config.has_value()) return std::nullopt;
    return *std::move(config);
  }

  // What the service would give its workers, over this fixture's parts.
  DeliveryContext WorkerContext() {
    return {*store_,     *commits_, *faulty_, kafka_, format_,
            authorizer_, clock_,    random_,  "",     logger_};
  }

  // Short waits, so that a test's RunOnce loops stay fast.
  static WorkerOptions QuickWorkerOptions() {
    WorkerOptions options;
    options.poll_timeout = 1ms;
    options.max_backoff = 20ms;
    return options;
  }
};

TEST_F(DeliveryServiceTest, ActivatesAtEndOffsetsAndDeliversRowsAndDeadLettersOnce) {
  topic_.Produce(0, "before-1");
  topic_.Produce(0, "before-2");
  catalog::Channel channel = MakeChannel(/*dlq_topic=*/true);
  Service().ReconcileOnce();
  catalog::Channel active = Get(channel.arn);
  EXPECT_EQ(active.status, ChannelStatus::kActive);
  EXPECT_FALSE(active.cluster_operation_arn.has_value());
  // No backfill: the channel starts at the end offsets it saw.
  EXPECT_EQ(Offsets(channel.arn), (catalog::NextOffsets{{0, 2}, {1, 0}}));

  topic_.Produce(0, "a");
  topic_.Produce(0, "bad");
  topic_.Produce(0, "b");
  topic_.Produce(1, "c");
  Service().ReconcileOnce();  // Starts the worker.
  ASSERT_TRUE(WaitFor([&] {
    return Offsets(channel.arn) == catalog::NextOffsets{{0, 5}, {1, 1}};
  })) << "offsets never advanced";
  Service().Stop();

  // The table: created by the channel, owned by it, tagged, with one append.
  catalog::Channel after = Get(channel.arn);
  ASSERT_FALSE(after.table_id.empty());
  auto loaded = commits_->LoadTable(after.table_id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ(loaded->table.managed_by_channel, channel.arn);
  EXPECT_EQ(loaded->table.namespace_name, "events");
  EXPECT_EQ(loaded->table.name, "orders");
  auto tags = store_->ListTags(loaded->table.arn);
  ASSERT_TRUE(tags.has_value());
  EXPECT_EQ(tags->at("TableName"), "orders");
  ASSERT_TRUE(loaded->metadata.has_value());
  const auto& snapshots = loaded->metadata->metadata.snapshots;
  int64_t total_rows = 0;
  for (const auto& snapshot : snapshots) {
    total_rows += std::stoll(snapshot.summary.at("added-records"));
    EXPECT_EQ(snapshot.summary.at("streamtables.channel-arn"), channel.arn);
    EXPECT_FALSE(snapshot.summary.at("streamtables.kafka-offsets").empty());
  }
  EXPECT_EQ(total_rows, 3);

  // The failed record: one JSON line in the DLQ bucket and on the DLQ topic.
  auto objects = objects_->List("s3-buckets/dlq/errors/orders-ch/");
  ASSERT_TRUE(objects.has_value());
  ASSERT_EQ(objects->size(), 1u);
  EXPECT_NE(objects->front().key.find(channel.channel_id + "-0-3-3.jsonl"), std::string::npos)
      << objects->front().key;
  auto body = objects_->Get(objects->front().key);
  ASSERT_TRUE(body.has_value());
  auto line = nlohmann::json::parse(body->substr(0, body->find('\n')));
  EXPECT_EQ(line["offset"], 3);
  EXPECT_EQ(line["partition"], 0);
  EXPECT_EQ(line["errorCode"], "MALFORMED_JSON");
  EXPECT_EQ(line["value"], "YmFk");
  EXPECT_EQ(line["channelArn"], channel.arn);
  EXPECT_EQ(kafka_.produced, (std::vector<std::string>{"orders-dlq:bad:MALFORMED_JSON"}));

  // Acting as the service role; the consumer group is the channel's own.
  for (const char* action : {"s3tables:CreateTable", "s3tables:PutTableData",
                             "s3tables:UpdateTableMetadataLocation", "s3:PutObject"}) {
    EXPECT_TRUE(authorizer_.asked.count(std::string(kRole) + " " + action)) << action;
  }
  EXPECT_EQ(kafka_.group_ids.front(), "streamtables-" + channel.channel_id);

  std::string metrics = Service().MetricsText();
  EXPECT_NE(metrics.find("streamtables_delivery_rows_successful_total{channel=\"orders-ch\""),
            std::string::npos);
  EXPECT_NE(metrics.find("\"} 3\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("streamtables_delivery_dlq_records_total"), std::string::npos);
}

TEST_F(DeliveryServiceTest, MissingPermissionFailsNamingActionAndResource) {
  authorizer_.denied.insert("s3tables:CreateTable");
  catalog::Channel channel = MakeChannel();
  Service().ReconcileOnce();
  catalog::Channel failed = Get(channel.arn);
  EXPECT_EQ(failed.status, ChannelStatus::kFailed);
  ASSERT_TRUE(failed.state_info.has_value());
  EXPECT_EQ(failed.state_info->code, "ACCESS_DENIED");
  EXPECT_NE(failed.state_info->message.find("s3tables:CreateTable"), std::string::npos);
  EXPECT_NE(failed.state_info->message.find(bucket_arn_), std::string::npos);
  EXPECT_FALSE(store_->GetChannelOffsets(channel.arn).has_value());
}

TEST_F(DeliveryServiceTest, UnresolvableSchemaOrMissingTopicFails) {
  format_.validate = NotFound("Schema is not found.");
  catalog::Channel channel = MakeChannel();
  Service().ReconcileOnce();
  catalog::Channel failed = Get(channel.arn);
  EXPECT_EQ(failed.status, ChannelStatus::kFailed);
  EXPECT_EQ(failed.state_info->code, "SCHEMA_NOT_FOUND");
}

// A cluster stored before its property was forbidden (the store keeps rows
// as given): the channel fails naming the property and no Kafka client is
// ever built from it, whether it was CREATING or already ACTIVE.
TEST_F(DeliveryServiceTest, ForbiddenClientPropertyOfAStoredClusterFailsTheChannel) {
  auto cluster =
      store_->CreateKafkaCluster({kAccount,
                                  kRegion,
                                  "old",
                                  "127.0.0.1:9",
                                  {{"security.protocol", "SASL_PLAINTEXT"},
                                   {"sasl.kerberos.kinit.cmd", "touch /tmp/st-kinit-marker"}}});
  ASSERT_TRUE(cluster.has_value()) << cluster.error().ToString();
  auto creating = store_->CreateChannel({cluster->arn, kAccount, "a", "orders", ConfigJson()});
  auto active = store_->CreateChannel({cluster->arn, kAccount, "b", "orders", ConfigJson()});
  ASSERT_TRUE(creating.has_value() && active.has_value());
  catalog::ChannelChange to_active;
  to_active.expected_status = ChannelStatus::kCreating;
  to_active.status = ChannelStatus::kActive;
  ASSERT_TRUE(store_->UpdateChannel(active->arn, to_active).has_value());

  Service().ReconcileOnce();
  for (const std::string& arn : {creating->arn, active->arn}) {
    catalog::Channel failed = Get(arn);
    EXPECT_EQ(failed.status, ChannelStatus::kFailed) << arn;
    ASSERT_TRUE(failed.state_info.has_value()) << arn;
    EXPECT_EQ(failed.state_info->code, "INVALID_CLIENT_PROPERTY");
    EXPECT_NE(failed.state_info->message.find("'sasl.kerberos.kinit.cmd'"), std::string::npos)
        << failed.state_info->message;
    EXPECT_NE(failed.state_info->message.find(cluster->arn), std::string::npos);
  }
  EXPECT_TRUE(kafka_.group_ids.empty());
  EXPECT_FALSE(store_->GetChannelOffsets(creating->arn).has_value());
}

// A row stored before CreateChannel checked the role's account.
TEST_F(DeliveryServiceTest, ServiceRoleOfAnotherAccountFailsTheChannel) {
  std::string config = ConfigJson();
  const std::string own = "iam::111122223333:role/";
  config.replace(config.find(own), own.size(), "iam::444455556666:role/");
  auto channel = store_->CreateChannel({cluster_.arn, kAccount, "x", "orders", config});
  ASSERT_TRUE(channel.has_value());
  Service().ReconcileOnce();
  catalog::Channel failed = Get(channel->arn);
  EXPECT_EQ(failed.status, ChannelStatus::kFailed);
  ASSERT_TRUE(failed.state_info.has_value());
  EXPECT_EQ(failed.state_info->code, "ACCESS_DENIED");
  EXPECT_NE(failed.state_info->message.find("444455556666"), std::string::npos);
  EXPECT_TRUE(authorizer_.asked.empty());
  EXPECT_TRUE(kafka_.group_ids.empty());
}

TEST_F(DeliveryServiceTest, PauseResumeTableDeletedAndDelete) {
  catalog::Channel channel = MakeChannel();
  ASSERT_NO_FATAL_FAILURE(DeliverFirstRecord(channel));

  catalog::ChannelChange pause;
  pause.paused = true;
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, pause).has_value());
  Service().ReconcileOnce();
  catalog::Channel paused = Get(channel.arn);
  EXPECT_EQ(paused.status, ChannelStatus::kSuspended);
  EXPECT_EQ(paused.state_info->code, "PAUSED");
  topic_.Produce(1, "y");  // Not delivered while paused.
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(Offsets(channel.arn)[1], 1);

  catalog::ChannelChange resume;
  resume.paused = false;
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, resume).has_value());
  Service().ReconcileOnce();
  EXPECT_EQ(Get(channel.arn).status, ChannelStatus::kActive);
  EXPECT_FALSE(Get(channel.arn).state_info.has_value());
  Service().ReconcileOnce();  // Worker again.
  ASSERT_TRUE(WaitFor([&] { return Offsets(channel.arn)[1] == 2; }));

  // DeleteTable → SUSPENDED naming the table.
  ASSERT_TRUE(store_->DeleteTable(Get(channel.arn).table_id, std::nullopt).ok());
  Service().ReconcileOnce();
  catalog::Channel suspended = Get(channel.arn);
  EXPECT_EQ(suspended.status, ChannelStatus::kSuspended);
  ASSERT_TRUE(suspended.state_info.has_value());
  EXPECT_EQ(suspended.state_info->code, "TABLE_DELETED");
  EXPECT_NE(suspended.state_info->message.find("events.orders"), std::string::npos);

  catalog::ChannelChange del;
  del.status = ChannelStatus::kDeleting;
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, del).has_value());
  Service().ReconcileOnce();
  EXPECT_EQ(store_->GetChannel(channel.arn).error().code(), StatusCode::kNotFound);
  EXPECT_FALSE(store_->GetChannelOffsets(channel.arn).has_value());
}

// Replicas: a service that does not hold the run-once lease runs the
// workers of ACTIVE channels but makes no status transition; once it leads
// it makes them. One service with a switchable lease stands for both roles.
TEST_F(DeliveryServiceTest, OnlyTheLeaseHolderTransitionsButEveryReplicaDelivers) {
  std::atomic<bool> leads{false};
  DeliveryService::Options options;
  options.poll_timeout = 5ms;
  options.max_backoff = 50ms;
  DeliveryService replica(DeliveryService::Deps{*store_, *commits_, *faulty_, authorizer_, clock_,
                                                random_, kRegion, "", logger_, kafka_, format_,
                                                "r-follower", [&leads] { return leads.load(); }},
                          options);
  catalog::Channel channel = MakeChannel();
  replica.ReconcileOnce();
  EXPECT_EQ(Get(channel.arn).status, ChannelStatus::kCreating);
  EXPECT_FALSE(store_->GetChannelOffsets(channel.arn).has_value());  // No start offsets either.

  leads = true;
  replica.ReconcileOnce();
  ASSERT_EQ(Get(channel.arn).status, ChannelStatus::kActive);

  // A follower delivers for an ACTIVE channel.
  leads = false;
  topic_.Produce(1, "x");
  replica.ReconcileOnce();
  ASSERT_TRUE(WaitFor([&] { return Offsets(channel.arn)[1] == 1; }));

  // Paused: the follower stops its worker but leaves the status to the holder.
  catalog::ChannelChange pause;
  pause.paused = true;
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, pause).has_value());
  replica.ReconcileOnce();
  EXPECT_EQ(Get(channel.arn).status, ChannelStatus::kActive);
  topic_.Produce(1, "y");
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(Offsets(channel.arn)[1], 1);
  leads = true;
  replica.ReconcileOnce();
  EXPECT_EQ(Get(channel.arn).status, ChannelStatus::kSuspended);

  // DELETING: only the holder removes the row.
  catalog::ChannelChange del;
  del.status = ChannelStatus::kDeleting;
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, del).has_value());
  leads = false;
  replica.ReconcileOnce();
  EXPECT_EQ(Get(channel.arn).status, ChannelStatus::kDeleting);
  leads = true;
  replica.ReconcileOnce();
  EXPECT_EQ(store_->GetChannel(channel.arn).error().code(), StatusCode::kNotFound);
  replica.Stop();
}

// A crash after the first delivery created the table but before its tag and
// the channel's table id were stored: the next worker adopts the table it
// created, re-tags it and keeps appending to it.
TEST_F(DeliveryServiceTest, TableCreatedBeforeACrashIsAdoptedAndTagged) {
  catalog::Channel channel = MakeChannel();
  ASSERT_NO_FATAL_FAILURE(DeliverFirstRecord(channel));
  Service().Stop();
  service_.reset();
  const std::string table_id = Get(channel.arn).table_id;
  auto table = store_->GetTableById(table_id);
  ASSERT_TRUE(table.has_value());
  ASSERT_TRUE(store_->UntagResource(table->arn, {"TableName"}).ok());
  catalog::ChannelChange lost;
  lost.table_id = "";
  ASSERT_TRUE(store_->UpdateChannel(channel.arn, lost).has_value());
  ASSERT_TRUE(Get(channel.arn).table_id.empty());

  topic_.Produce(1, "y");
  Service().ReconcileOnce();
  ASSERT_TRUE(WaitFor([&] { return Offsets(channel.arn)[1] == 2; }));
  Service().Stop();
  EXPECT_EQ(Get(channel.arn).table_id, table_id);
  EXPECT_EQ(store_->ListTags(table->arn)->at("TableName"), "orders");
  auto loaded = commits_->LoadTable(table_id);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->metadata->metadata.snapshots.size(), 2u);
}

TEST_F(DeliveryServiceTest, ZombieCommitIsFencedAndTheWorkerRereadsFromTheCatalog) {
  catalog::Channel channel = MakeChannel();
  std::optional<ChannelConfig> config =
      ActivateThenStopService(channel);  // The two below race alone.
  ASSERT_TRUE(config.has_value());
  DeliveryContext ctx = WorkerContext();
  const WorkerOptions options = QuickWorkerOptions();
  auto metrics_a = std::make_shared<ChannelMetrics>();
  auto metrics_b = std::make_shared<ChannelMetrics>();
  ChannelWorker zombie(ctx, options, Get(channel.arn), *config, cluster_, metrics_a);
  for (int i = 0; i < 3; ++i) topic_.Produce(0, "r" + std::to_string(i));
  for (int i = 0; i < 10; ++i) zombie.RunOnce();  // Consumed, not yet due.
  EXPECT_EQ(metrics_a->rows.load(), 3);

  // A new owner of the partition delivers the same records first.
  ChannelWorker owner(ctx, options, Get(channel.arn), *config, cluster_, metrics_b);
  ASSERT_TRUE(WaitFor([&] {
    owner.RunOnce();
    return Offsets(channel.arn)[0] == 3;
  }));
  // The zombie's commit of [0, 3) is refused; it re-reads from offset 3.
  ASSERT_TRUE(WaitFor([&] {
    zombie.RunOnce();
    return std::find(kafka_.seeks.begin(), kafka_.seeks.end(), "0@3") != kafka_.seeks.end();
  }));
  EXPECT_EQ(metrics_a->commits.load(), 0);
  topic_.Produce(0, "r3");
  ASSERT_TRUE(WaitFor([&] {
    zombie.RunOnce();
    return Offsets(channel.arn)[0] == 4;
  }));
  EXPECT_FALSE(zombie.fault().has_value());
  auto loaded = commits_->LoadTable(Get(channel.arn).table_id);
  ASSERT_TRUE(loaded.has_value());
  const auto& snapshots = loaded->metadata->metadata.snapshots;
  ASSERT_EQ(snapshots.size(), 2u);
  EXPECT_EQ(snapshots.back().summary.at("total-records"), "4");  // No duplicates.
  EXPECT_EQ(snapshots.back().summary.at("streamtables.kafka-offsets"), "0:3-4");
}

// Issue 15: a consumer sized when the channel was alone keeps a 32 MiB
// prefetch after 19 more channels joined the server-wide budget (20 such
// peaked over 1 GiB). The worker remakes it for its share, also in the
// middle of a batch, which the new consumer continues; and again when the
// others leave. Every record is read once and lands once.
TEST_F(DeliveryServiceTest, ConsumerPrefetchFollowsTheFairShareAndKeepsTheBatch) {
  catalog::Channel channel = MakeChannel();
  std::optional<ChannelConfig> config = ActivateThenStopService(channel);
  ASSERT_TRUE(config.has_value());
  DeliveryContext ctx = WorkerContext();
  DeliveryMemoryBudget budget(int64_t{512} << 20);
  WorkerOptions options = QuickWorkerOptions();
  options.shared_budget = &budget;
  auto metrics = std::make_shared<ChannelMetrics>();
  ChannelWorker worker(ctx, options, Get(channel.arn), *config, cluster_, metrics);
  int64_t produced = 0;
  auto produce = [&] {
    for (int i = 0; i < 4; ++i) topic_.Produce(int(produced++ % 2), "r" + std::to_string(i));
  };
  auto delivered = [&] {
    return WaitFor([&] {
      worker.RunOnce();
      return Offsets(channel.arn) == topic_.Ends();
    });
  };
  const size_t before = kafka_.prefetch_bytes.size();
  produce();
  ASSERT_TRUE(delivered());
  ASSERT_EQ(kafka_.prefetch_bytes.size(), before + 1);
  EXPECT_EQ(kafka_.prefetch_bytes.back(), kMaxPrefetchBytes);  // Alone: 512 MiB / 4, capped.

  // Mid-batch: read, not yet due (freshness 1 s), when 19 channels join.
  produce();
  ASSERT_TRUE(WaitFor([&] {
    worker.RunOnce();
    return metrics->rows.load() == produced;
  }));
  ASSERT_NE(Offsets(channel.arn), topic_.Ends());
  std::vector<std::unique_ptr<DeliveryMemoryBudget::Share>> others;
  for (int i = 0; i < 19; ++i) others.push_back(budget.Join());
  ASSERT_TRUE(delivered());
  produce();
  ASSERT_TRUE(delivered());
  ASSERT_EQ(kafka_.prefetch_bytes.size(), before + 2);  // Remade once, not per batch.
  EXPECT_EQ(kafka_.prefetch_bytes.back(), (int64_t{512} << 20) / 20 / 4);
  EXPECT_EQ(metrics->consumer_resizes.load(), 1);

  others.resize(17);  // 18 channels: within twice the share, the consumer stays.
  produce();
  ASSERT_TRUE(delivered());
  EXPECT_EQ(kafka_.prefetch_bytes.size(), before + 2);

  others.clear();  // Alone again: a small prefetch would throttle it (prefetch_sizes.h).
  produce();
  ASSERT_TRUE(delivered());
  ASSERT_EQ(kafka_.prefetch_bytes.size(), before + 3);
  EXPECT_EQ(kafka_.prefetch_bytes.back(), kMaxPrefetchBytes);
  EXPECT_FALSE(worker.fault().has_value());

  // The batch the remake interrupted was continued, not dropped and re-read.
  EXPECT_EQ(metrics->rows.load(), produced);
  auto loaded = commits_->LoadTable(Get(channel.arn).table_id);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->metadata->metadata.snapshots.back().summary.at("total-records"),
            std::to_string(produced));  // Every record once.
}

TEST_F(DeliveryServiceTest, RecordsOlderThanTheTablesExpirationHorizonAreDeadLettered) {
  catalog::Channel channel = MakeChannel();
  std::optional<ChannelConfig> config = ActivateThenStopService(channel);
  ASSERT_TRUE(config.has_value());
  DeliveryContext ctx = WorkerContext();
  const WorkerOptions options = QuickWorkerOptions();
  ChannelWorker worker(ctx, options, Get(channel.arn), *config, cluster_,
                       std::make_shared<ChannelMetrics>());
  auto deliver_until = [&](int64_t offset) {
    return WaitFor([&] {
      worker.RunOnce();
      return Offsets(channel.arn)[0] == offset;
    });
  };
  const int64_t now_ms = clock_.NowMillis();
  const int64_t three_days_ago_ms = now_ms - 3 * 86'400'000LL;
  topic_.Produce(0, "fresh-0", now_ms);
  ASSERT_TRUE(deliver_until(1));  // Creates the table.
  const std::string table_id = Get(channel.arn).table_id;
  ASSERT_TRUE(
      store_->PutTableRecordExpiration(table_id, R"({"status":"enabled","settings":{"days":1}})")
          .ok());

  // Read at the next batch: the old record is dead-lettered, offsets advance once.
  topic_.Produce(0, "old-1", three_days_ago_ms);
  topic_.Produce(0, "fresh-2", now_ms);
  ASSERT_TRUE(deliver_until(3));
  auto objects = objects_->List("s3-buckets/dlq/errors/orders-ch/");
  ASSERT_TRUE(objects.has_value());
  ASSERT_EQ(objects->size(), 1u);
  auto body = objects_->Get(objects->front().key);
  ASSERT_TRUE(body.has_value());
  auto line = nlohmann::json::parse(body->substr(0, body->find('\n')));
  EXPECT_EQ(line["offset"], 1);
  EXPECT_EQ(line["errorCode"], "RECORD_EXPIRED");

  // Disabled while the channel runs: old records are written again.
  ASSERT_TRUE(
      store_->PutTableRecordExpiration(table_id, R"({"status":"disabled","settings":{"days":1}})")
          .ok());
  topic_.Produce(0, "old-3", three_days_ago_ms);
  ASSERT_TRUE(deliver_until(4));
  auto loaded = commits_->LoadTable(table_id);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->metadata->metadata.CurrentSnapshot()->summary.at("total-records"), "3");
  EXPECT_EQ(objects_->List("s3-buckets/dlq/errors/orders-ch/")->size(), 1u);
  EXPECT_FALSE(worker.fault().has_value());
}

}  // namespace
}  // namespace st::delivery
