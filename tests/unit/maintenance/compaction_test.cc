// The compaction job: the plan's rules, binpack / sort / z-order rewrites of
// real Parquet data files (rows, order and metrics checked by reading the
// output back), a delivery append and a concurrent removal landing while
// the job runs, and a corrupt input failing the job with nothing committed.
#include "maintenance/compaction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <random>

#include "common/output_stream.h"
#include "iceberg/data_file_writer.h"
#include "iceberg/delete.h"
#include "maintenance_fixture.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"

namespace st::maintenance {
namespace {

iceberg::DataFile File(const std::string& path, int64_t bytes,
                       Value partition = Value::MakeStruct({}), int32_t spec_id = 0) {
  iceberg::DataFile file;
  file.file_path = path;
  file.file_size_in_bytes = bytes;
  file.record_count = 1;
  file.partition = std::move(partition);
  file.spec_id = spec_id;
  return file;
}

TEST(PlanCompactionTest, SmallFilesPerPartitionBinPackedGroupsOfTwoOrMore) {
  const int64_t target = 1000;
  const Value p1 = Value::MakeStruct({Value::Int32(1)});
  const Value p2 = Value::MakeStruct({Value::Int32(2)});
  std::vector<iceberg::DataFile> live = {
      File("a", 600, p1),      File("b", 500, p1),   File("c", 400, p1),
      File("d", 300, p1),      File("big", 750, p1),  // 75% of the target: not a candidate.
      File("lonely", 100, p2),  // Alone in its partition: nothing to merge with.
      File("e", 100, p1, 1),    // Same tuple, other spec: its own partition, alone.
  };
  auto plan = PlanCompaction(live, target, 0);
  ASSERT_TRUE(plan.has_value());
  // First fit decreasing: {a 600, c 400} and {b 500, d 300}.
  ASSERT_EQ(plan->size(), 2u);
  std::vector<std::vector<std::string>> groups;
  for (const CompactionGroup& g : *plan) {
    std::vector<std::string> paths;
    for (const auto& f : g.files) paths.push_back(f.file_path);
    groups.push_back(paths);
    EXPECT_LE(g.bytes, target);
    EXPECT_EQ(g.partition, p1);
  }
  EXPECT_EQ(groups[0], (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(groups[1], (std::vector<std::string>{"b", "d"}));

  // The hot pass: only partitions with more than N candidates.
  EXPECT_TRUE(PlanCompaction(live, target, 4)->empty());
  EXPECT_EQ(PlanCompaction(live, target, 3)->size(), 2u);
  EXPECT_EQ(PlanCompaction(live, 0, 0).error().code(), StatusCode::kInvalidArgument);
}

// Wraps the fixture's store; runs a hook when the job opens its first output.
class HookedStore final : public storage::ObjectStore {
 public:
  explicit HookedStore(storage::ObjectStore& inner) : inner_(inner) {}
  std::function<void()> on_first_output;

  Status Put(std::string_view key, std::string_view bytes) override {
    return inner_.Put(key, bytes);
  }
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override {
    return inner_.PutIfAbsent(key, bytes);
  }
  Result<std::unique_ptr<storage::ObjectWriter>> NewWriter(std::string_view key) override {
    if (key.find("-compacted-") != std::string_view::npos && on_first_output) {
      auto hook = std::move(on_first_output);
      on_first_output = nullptr;
      hook();
    }
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

 private:
  storage::ObjectStore& inner_;
};

class CompactionTest : public MaintenanceTest {
 protected:
  // id long, x int, y int, name string (optional); partitioned by identity(p).
  catalog::Table MakeDataTable(const std::string& name, iceberg::SortOrder order,
                               std::map<std::string, std::string> properties = {}) {
    auto schema = iceberg::Schema::Make(0, {{1, "id", true, iceberg::Type::Long(), ""},
                                            {2, "x", true, iceberg::Type::Int(), ""},
                                            {3, "y", true, iceberg::Type::Int(), ""},
                                            {4, "name", false, iceberg::Type::String(), ""},
                                            {5, "p", true, iceberg::Type::Int(), ""}});
    EXPECT_TRUE(schema.has_value());
    schema_ = *schema;
    auto spec =
        iceberg::PartitionSpec::Make(*schema, 0, {{5, 1000, "p", iceberg::Transform::Identity()}});
    EXPECT_TRUE(spec.has_value());
    spec_ = *spec;
    catalog::InitialMetadata metadata{*schema, *spec, std::move(order), std::move(properties)};
    auto created = commits_->CreateTable(
        catalog::NewTable{bucket_.arn, "ns", name, kAccount, std::nullopt, std::nullopt}, metadata);
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return created->table;
  }

  static Value Row(int64_t id, int x, int y, int p) {
    return Value::MakeStruct({Value::Int64(id), Value::Int32(x), Value::Int32(y),
                              id % 5 == 0 ? Value::Null() : Value::String("n" + std::to_string(id)),
                              Value::Int32(p)});
  }

  // One append of one file per partition holding `rows`.
  std::vector<iceberg::DataFile> AppendRows(const catalog::Table& table,
                                            const std::vector<Value>& rows) {
    auto loaded = commits_->LoadTable(table.table_id);
    EXPECT_TRUE(loaded.has_value());
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, kKeyRoot);
    iceberg::DataFileWriterOptions options;
    options.data_location = loaded->metadata->metadata.location + "/data";
    auto writer = iceberg::DataFileWriter::Make(io, schema_, spec_, options, random_);
    EXPECT_TRUE(writer.has_value());
    for (const Value& row : rows) EXPECT_TRUE((*writer)->Write(row).ok());
    auto files = (*writer)->Close();
    EXPECT_TRUE(files.has_value());
    iceberg::OperationContext op{io, clock_, random_};
    auto snapshot = iceberg::FastAppend(loaded->metadata->metadata, *files, {}, op);
    EXPECT_TRUE(snapshot.has_value());
    catalog::CommitOptions commit;
    commit.account_id = kAccount;
    EXPECT_TRUE(
        commits_->CommitTable(table.table_id, snapshot->requirements, snapshot->updates, commit)
            .has_value());
    return *files;
  }

  // Live data files of the current snapshot.
  std::vector<iceberg::DataFile> Live(const catalog::Table& table) {
    iceberg::TableMetadata metadata = Current(table);
    iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
    std::vector<iceberg::DataFile> live;
    auto manifests = iceberg::ReadManifestList(io, metadata.CurrentSnapshot()->manifest_list);
    EXPECT_TRUE(manifests.has_value());
    for (const auto& m : *manifests) {
      auto contents = iceberg::ReadManifest(io, m);
      EXPECT_TRUE(contents.has_value());
      for (auto& e : contents->entries) {
        if (e.status != iceberg::ManifestEntryStatus::kDeleted) live.push_back(e.data_file);
      }
    }
    return live;
  }

  // Every row of a file, in file order.
  std::vector<Value> FileRows(const catalog::Table& table, const std::string& path) {
    iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
    auto bytes = io.Read(path);
    EXPECT_TRUE(bytes.has_value());
    auto reader = parquet::FileReader::Open(*bytes);
    EXPECT_TRUE(reader.has_value());
    std::vector<Value> rows;
    for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
      auto part = (*reader)->ReadRows(g);
      EXPECT_TRUE(part.has_value());
      for (Value& v : *part) rows.push_back(std::move(v));
    }
    return rows;
  }

  std::multiset<std::string> AllRowsText(const catalog::Table& table) {
    std::multiset<std::string> out;
    for (const auto& file : Live(table)) {
      for (const Value& row : FileRows(table, file.file_path)) {
        const auto& f = row.struct_value();
        out.insert(std::to_string(f[0].int64_value()) + "," + std::to_string(f[1].int32_value()) +
                   "," + std::to_string(f[2].int32_value()) + "," +
                   (f[3].is_null() ? "null" : f[3].bytes_value()) + "," +
                   std::to_string(f[4].int32_value()));
      }
    }
    return out;
  }

  Result<CompactionOutcome> Compact(const catalog::Table& table,
                                    catalog::CompactionStrategy strategy,
                                    storage::ObjectStore* objects = nullptr) {
    CompactionOptions options;
    options.strategy = strategy;
    options.target_file_size_bytes = 64LL << 20;
    return CompactTable({*commits_, objects != nullptr ? *objects : *objects_, kKeyRoot, random_},
                        table, options);
  }

  // Ten appends of shuffled rows: ids 0..999, x/y a 32 x 32 grid, p in {0, 1}.
  void AppendShuffled(const catalog::Table& table) {
    std::vector<Value> rows;
    for (int i = 0; i < 1000; ++i) rows.push_back(Row(i, i % 32, (i / 32) % 32, i % 2));
    std::mt19937 rng(3);
    std::shuffle(rows.begin(), rows.end(), rng);
    for (int a = 0; a < 10; ++a) {
      AppendRows(table, std::vector<Value>(rows.begin() + a * 100, rows.begin() + (a + 1) * 100));
    }
  }

  iceberg::Schema schema_ = *iceberg::Schema::Make(0, {});
  iceberg::PartitionSpec spec_ = iceberg::PartitionSpec::Unpartitioned();
};

TEST_F(CompactionTest, BinpackReplacesSmallFilesPerPartitionWithTheSameRows) {
  catalog::Table table = MakeDataTable("t", iceberg::SortOrder::Unsorted());
  AppendShuffled(table);
  ASSERT_EQ(Live(table).size(), 20u);
  const auto before = AllRowsText(table);
  const int64_t before_snapshot = Current(table).CurrentSnapshot()->snapshot_id;

  auto out = Compact(table, catalog::CompactionStrategy::kAuto);
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  EXPECT_EQ(out->strategy, "binpack");
  EXPECT_EQ(out->files_rewritten, 20);
  EXPECT_EQ(out->files_written, 2);
  EXPECT_EQ(out->records_rewritten, 1000);
  EXPECT_EQ(out->partitions, 2);
  EXPECT_GT(out->bytes_read, 0);
  EXPECT_GT(out->bytes_written, 0);

  const iceberg::TableMetadata after = Current(table);
  EXPECT_EQ(after.CurrentSnapshot()->summary.at("operation"), "replace");
  EXPECT_EQ(after.CurrentSnapshot()->parent_snapshot_id, before_snapshot);
  EXPECT_EQ(AllRowsText(table), before);
  std::vector<iceberg::DataFile> live = Live(table);
  ASSERT_EQ(live.size(), 2u);
  for (const auto& file : live) {
    EXPECT_NE(file.file_path.find("/data/p="), std::string::npos) << file.file_path;
    EXPECT_NE(file.file_path.find("-compacted-"), std::string::npos) << file.file_path;
    EXPECT_EQ(file.record_count, 500);
    // Metrics from the writer's summary: counts and bounds per field id.
    EXPECT_EQ(file.value_counts.at(1), 500);
    EXPECT_EQ(file.null_value_counts.at(4), 100);
    EXPECT_TRUE(file.lower_bounds.contains(1) && file.upper_bounds.contains(1));
    EXPECT_GT(file.column_sizes.at(2), 0);
  }
  // Nothing left to do: each partition holds one file.
  auto again = Compact(table, catalog::CompactionStrategy::kAuto);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->files_rewritten, 0);
}

TEST_F(CompactionTest, SortOrdersRowsByTheTablesSortOrder) {
  iceberg::SortOrder order;
  order.order_id = 1;
  order.fields.push_back({iceberg::Transform::Identity(), 2, iceberg::SortDirection::kDesc,
                          iceberg::NullOrder::kNullsLast});
  order.fields.push_back({iceberg::Transform::Identity(), 1, iceberg::SortDirection::kAsc,
                          iceberg::NullOrder::kNullsFirst});
  catalog::Table table = MakeDataTable("t", order);
  AppendShuffled(table);
  const auto before = AllRowsText(table);
  auto out = Compact(table, catalog::CompactionStrategy::kAuto);
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  EXPECT_EQ(out->strategy, "sort");
  EXPECT_EQ(AllRowsText(table), before);
  for (const auto& file : Live(table)) {
    EXPECT_EQ(file.sort_order_id, 1);
    std::vector<Value> rows = FileRows(table, file.file_path);
    ASSERT_EQ(rows.size(), 500u);
    for (size_t i = 1; i < rows.size(); ++i) {
      const auto& a = rows[i - 1].struct_value();
      const auto& b = rows[i].struct_value();
      const bool ordered =
          a[1].int32_value() > b[1].int32_value() ||
          (a[1].int32_value() == b[1].int32_value() && a[0].int64_value() < b[0].int64_value());
      ASSERT_TRUE(ordered) << "row " << i << " of " << file.file_path;
    }
  }
}

TEST_F(CompactionTest, SortRollsIntoFilesThatDoNotOverlapOnTheFirstSortColumn) {
  iceberg::SortOrder order;
  order.order_id = 1;
  order.fields.push_back({iceberg::Transform::Identity(), 1, iceberg::SortDirection::kAsc,
                          iceberg::NullOrder::kNullsFirst});
  // A small write.target-file-size-bytes lowers the target below 64 MiB.
  catalog::Table table = MakeDataTable("t", order, {{"write.target-file-size-bytes", "6000"}});
  AppendShuffled(table);
  for (const auto& file : Live(table)) ASSERT_LT(file.file_size_in_bytes, 4500);
  const auto before = AllRowsText(table);
  auto out = Compact(table, catalog::CompactionStrategy::kSort);
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  EXPECT_EQ(AllRowsText(table), before);
  EXPECT_GT(out->files_written, 2);
  std::map<int32_t, std::vector<std::pair<int64_t, int64_t>>> ranges;  // Per partition.
  for (const auto& file : Live(table)) {
    int64_t lo = 0, hi = 0;
    std::memcpy(&lo, file.lower_bounds.at(1).data(), 8);
    std::memcpy(&hi, file.upper_bounds.at(1).data(), 8);
    ranges[file.partition.struct_value()[0].int32_value()].push_back({lo, hi});
  }
  for (auto& [partition, list] : ranges) {
    std::sort(list.begin(), list.end());
    for (size_t i = 1; i < list.size(); ++i) {
      EXPECT_LT(list[i - 1].second, list[i].first) << "partition " << partition;
    }
  }
}

TEST_F(CompactionTest, ZOrderInterleavesTheSortColumns) {
  iceberg::SortOrder order;
  order.order_id = 1;
  order.fields.push_back({iceberg::Transform::Identity(), 2, iceberg::SortDirection::kAsc,
                          iceberg::NullOrder::kNullsFirst});
  order.fields.push_back({iceberg::Transform::Identity(), 3, iceberg::SortDirection::kAsc,
                          iceberg::NullOrder::kNullsFirst});
  catalog::Table table = MakeDataTable("t", order);
  // A uniform 64 x 32 grid, the x halves in partitions 0 and 1, shuffled.
  std::vector<Value> grid;
  for (int i = 0; i < 2048; ++i) grid.push_back(Row(i, i % 64, i / 64, (i % 64) / 32));
  std::mt19937 rng(5);
  std::shuffle(grid.begin(), grid.end(), rng);
  for (int a = 0; a < 8; ++a) {
    AppendRows(table, std::vector<Value>(grid.begin() + a * 256, grid.begin() + (a + 1) * 256));
  }
  const auto before = AllRowsText(table);
  auto out = Compact(table, catalog::CompactionStrategy::kZOrder);
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  EXPECT_EQ(out->strategy, "z-order");
  EXPECT_EQ(AllRowsText(table), before);
  for (const auto& file : Live(table)) {
    std::vector<Value> rows = FileRows(table, file.file_path);
    // Every quarter of the file (in z-order) covers one 16 x 16 quadrant of
    // the file's 32 x 32 box, where input order spans all of it.
    ASSERT_EQ(rows.size(), 1024u);
    const size_t quarter = rows.size() / 4;
    for (size_t q = 0; q < 4; ++q) {
      int min_x = 99, max_x = -1, min_y = 99, max_y = -1;
      for (size_t i = q * quarter; i < (q + 1) * quarter; ++i) {
        const auto& r = rows[i].struct_value();
        min_x = std::min(min_x, r[1].int32_value());
        max_x = std::max(max_x, r[1].int32_value());
        min_y = std::min(min_y, r[2].int32_value());
        max_y = std::max(max_y, r[2].int32_value());
      }
      EXPECT_EQ(max_x - min_x, 15) << "quarter " << q;
      EXPECT_EQ(max_y - min_y, 15) << "quarter " << q;
    }
  }
}

TEST_F(CompactionTest, AnAppendDuringTheJobIsKeptAndTheReplacementReapplied) {
  catalog::Table table = MakeDataTable("t", iceberg::SortOrder::Unsorted());
  AppendShuffled(table);
  HookedStore hooked(*objects_);
  hooked.on_first_output = [&] { AppendRows(table, {Row(5001, 1, 1, 0)}); };
  auto before = AllRowsText(table);
  before.insert("5001,1,1,n5001,0");
  auto out = Compact(table, catalog::CompactionStrategy::kBinpack, &hooked);
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  EXPECT_EQ(out->files_rewritten, 20);
  EXPECT_EQ(AllRowsText(table), before);
  EXPECT_EQ(Live(table).size(), 3u);  // Two compacted files and the appended one.
  EXPECT_EQ(Current(table).CurrentSnapshot()->summary.at("operation"), "replace");
}

TEST_F(CompactionTest, AnInputRemovedDuringTheJobMakesItReplan) {
  catalog::Table table = MakeDataTable("t", iceberg::SortOrder::Unsorted());
  AppendShuffled(table);
  const iceberg::DataFile victim_file = Live(table)[0];
  const std::string victim = victim_file.file_path;
  const size_t rows_before = AllRowsText(table).size();
  HookedStore hooked(*objects_);
  hooked.on_first_output = [&] {
    auto loaded = commits_->LoadTable(table.table_id);
    iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, kKeyRoot);
    iceberg::OperationContext op{io, clock_, random_};
    auto snapshot = iceberg::DeleteFiles(loaded->metadata->metadata, {victim}, {}, op);
    ASSERT_TRUE(snapshot.has_value());
    catalog::CommitOptions commit;
    commit.account_id = kAccount;
    ASSERT_TRUE(
        commits_->CommitTable(table.table_id, snapshot->requirements, snapshot->updates, commit)
            .has_value());
  };
  auto out = Compact(table, catalog::CompactionStrategy::kBinpack, &hooked);
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  EXPECT_EQ(out->files_rewritten, 19);  // The re-plan no longer sees the victim.
  EXPECT_EQ(Live(table).size(), 2u);
  EXPECT_EQ(AllRowsText(table).size(), rows_before - static_cast<size_t>(victim_file.record_count));
}

TEST_F(CompactionTest, ACorruptInputFailsNamingItAndCommitsNothing) {
  catalog::Table table = MakeDataTable("t", iceberg::SortOrder::Unsorted());
  AppendShuffled(table);
  std::vector<iceberg::DataFile> live = Live(table);
  std::sort(live.begin(), live.end(),
            [](const auto& a, const auto& b) { return a.file_path < b.file_path; });
  const std::string victim = live.back().file_path;
  iceberg::FileIO io = catalog::TableFileIO(*objects_, table, kKeyRoot);
  ASSERT_TRUE(
      io.Write(victim, std::string(static_cast<size_t>(live.back().file_size_in_bytes), 'z')).ok());
  const int64_t before_snapshot = Current(table).CurrentSnapshot()->snapshot_id;
  auto listed_before = objects_->List("");
  ASSERT_TRUE(listed_before.has_value());

  auto out = Compact(table, catalog::CompactionStrategy::kBinpack);
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code(), StatusCode::kCorruption);
  EXPECT_NE(out.error().ToString().find(victim), std::string::npos) << out.error().ToString();
  EXPECT_EQ(Current(table).CurrentSnapshot()->snapshot_id, before_snapshot);
  // The files written for the other partition were deleted again.
  auto listed_after = objects_->List("");
  ASSERT_TRUE(listed_after.has_value());
  EXPECT_EQ(listed_after->size(), listed_before->size());
}

TEST_F(CompactionTest, AFileWithoutFieldIdsIsUnsupportedNotRewrittenAsNulls) {
  catalog::Table table = MakeDataTable("t", iceberg::SortOrder::Unsorted());
  AppendShuffled(table);
  // A file as a Hive import leaves it: right names, no field ids.
  auto schema = parquet::Schema::Make(
      {parquet::Node::Int64("id", parquet::Repetition::kRequired, std::nullopt),
       parquet::Node::Int32("x", parquet::Repetition::kRequired, std::nullopt),
       parquet::Node::Int32("y", parquet::Repetition::kRequired, std::nullopt),
       parquet::Node::String("name", parquet::Repetition::kOptional, std::nullopt),
       parquet::Node::Int32("p", parquet::Repetition::kRequired, std::nullopt)});
  ASSERT_TRUE(schema.has_value());
  MemoryOutputStream sink;
  auto writer = parquet::FileWriter::Make(*schema, {}, &sink);
  ASSERT_TRUE(writer.has_value());
  ASSERT_TRUE((*writer)->WriteRow(Row(7000, 1, 1, 0)).ok());
  ASSERT_TRUE((*writer)->Close().has_value());
  const std::string bytes = sink.Release();
  auto loaded = commits_->LoadTable(table.table_id);
  iceberg::FileIO io = catalog::TableFileIO(*objects_, loaded->table, kKeyRoot);
  iceberg::DataFile file =
      File(loaded->metadata->metadata.location + "/data/p=0/hive.parquet",
           static_cast<int64_t>(bytes.size()), Value::MakeStruct({Value::Int32(0)}));
  ASSERT_TRUE(io.Write(file.file_path, bytes).ok());
  iceberg::OperationContext op{io, clock_, random_};
  auto snapshot = iceberg::FastAppend(loaded->metadata->metadata, {file}, {}, op);
  ASSERT_TRUE(snapshot.has_value());
  catalog::CommitOptions commit;
  commit.account_id = kAccount;
  ASSERT_TRUE(
      commits_->CommitTable(table.table_id, snapshot->requirements, snapshot->updates, commit)
          .has_value());
  const int64_t before = Current(table).CurrentSnapshot()->snapshot_id;

  auto out = Compact(table, catalog::CompactionStrategy::kBinpack);
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code(), StatusCode::kUnsupported);
  EXPECT_NE(out.error().ToString().find("hive.parquet"), std::string::npos)
      << out.error().ToString();
  EXPECT_EQ(Current(table).CurrentSnapshot()->snapshot_id, before);
}

}  // namespace
}  // namespace st::maintenance
