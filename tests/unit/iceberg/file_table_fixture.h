// A temporary local table for the file-side tests: object store in a temp
// directory, FileIO mapping the table location onto it, a deterministic clock
// and random source, and a partitioned v2 table (day(ts), identity(category),
// bucket[4](id)).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "common/clock.h"
#include "common/random.h"
#include "iceberg/data_file.h"
#include "iceberg/file_io.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"
#include "iceberg/snapshot_operation.h"
#include "iceberg/table_metadata.h"
#include "storage/local_object_store.h"

namespace st::iceberg {

class FileTableTest : public ::testing::Test {
 protected:
  static constexpr int64_t kStartMs = 1735689600000;  // 2025-01-01T00:00:00Z
  static constexpr int64_t kDayMicros = 86'400'000'000;

  FileTableTest()
      : clock_(std::chrono::system_clock::time_point(std::chrono::milliseconds(kStartMs))),
        random_(42) {}

  void SetUp() override {
    root_ = std::filesystem::path(::testing::TempDir()) /
            ("st-icefiles-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
    store_ = storage::OpenLocalObjectStore(root_.string()).value();
    io_ = std::make_unique<FileIO>(*store_, "/wh/", "");
    metadata_ = MakeTable();
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  static Schema TableSchema() {
    return Schema::Make(0, {{1, "id", true, Type::Long(), ""},
                            {2, "ts", false, Type::TimestampTz(), ""},
                            {3, "category", false, Type::String(), ""},
                            {4, "amount", false, Type::Double(), ""}})
        .value();
  }

  static TableMetadata MakeTable() {
    TableMetadata m;
    m.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
    m.location = "/wh/db/t";
    m.last_updated_ms = kStartMs;
    Schema schema = TableSchema();
    m.last_column_id = schema.HighestFieldId();
    m.schemas.push_back(schema);
    m.partition_specs.push_back(PartitionSpec::Make(schema, 0,
                                                    {{2, 1000, "ts_day", Transform::Day()},
                                                     {3, 1001, "category", Transform::Identity()},
                                                     {1, 1002, "id_bucket", Transform::Bucket(4)}})
                                    .value());
    m.last_partition_id = 1002;
    m.sort_orders.push_back(SortOrder::Unsorted());
    return m;
  }

  // A data file with plausible metrics in partition (day, category, bucket).
  DataFile MakeFile(const std::string& name, int32_t day, const std::string& category,
                    int32_t bucket, int64_t records) {
    DataFile f;
    f.file_path = metadata_.location + "/data/" + name + ".parquet";
    f.spec_id = 0;
    f.partition =
        Value::MakeStruct({Value::Int32(day), Value::String(category), Value::Int32(bucket)});
    f.record_count = records;
    f.file_size_in_bytes = 1000 + records * 10;
    f.column_sizes = {{1, records * 8}, {2, records * 8}, {3, records * 3}};
    f.value_counts = {{1, records}, {2, records}, {3, records}};
    f.null_value_counts = {{1, 0}, {2, 0}, {3, 1}};
    f.nan_value_counts = {{4, 0}};
    f.lower_bounds = {{1, std::string("\x01\0\0\0\0\0\0\0", 8)}, {3, category}};
    f.upper_bounds = {{1, std::string("\x63\0\0\0\0\0\0\0", 8)}, {3, category}};
    f.split_offsets = {4};
    f.sort_order_id = 0;
    return f;
  }

  // Every entry (any status) of the current snapshot's manifests.
  std::vector<ManifestEntry> Entries(const TableMetadata& m) {
    std::vector<ManifestEntry> out;
    const Snapshot* current = m.CurrentSnapshot();
    if (current == nullptr) return out;
    std::vector<ManifestFile> manifests = ReadManifestList(*io_, current->manifest_list).value();
    for (const ManifestFile& mf : manifests) {
      Manifest manifest = ReadManifest(*io_, mf).value();
      for (ManifestEntry& e : manifest.entries) out.push_back(std::move(e));
    }
    return out;
  }
  // Paths of live (ADDED/EXISTING) data files of the current snapshot, sorted.
  std::vector<std::string> LivePaths(const TableMetadata& m) {
    std::vector<std::string> out;
    for (const ManifestEntry& e : Entries(m)) {
      if (e.status != ManifestEntryStatus::kDeleted) out.push_back(e.data_file.file_path);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<ManifestFile> CurrentManifests(const TableMetadata& m) {
    return ReadManifestList(*io_, m.CurrentSnapshot()->manifest_list).value();
  }

  OperationContext Ctx() { return OperationContext{*io_, clock_, random_}; }
  void Tick() { clock_.Advance(std::chrono::seconds(1)); }

  ManualClock clock_;
  DefaultRandom random_;
  std::filesystem::path root_;
  std::unique_ptr<storage::ObjectStore> store_;
  std::unique_ptr<FileIO> io_;
  TableMetadata metadata_;
};

}  // namespace st::iceberg
