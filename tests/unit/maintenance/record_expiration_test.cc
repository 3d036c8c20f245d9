// Record expiration over a real catalog, commit engine and object store: a
// table partitioned by hour(ts), files dated by partition and by upper bound.
#include "maintenance/record_expiration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "iceberg/data_file_writer.h"
#include "iceberg/parquet_schema.h"
#include "maintenance_fixture.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"

namespace st::maintenance {
namespace {

constexpr int64_t kHourUs = 3'600'000'000LL;

// Forwards to a real store and runs `hook` once, before the first write of a
// key containing `key_part`: the moment a concurrent commit lands.
class HookedObjectStore final : public storage::ObjectStore {
 public:
  HookedObjectStore(storage::ObjectStore& inner, std::string key_part, std::function<void()> hook)
      : inner_(inner), key_part_(std::move(key_part)), hook_(std::move(hook)) {}
  Status Put(std::string_view key, std::string_view bytes) override {
    Before(key);
    return inner_.Put(key, bytes);
  }
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override {
    Before(key);
    return inner_.PutIfAbsent(key, bytes);
  }
  Result<std::unique_ptr<storage::ObjectWriter>> NewWriter(std::string_view key) override {
    Before(key);
    if (key.find("/data/") != std::string_view::npos) ++data_files_written;
    return inner_.NewWriter(key);
  }
  Result<std::string> Get(std::string_view key) override { return inner_.Get(key); }
  Result<std::string> GetRange(std::string_view key, int64_t offset, int64_t length) override {
    return inner_.GetRange(key, offset, length);
  }
  Result<storage::ObjectInfo> Head(std::string_view key) override { return inner_.Head(key); }
  Result<std::vector<storage::ObjectInfo>> List(std::string_view prefix) override {
    return inner_.List(prefix);
  }
  Status Delete(std::string_view key) override { return inner_.Delete(key); }

  int data_files_written = 0;

 private:
  void Before(std::string_view key) {
    if (!hook_ || key.find(key_part_) == std::string_view::npos) return;
    std::function<void()> hook = std::move(hook_);
    hook_ = nullptr;
    hook();
  }
  storage::ObjectStore& inner_;
  std::string key_part_;
  std::function<void()> hook_;
};

class RecordExpirationTest : public MaintenanceTest {
 protected:
  catalog::Table MakeHourlyTable(std::optional<std::string> channel = std::nullopt) {
    auto schema = iceberg::Schema::Make(0, {{1, "id", true, iceberg::Type::Long(), ""},
                                            {2, "ts", true, iceberg::Type::TimestampTz(), ""}});
    EXPECT_TRUE(schema.has_value());
    auto spec = iceberg::PartitionSpec::Make(*schema, 0,
                                             {{2, 1000, "ts_hour", iceberg::Transform::Hour()}});
    EXPECT_TRUE(spec.has_value()) << spec.error().ToString();
    auto created = commits_->CreateTable(
        catalog::NewTable{bucket_.arn, "ns", "hourly", kAccount, std::move(channel), std::nullopt},
        catalog::InitialMetadata{*schema, *spec, iceberg::SortOrder::Unsorted(), {}});
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return created->table;
  }

  // A file of `records` rows in hour `hour`; with `upper_us`, its ts upper bound.
  iceberg::DataFile File(const catalog::Table& table, int32_t hour, int64_t records,
                         std::optional<int64_t> upper_us = std::nullopt) {
    iceberg::DataFile file;
    file.file_path = table.warehouse_location + "/data/h" + std::to_string(hour) + "-" +
                     std::to_string(next_file_++) + ".parquet";
    file.partition = Value::MakeStruct({Value::Int32(hour)});
    file.record_count = records;
    file.file_size_in_bytes = 1000 + records;
    if (upper_us) {
      std::string bytes(8, '\0');
      std::memcpy(bytes.data(), &*upper_us, 8);
      file.upper_bounds[2] = bytes;
    }
    return file;
  }

  void Commit(const catalog::Table& table, const std::vector<iceberg::DataFile>& files) {
    auto loaded = commits_->LoadTable(table.table_id);
    ASSERT_TRUE(loaded.has_value());
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, kKeyRoot);
    iceberg::OperationContext op{io, clock_, random_};
    auto snapshot = iceberg::FastAppend(loaded->metadata->metadata, files, {}, op);
    ASSERT_TRUE(snapshot.has_value()) << snapshot.error().ToString();
    catalog::CommitOptions options;
    options.account_id = kAccount;
    options.acting_channel = table.managed_by_channel;
    ASSERT_TRUE(
        commits_->CommitTable(table.table_id, snapshot->requirements, snapshot->updates, options)
            .has_value());
  }

  std::set<std::string> LivePaths(const catalog::Table& table) {
    auto loaded = commits_->LoadTable(table.table_id);
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, kKeyRoot);
    std::set<std::string> out;
    auto lists =
        iceberg::ReadManifestList(io, loaded->metadata->metadata.CurrentSnapshot()->manifest_list);
    for (const auto& m : *lists) {
      auto manifest = iceberg::ReadManifest(io, m);
      EXPECT_TRUE(manifest.has_value());
      for (const auto& e : manifest->entries) {
        if (e.status != iceberg::ManifestEntryStatus::kDeleted) out.insert(e.data_file.file_path);
      }
    }
    return out;
  }

  // Real Parquet files of rows {id, ts} written by the table's writer path.
  std::vector<iceberg::DataFile> WriteRows(const catalog::Table& table,
                                           const std::vector<std::pair<int64_t, int64_t>>& rows) {
    iceberg::TableMetadata metadata = Current(table);
    iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
    auto options = iceberg::DataFileWriterOptionsFromProperties(metadata.location, {});
    EXPECT_TRUE(options.has_value());
    auto writer = iceberg::DataFileWriter::Make(io, *metadata.CurrentSchema(),
                                                *metadata.DefaultSpec(), *options, random_);
    EXPECT_TRUE(writer.has_value()) << writer.error().ToString();
    for (const auto& [id, ts] : rows) {
      EXPECT_TRUE((*writer)->Write(Value::MakeStruct({Value::Int64(id), Value::Int64(ts)})).ok());
    }
    auto files = (*writer)->Close();
    EXPECT_TRUE(files.has_value()) << files.error().ToString();
    return *files;
  }

  // The ids in the Parquet file at `uri`.
  std::vector<int64_t> Ids(const catalog::Table& table, const std::string& uri) {
    iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
    auto bytes = io.Read(uri);
    EXPECT_TRUE(bytes.has_value());
    auto reader = parquet::FileReader::Open(*bytes);
    EXPECT_TRUE(reader.has_value()) << reader.error().ToString();
    std::vector<int64_t> ids;
    for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
      auto rows = (*reader)->ReadRows(g);
      EXPECT_TRUE(rows.has_value());
      for (const Value& row : *rows) {
        ids.push_back(row.struct_value()[0].int64_value());
      }
    }
    return ids;
  }

  Result<RecordExpirationOutcome> Expire(const catalog::Table& table, int days) {
    return ExpireRecords({*commits_, *objects_, kKeyRoot, clock_, random_}, table,
                         std::chrono::days(days));
  }
};

TEST_F(RecordExpirationTest, DropsWholeFilesOlderThanTheHorizonByBoundOrPartition) {
  const std::string channel = "arn:aws:kafka:us-east-1:111122223333:channel/c/x";
  catalog::Table table = MakeHourlyTable(channel);
  const int64_t now_us = clock_.NowMillis() * 1000;
  const int32_t now_hour = static_cast<int32_t>(now_us / kHourUs);
  // Horizon: 2 days ago.
  iceberg::DataFile old_by_partition = File(table, now_hour - 72, 10);
  iceberg::DataFile old_by_bound = File(table, now_hour - 49, 20, (now_hour - 49) * kHourUs + 5);
  // Starts at the horizon (now is on the hour): no row is old.
  iceberg::DataFile straddling = File(table, now_hour - 48, 30, now_us);
  iceberg::DataFile fresh = File(table, now_hour, 40);
  Commit(table, {old_by_partition, old_by_bound});
  Commit(table, {straddling, fresh});

  auto outcome = Expire(table, 2);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->deleted_data_files, 2);
  EXPECT_EQ(outcome->deleted_records, 30);
  EXPECT_EQ(outcome->removed_files_size_bytes, 1010 + 1020);
  EXPECT_EQ(LivePaths(table), (std::set<std::string>{straddling.file_path, fresh.file_path}));
  iceberg::TableMetadata after = commits_->LoadTable(table.table_id)->metadata->metadata;
  ASSERT_NE(after.CurrentSnapshot(), nullptr);
  EXPECT_EQ(after.CurrentSnapshot()->operation(), "delete");

  // Nothing else is old enough: no new snapshot.
  auto snapshots = commits_->LoadTable(table.table_id)->metadata->metadata.snapshots.size();
  outcome = Expire(table, 2);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->deleted_data_files, 0);
  EXPECT_EQ(commits_->LoadTable(table.table_id)->metadata->metadata.snapshots.size(), snapshots);
}

TEST_F(RecordExpirationTest, RewritesTheStraddlingFileWithoutOldRowsInTheSameOverwrite) {
  catalog::Table table = MakeHourlyTable();
  clock_.Advance(std::chrono::minutes(30));
  const int64_t now_us = clock_.NowMillis() * 1000;
  const int64_t now_hour = now_us / kHourUs;
  // Horizon: now - 2 days, half past hour now_hour - 48.
  constexpr int64_t kMinuteUs = 60'000'000LL;
  std::vector<std::pair<int64_t, int64_t>> old_rows, straddling_rows, fresh_rows;
  for (int64_t i = 0; i < 10; ++i) old_rows.push_back({i, (now_hour - 50) * kHourUs + i});
  // Minutes 0..59 of the horizon's hour: 30 before it, 30 at or after.
  for (int64_t m = 0; m < 60; ++m) {
    straddling_rows.push_back({100 + m, (now_hour - 48) * kHourUs + m * kMinuteUs});
  }
  for (int64_t i = 0; i < 5; ++i) fresh_rows.push_back({200 + i, now_us - i});
  std::vector<iceberg::DataFile> old_files = WriteRows(table, old_rows);
  std::vector<iceberg::DataFile> straddling = WriteRows(table, straddling_rows);
  std::vector<iceberg::DataFile> fresh = WriteRows(table, fresh_rows);
  ASSERT_EQ(old_files.size(), 1u);
  ASSERT_EQ(straddling.size(), 1u);
  ASSERT_EQ(fresh.size(), 1u);
  Commit(table, {old_files[0], straddling[0]});
  Commit(table, fresh);

  auto outcome = Expire(table, 2);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->deleted_data_files, 2);
  EXPECT_EQ(outcome->rewritten_data_files, 1);
  EXPECT_EQ(outcome->deleted_records, 10 + 30);
  EXPECT_EQ(outcome->removed_files_size_bytes,
            old_files[0].file_size_in_bytes + straddling[0].file_size_in_bytes);

  iceberg::TableMetadata after = Current(table);
  const iceberg::Snapshot& snapshot = *after.CurrentSnapshot();
  EXPECT_EQ(snapshot.operation(), "overwrite");
  EXPECT_EQ(snapshot.summary.at("deleted-data-files"), "2");
  EXPECT_EQ(snapshot.summary.at("added-data-files"), "1");
  EXPECT_EQ(snapshot.summary.at("deleted-records"), "70");
  EXPECT_EQ(snapshot.summary.at("added-records"), "30");
  EXPECT_EQ(snapshot.summary.at("total-records"), "35");
  std::set<std::string> live = LivePaths(table);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live.count(fresh[0].file_path), 1u);
  live.erase(fresh[0].file_path);
  const std::string rewritten = *live.begin();
  EXPECT_NE(rewritten, straddling[0].file_path);
  EXPECT_EQ(rewritten.rfind(table.warehouse_location + "/data/ts_hour=", 0), 0u) << rewritten;
  std::vector<int64_t> expected;
  for (int64_t m = 30; m < 60; ++m) expected.push_back(100 + m);
  EXPECT_EQ(Ids(table, rewritten), expected);
  EXPECT_EQ(Ids(table, fresh[0].file_path).size(), 5u);

  // The rewritten file starts at the horizon: a second run changes nothing.
  const size_t snapshots = after.snapshots.size();
  outcome = Expire(table, 2);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->deleted_data_files, 0);
  EXPECT_EQ(outcome->deleted_records, 0);
  EXPECT_EQ(Current(table).snapshots.size(), snapshots);
}

TEST_F(RecordExpirationTest, AConcurrentDeliveryCommitIsKeptAndTheRewriteReplanned) {
  catalog::Table table = MakeHourlyTable("arn:aws:kafka:us-east-1:111122223333:channel/c/x");
  clock_.Advance(std::chrono::minutes(30));
  const int64_t now_us = clock_.NowMillis() * 1000;
  const int64_t now_hour = now_us / kHourUs;
  constexpr int64_t kMinuteUs = 60'000'000LL;
  std::vector<std::pair<int64_t, int64_t>> straddling_rows;
  for (int64_t m = 0; m < 60; ++m) {
    straddling_rows.push_back({m, (now_hour - 24) * kHourUs + m * kMinuteUs});
  }
  std::vector<iceberg::DataFile> straddling = WriteRows(table, straddling_rows);
  std::vector<iceberg::DataFile> delivered = WriteRows(table, {{100, now_us}});
  Commit(table, straddling);

  // The delivery commit lands once the job has planned and rewritten, as it
  // writes its first manifest.
  HookedObjectStore hooked(*objects_, "/metadata/", [&] { Commit(table, delivered); });
  auto outcome =
      ExpireRecords({*commits_, hooked, kKeyRoot, clock_, random_}, table, std::chrono::days(1));
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->deleted_data_files, 1);
  EXPECT_EQ(outcome->rewritten_data_files, 1);
  EXPECT_EQ(outcome->deleted_records, 30);
  EXPECT_EQ(hooked.data_files_written, 2);  // Rewritten again on the new base.

  std::set<std::string> live = LivePaths(table);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live.count(delivered[0].file_path), 1u);  // The delivery's rows are not lost.
  EXPECT_EQ(live.count(straddling[0].file_path), 0u);
  live.erase(delivered[0].file_path);
  std::vector<int64_t> expected;
  for (int64_t m = 30; m < 60; ++m) expected.push_back(m);
  EXPECT_EQ(Ids(table, *live.begin()), expected);
  // The first attempt's rewritten file was deleted: the partition holds the
  // original and the committed rewrite only.
  iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
  auto key = io.KeyFor(straddling[0].file_path);
  ASSERT_TRUE(key.has_value()) << key.error().ToString();
  auto listed = objects_->List(key->substr(0, key->rfind('/') + 1));
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(listed->size(), 2u);
  EXPECT_EQ(Current(table).CurrentSnapshot()->operation(), "overwrite");
}

TEST_F(RecordExpirationTest, ANestedPartitionSourceSuchAsKafkaTimestampIsRewrittenToo) {
  // A channel table without a sourceList: hour(_kafka.timestamp).
  // Also the other shapes a channel table has: a string, a binary key and a
  // map of headers, which must survive the row path unchanged.
  auto schema = iceberg::Schema::Make(
      0, {{1, "id", true, iceberg::Type::Long(), ""},
          {2, "_kafka", false,
           iceberg::Type::Struct(
               {{3, "timestamp", false, iceberg::Type::TimestampTz(), ""},
                {4, "key", false, iceberg::Type::Binary(), ""},
                {5, "headers", false,
                 iceberg::Type::Map(6, iceberg::Type::String(), 7, false, iceberg::Type::Binary()),
                 ""}}),
           ""},
          {8, "page", false, iceberg::Type::String(), ""}});
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  auto spec = iceberg::PartitionSpec::Make(
      *schema, 0, {{3, 1000, "_kafka_timestamp_hour", iceberg::Transform::Hour()}});
  ASSERT_TRUE(spec.has_value()) << spec.error().ToString();
  auto created = commits_->CreateTable(
      catalog::NewTable{bucket_.arn, "ns", "kafka_ts", kAccount, std::nullopt, std::nullopt},
      catalog::InitialMetadata{*schema, *spec, iceberg::SortOrder::Unsorted(), {}});
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  const catalog::Table table = created->table;
  clock_.Advance(std::chrono::minutes(30));
  const int64_t hour_start = (clock_.NowMillis() * 1000 / kHourUs - 24) * kHourUs;
  iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
  auto options = iceberg::DataFileWriterOptionsFromProperties(Current(table).location, {});
  ASSERT_TRUE(options.has_value());
  auto writer = iceberg::DataFileWriter::Make(io, *schema, *spec, *options, random_);
  ASSERT_TRUE(writer.has_value()) << writer.error().ToString();
  for (int64_t m = 0; m < 60; ++m) {
    Value headers = Value::MakeMap(
        {{Value::String("h"), Value::Binary("v" + std::to_string(m))}, {Value::String("n"), {}}});
    Value kafka = Value::MakeStruct({Value::Int64(hour_start + m * 60'000'000LL),
                                     m % 2 ? Value::Binary("k") : Value::Null(), headers});
    Value page = m % 3 ? Value::String("/p/" + std::to_string(m)) : Value::Null();
    ASSERT_TRUE((*writer)->Write(Value::MakeStruct({Value::Int64(m), kafka, page})).ok());
  }
  auto files = (*writer)->Close();
  ASSERT_TRUE(files.has_value() && files->size() == 1u);
  Commit(table, *files);

  auto outcome = Expire(table, 1);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->rewritten_data_files, 1);
  EXPECT_EQ(outcome->deleted_records, 30);
  std::set<std::string> live = LivePaths(table);
  ASSERT_EQ(live.size(), 1u);
  std::vector<int64_t> expected;
  for (int64_t m = 30; m < 60; ++m) expected.push_back(m);
  EXPECT_EQ(Ids(table, *live.begin()), expected);
  // Row 31 read back whole.
  auto bytes = io.Read(*live.begin());
  ASSERT_TRUE(bytes.has_value());
  auto reader = parquet::FileReader::Open(*bytes);
  ASSERT_TRUE(reader.has_value());
  auto rows = (*reader)->ReadRows(0);
  ASSERT_TRUE(rows.has_value() && rows->size() == 30u);
  const Value::Struct& row = (*rows)[1].struct_value();
  EXPECT_EQ(row[0], Value::Int64(31));
  EXPECT_EQ(row[2], Value::String("/p/31"));
  const Value::Struct& kafka = row[1].struct_value();
  EXPECT_EQ(kafka[0], Value::Int64(hour_start + 31 * 60'000'000LL));
  EXPECT_EQ(kafka[1], Value::Binary("k"));
  ASSERT_EQ(kafka[2].map_value().size(), 2u);
  EXPECT_EQ(kafka[2].map_value()[0].second, Value::Binary("v31"));
  EXPECT_TRUE(kafka[2].map_value()[1].second.is_null());
}

TEST_F(RecordExpirationTest, ARowWithANullTimestampInAStraddlingFileIsKept) {
  // Not what our writers produce (a null source lands in the null
  // partition), but another writer may put one into a dated file.
  auto schema = iceberg::Schema::Make(0, {{1, "id", true, iceberg::Type::Long(), ""},
                                          {2, "ts", false, iceberg::Type::TimestampTz(), ""}});
  ASSERT_TRUE(schema.has_value());
  auto spec =
      iceberg::PartitionSpec::Make(*schema, 0, {{2, 1000, "ts_hour", iceberg::Transform::Hour()}});
  ASSERT_TRUE(spec.has_value());
  auto created = commits_->CreateTable(
      catalog::NewTable{bucket_.arn, "ns", "nullable", kAccount, std::nullopt, std::nullopt},
      catalog::InitialMetadata{*schema, *spec, iceberg::SortOrder::Unsorted(), {}});
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  const catalog::Table table = created->table;
  clock_.Advance(std::chrono::minutes(30));
  const int32_t hour = static_cast<int32_t>(clock_.NowMillis() * 1000 / kHourUs - 24);
  const int64_t early = hour * kHourUs + 10 * 60'000'000LL;
  const int64_t late = hour * kHourUs + 50 * 60'000'000LL;

  iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
  iceberg::DataFile file;
  file.file_path = table.warehouse_location + "/data/foreign.parquet";
  auto sink = io.NewWriter(file.file_path);
  ASSERT_TRUE(sink.has_value());
  auto writer = parquet::FileWriter::Make(*iceberg::ToParquetSchema(*schema), {}, sink->get());
  ASSERT_TRUE(writer.has_value()) << writer.error().ToString();
  for (const auto& [id, ts] : std::vector<std::pair<int64_t, Value>>{
           {0, Value::Null()}, {1, Value::Int64(early)}, {2, Value::Int64(late)}}) {
    ASSERT_TRUE((*writer)->WriteRow(Value::MakeStruct({Value::Int64(id), ts})).ok());
  }
  auto summary = (*writer)->Close();
  ASSERT_TRUE(summary.has_value());
  ASSERT_TRUE((*sink)->Commit().ok());
  file.partition = Value::MakeStruct({Value::Int32(hour)});
  file.record_count = 3;
  file.file_size_in_bytes = summary->file_size_bytes;
  file.lower_bounds[2] = std::string(reinterpret_cast<const char*>(&early), 8);
  file.upper_bounds[2] = std::string(reinterpret_cast<const char*>(&late), 8);
  Commit(table, {file});

  auto outcome = Expire(table, 1);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->rewritten_data_files, 1);
  EXPECT_EQ(outcome->deleted_records, 1);
  std::vector<int64_t> ids;
  for (const std::string& path : LivePaths(table)) {
    for (int64_t id : Ids(table, path)) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<int64_t>{0, 2}));  // The null row now in the null partition.
}

// The rewrite of a straddling file is under the compaction memory budget: a
// file whose rows decode past it fails the job naming the file, before
// anything is written or committed; a roomy budget rewrites it.
TEST_F(RecordExpirationTest, AStraddlingFilePastTheMemoryBudgetFailsNamingItAndChangesNothing) {
  catalog::Table table = MakeHourlyTable();
  clock_.Advance(std::chrono::minutes(30));
  const int64_t hour_start = (clock_.NowMillis() * 1000 / kHourUs - 24) * kHourUs;
  // 20,000 rows over the hour a day ago: the first half before the horizon.
  std::vector<std::pair<int64_t, int64_t>> rows;
  for (int64_t i = 0; i < 20'000; ++i) rows.push_back({i, hour_start + i * (kHourUs / 20'000)});
  std::vector<iceberg::DataFile> straddling = WriteRows(table, rows);
  ASSERT_EQ(straddling.size(), 1u);
  Commit(table, straddling);
  const int64_t snapshot = Current(table).current_snapshot_id.value_or(-1);
  const std::string& path = straddling[0].file_path;
  iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
  auto key = io.KeyFor(path);
  ASSERT_TRUE(key.has_value()) << key.error().ToString();
  const std::string partition_dir = key->substr(0, key->rfind('/') + 1);

  const int64_t file_bytes = straddling[0].file_size_in_bytes;
  // The file fits; its 320 KB of decoded values and 20,000 rows do not.
  for (const auto& [budget, what] : std::vector<std::pair<int64_t, std::string>>{
           {file_bytes + 64 * 1024, "decoded"}, {file_bytes / 2, "the file's bytes"}}) {
    auto outcome = ExpireRecords({*commits_, *objects_, kKeyRoot, clock_, random_}, table,
                                 std::chrono::days(1), budget);
    ASSERT_FALSE(outcome.has_value()) << what;
    EXPECT_EQ(outcome.error().code(), StatusCode::kFailedPrecondition) << what;
    const std::string& message = outcome.error().message();
    EXPECT_NE(message.find("exceeds the compaction memory budget"), std::string::npos) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
    if (what == "the file's bytes") {
      EXPECT_NE(message.find(what), std::string::npos) << message;
    }
    EXPECT_EQ(Current(table).current_snapshot_id.value_or(-1), snapshot);
    EXPECT_EQ(LivePaths(table), (std::set<std::string>{path}));
    auto listed = objects_->List(partition_dir);
    ASSERT_TRUE(listed.has_value());
    EXPECT_EQ(listed->size(), 1u);  // Nothing written beside the original.
  }

  auto outcome = ExpireRecords({*commits_, *objects_, kKeyRoot, clock_, random_}, table,
                               std::chrono::days(1), 64LL << 20);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().ToString();
  EXPECT_EQ(outcome->rewritten_data_files, 1);
  EXPECT_EQ(outcome->deleted_records, 10'000);
}

TEST_F(RecordExpirationTest, ATableWithoutATimestamptzPartitionIsAFailedPrecondition) {
  catalog::Table table = MakeTable("plain");
  Append(table);
  EXPECT_EQ(Expire(table, 1).error().code(), StatusCode::kFailedPrecondition);
}

TEST(PartitionEndTest, HourDayIdentity) {
  EXPECT_EQ(PartitionEndMicros(iceberg::Transform::Hour(), 0), kHourUs);
  EXPECT_EQ(PartitionEndMicros(iceberg::Transform::Day(), 1), 2 * 24 * kHourUs);
  EXPECT_EQ(PartitionEndMicros(iceberg::Transform::Identity(), 41), 42);
  EXPECT_FALSE(PartitionEndMicros(iceberg::Transform::Month(), 1).has_value());
  EXPECT_EQ(PartitionStartMicros(iceberg::Transform::Hour(), 2), 2 * kHourUs);
  EXPECT_EQ(PartitionStartMicros(iceberg::Transform::Day(), 1), 24 * kHourUs);
  EXPECT_EQ(PartitionStartMicros(iceberg::Transform::Identity(), 41), 41);
  EXPECT_FALSE(PartitionStartMicros(iceberg::Transform::Month(), 1).has_value());
}

}  // namespace
}  // namespace st::maintenance
