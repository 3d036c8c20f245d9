// Channel worker faults (issue 9 item 10): storage and catalog errors end in
// a fresh writer and a retry from the catalog offsets, rows land exactly
// once, and a stall longer than the freshness is reported while it lasts.
#include "delivery/channel_worker.h"

#include <cerrno>
#include <cstring>

#include "delivery_test_fixture.h"
#include "sqlite/database.h"

namespace st::delivery {
namespace {

using fault_injection::FaultyObjectStore;

class ChannelWorkerFaultTest : public DeliveryFixture {
 protected:
  // Produces `count` records to each partition, every seventh one "bad".
  void ProduceRound(int round, int count) {
    for (int i = 0; i < count; ++i) {
      for (int p = 0; p < topic_.partitions(); ++p) {
        topic_.Produce(p, (round * count + i) % 7 == 3 ? "bad" : "r" + std::to_string(i));
      }
    }
  }

  bool Delivered(const std::string& arn) { return Offsets(arn) == topic_.Ends(); }

  // Every offset the topic holds is in the table exactly once (good records)
  // or in exactly one DLQ line (bad ones); nothing else is anywhere; every
  // data file in the table's directory is referenced by the table.
  void ExpectExactlyOnce(const std::string& arn) {
    const std::string table_id = Get(arn).table_id;
    ASSERT_FALSE(table_id.empty());
    std::map<std::string, int> rows = DeliveredRows(table_id);
    std::map<std::string, int> dead;
    auto listed = objects_->List("s3-buckets/dlq/errors/orders-ch/");
    ASSERT_TRUE(listed.has_value());
    for (const storage::ObjectInfo& object : *listed) {
      auto body = objects_->Get(object.key);
      ASSERT_TRUE(body.has_value());
      size_t start = 0;
      while (start < body->size()) {
        size_t end = body->find('\n', start);
        auto line = nlohmann::json::parse(body->substr(start, end - start));
        dead[std::to_string(line["partition"].get<int>()) + ":" +
             std::to_string(line["offset"].get<int64_t>())] += 1;
        start = end + 1;
      }
    }
    size_t good = 0, bad = 0;
    for (const auto& [partition, end] : topic_.Ends()) {
      for (int64_t offset = 0; offset < end; ++offset) {
        const std::string key = std::to_string(partition) + ":" + std::to_string(offset);
        const bool is_bad = topic_.At(partition, offset)->value == "bad";
        EXPECT_EQ(rows.count(key) ? rows[key] : 0, is_bad ? 0 : 1) << "row " << key;
        EXPECT_EQ(dead.count(key) ? dead[key] : 0, is_bad ? 1 : 0) << "dead letter " << key;
        (is_bad ? bad : good) += 1;
      }
    }
    size_t row_total = 0, dead_total = 0;
    for (const auto& [key, n] : rows) row_total += n;
    for (const auto& [key, n] : dead) dead_total += n;
    EXPECT_EQ(row_total, good);
    EXPECT_EQ(dead_total, bad);

    std::set<std::string> live;
    for (const iceberg::DataFile& f : LiveDataFiles(table_id)) live.insert(f.file_path);
    auto loaded = commits_->LoadTable(table_id);
    ASSERT_TRUE(loaded.has_value());
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, "");
    auto probe = io.KeyFor(loaded->metadata->metadata.location + "/data/x");
    ASSERT_TRUE(probe.has_value()) << probe.error().ToString();
    auto files = objects_->List(probe->substr(0, probe->size() - 1));
    ASSERT_TRUE(files.has_value());
    for (const storage::ObjectInfo& object : *files) {
      auto uri = io.UriFor(object.key);
      ASSERT_TRUE(uri.has_value());
      EXPECT_TRUE(live.count(*uri)) << "orphan data file " << *uri;
    }
  }
};

// Fails on the main branch before this fix: the writer that hit the error
// stays broken and the worker kept using it, so nothing was delivered again.
TEST_F(ChannelWorkerFaultTest, WriteFaultsEndInAFreshWriterAndExactlyOnceDelivery) {
  catalog::Channel channel = MakeChannel();
  Service().ReconcileOnce();
  ASSERT_EQ(Get(channel.arn).status, ChannelStatus::kActive);
  ProduceRound(0, 5);
  Service().ReconcileOnce();  // The worker.
  ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); })) << "first delivery";
  const int writers_before = format_.writers_made.load();

  // The next N writes fail (ENOSPC or EIO): each round's fault lands on a
  // different write (data file create/append/commit, dead-letter object,
  // manifest, manifest list, metadata file).
  for (int round = 1; round <= 8; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    faulty_->FailNextWrites(round, round % 2 ? ENOSPC : EIO);
    ProduceRound(round, 6);
    ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); }))
        << "never delivered after the fault; offsets stuck at " << Offsets(channel.arn)[0] << "/"
        << Offsets(channel.arn)[1] << ", " << faulty_->failures() << " writes failed";
  }
  // A full disk for a while, then space again.
  faulty_->FailNextWrites(FaultyObjectStore::kForever, ENOSPC);
  ProduceRound(9, 6);
  std::this_thread::sleep_for(1500ms);
  EXPECT_NE(Offsets(channel.arn), topic_.Ends());  // Nothing committed while full.
  faulty_->Heal();
  ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); })) << "never recovered";
  Service().Stop();

  EXPECT_GE(faulty_->failures(), 36);
  EXPECT_GT(format_.writers_made.load(), writers_before);
  EXPECT_EQ(Get(channel.arn).status, ChannelStatus::kActive);
  EXPECT_FALSE(Get(channel.arn).state_info.has_value());
  ExpectExactlyOnce(channel.arn);
}

TEST_F(ChannelWorkerFaultTest, AStallLongerThanTheFreshnessIsReportedAndClearsOnRecovery) {
  catalog::Channel channel = MakeChannel();
  Service().ReconcileOnce();
  ProduceRound(0, 3);
  Service().ReconcileOnce();
  ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); }));
  EXPECT_FALSE(Service().LiveStateInfo(channel.arn).has_value());
  EXPECT_NE(Service().MetricsText().find("streamtables_delivery_stalled{channel=\"orders-ch\""),
            std::string::npos);

  faulty_->FailNextWrites(FaultyObjectStore::kForever, ENOSPC);
  ProduceRound(1, 3);
  // Failing, but not yet for a whole freshness (1 s): not reported yet.
  ASSERT_TRUE(WaitFor([&] { return faulty_->failures() > 0; }));
  EXPECT_FALSE(Service().LiveStateInfo(channel.arn).has_value());
  std::optional<catalog::ChannelStateInfo> info;
  ASSERT_TRUE(WaitFor([&] { return (info = Service().LiveStateInfo(channel.arn)).has_value(); }));
  EXPECT_EQ(info->code, "DELIVERY_STALLED");
  EXPECT_NE(info->message.find(std::strerror(ENOSPC)), std::string::npos) << info->message;
  EXPECT_NE(info->message.find("data freshness of 1 s"), std::string::npos) << info->message;
  std::string metrics = Service().MetricsText();
  EXPECT_NE(metrics.find("streamtables_delivery_stalled{channel=\"orders-ch\""), std::string::npos);
  EXPECT_NE(metrics.find("\"} 1\n"), std::string::npos);
  EXPECT_NE(metrics.find("streamtables_delivery_last_error_info{channel=\"orders-ch\""),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find(std::strerror(ENOSPC)), std::string::npos);
  // The row stays as it was: the report is live, and the store may be what fails.
  EXPECT_FALSE(Get(channel.arn).state_info.has_value());

  faulty_->Heal();
  ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); }));
  ASSERT_TRUE(WaitFor([&] { return !Service().LiveStateInfo(channel.arn).has_value(); }));
  metrics = Service().MetricsText();
  EXPECT_EQ(metrics.find("streamtables_delivery_last_error_info{channel="), std::string::npos)
      << metrics;
  Service().Stop();
  ExpectExactlyOnce(channel.arn);
}

// A commit the catalog refuses with Unavailable (another writer holds the
// database lock) or Io (the metadata file cannot be written) is not a fence
// conflict: the batch is dropped and re-read from the catalog offsets with a
// fresh writer, and the rows land once.
TEST_F(ChannelWorkerFaultTest, CatalogCommitErrorsRetryFromTheCatalogOffsetsWithAFreshWriter) {
  catalog::Channel channel = MakeChannel();
  Service().ReconcileOnce();
  ProduceRound(0, 3);
  Service().ReconcileOnce();
  ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); }));
  const catalog::NextOffsets committed = Offsets(channel.arn);
  const int writers_before = format_.writers_made.load();

  {
    // Unavailable: a second connection holds the write lock longer than the
    // store's busy timeout (5 s).
    auto db = sqlite::Database::Open({dir_ + "/catalog.db"});
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    ASSERT_TRUE((*db)->Exec("BEGIN IMMEDIATE").ok());
    ProduceRound(1, 3);
    std::this_thread::sleep_for(6500ms);
    EXPECT_EQ(Offsets(channel.arn), committed);
    ASSERT_TRUE((*db)->Exec("ROLLBACK").ok());
  }
  ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); }));
  const catalog::NextOffsets after_lock = Offsets(channel.arn);

  // Io: the metadata file of the commit cannot be written (a data file is
  // written first, so the fault is timed to the commit's writes).
  faulty_->FailNextWrites(2, EIO, ".metadata.json");
  ProduceRound(2, 3);
  ASSERT_TRUE(WaitFor([&] { return Delivered(channel.arn); }));
  Service().Stop();

  std::string metrics = Service().MetricsText();
  EXPECT_EQ(metrics.find("streamtables_delivery_errors_total{channel=\"orders-ch\",channel_arn=\"" +
                         channel.arn + "\",cluster=\"local\",topic=\"orders\"} 0\n"),
            std::string::npos)
      << metrics;
  // Re-read from where the catalog stood, with a fresh writer.
  for (const auto& [partition, offset] : committed) {
    const std::string seek = std::to_string(partition) + "@" + std::to_string(offset);
    EXPECT_NE(std::find(kafka_.seeks.begin(), kafka_.seeks.end(), seek), kafka_.seeks.end())
        << seek;
  }
  EXPECT_GT(format_.writers_made.load(), writers_before);
  EXPECT_NE(after_lock, committed);
  ExpectExactlyOnce(channel.arn);
}

}  // namespace
}  // namespace st::delivery
