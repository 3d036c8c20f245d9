// Test-only tool for tests/integration/test_manifests_fastavro.py: builds a
// small local table through create, appends (with a manifest merge), a
// replace, a delete and an expire, using fake but realistic DataFile metrics,
// and prints a JSON account of what it meant to write. Usage:
//   st_manifest_scenario_tool <warehouse dir>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/random.h"
#include "iceberg/append.h"
#include "iceberg/conversions.h"
#include "iceberg/delete.h"
#include "iceberg/expire_snapshots.h"
#include "iceberg/manifest_list.h"
#include "iceberg/rewrite.h"
#include "iceberg/table_commit.h"
#include "iceberg/table_update.h"
#include "storage/local_object_store.h"

namespace st::iceberg {
namespace {

constexpr int64_t kStartMs = 1735689600000;  // 2025-01-01T00:00:00Z

std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Le64(int64_t v) { return ToSingleValueBytes(*Type::Long(), Value::Int64(v)).value(); }
std::string Le8(int64_t v) {
  return ToSingleValueBytes(*Type::TimestampTz(), Value::Int64(v)).value();
}

template <typename V, typename F>
nlohmann::json MapJson(const std::map<int32_t, V>& m, F f) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : m) out[std::to_string(k)] = f(v);
  return out;
}

nlohmann::json FileJson(const DataFile& f) {
  nlohmann::json partition = nlohmann::json::object();
  const auto& values = f.partition.struct_value();
  partition["ts_day"] = values[0].int32_value();
  partition["category"] =
      values[1].is_null() ? nlohmann::json() : nlohmann::json(values[1].bytes_value());
  partition["id_bucket"] = values[2].int32_value();
  auto same = [](int64_t v) { return v; };
  return {{"content", static_cast<int>(f.content)},
          {"file_path", f.file_path},
          {"file_format", "PARQUET"},
          {"partition", partition},
          {"record_count", f.record_count},
          {"file_size_in_bytes", f.file_size_in_bytes},
          {"column_sizes", MapJson(f.column_sizes, same)},
          {"value_counts", MapJson(f.value_counts, same)},
          {"null_value_counts", MapJson(f.null_value_counts, same)},
          {"nan_value_counts", MapJson(f.nan_value_counts, same)},
          {"lower_bounds", MapJson(f.lower_bounds, Hex)},
          {"upper_bounds", MapJson(f.upper_bounds, Hex)},
          {"split_offsets", f.split_offsets},
          {"sort_order_id", f.sort_order_id.value_or(-1)}};
}

nlohmann::json ManifestJson(const ManifestFile& m) {
  nlohmann::json partitions = nlohmann::json::array();
  for (const auto& p : m.partitions) {
    partitions.push_back(
        {{"contains_null", p.contains_null},
         {"contains_nan", p.contains_nan ? nlohmann::json(*p.contains_nan) : nlohmann::json()},
         {"lower_bound", p.lower_bound ? nlohmann::json(Hex(*p.lower_bound)) : nlohmann::json()},
         {"upper_bound", p.upper_bound ? nlohmann::json(Hex(*p.upper_bound)) : nlohmann::json()}});
  }
  return {{"manifest_path", m.manifest_path},
          {"manifest_length", m.manifest_length},
          {"partition_spec_id", m.partition_spec_id},
          {"content", static_cast<int>(m.content)},
          {"sequence_number", m.sequence_number},
          {"min_sequence_number", m.min_sequence_number},
          {"added_snapshot_id", m.added_snapshot_id},
          {"added_files_count", m.added_files_count},
          {"existing_files_count", m.existing_files_count},
          {"deleted_files_count", m.deleted_files_count},
          {"added_rows_count", m.added_rows_count},
          {"existing_rows_count", m.existing_rows_count},
          {"deleted_rows_count", m.deleted_rows_count},
          {"partitions", partitions}};
}

class Scenario {
 public:
  explicit Scenario(const std::string& warehouse)
      : warehouse_(std::filesystem::absolute(warehouse).string()),
        clock_(std::chrono::system_clock::time_point(std::chrono::milliseconds(kStartMs))),
        random_(20250101) {}

  Status Run(nlohmann::json* out) {
    ST_ASSIGN_OR_RETURN(store_, storage::OpenLocalObjectStore(warehouse_));
    io_ = std::make_unique<FileIO>(*store_, warehouse_, "");
    ST_ASSIGN_OR_RETURN(Schema schema, Schema::Make(0, {{1, "id", true, Type::Long(), ""},
                                                        {2, "ts", false, Type::TimestampTz(), ""},
                                                        {3, "category", false, Type::String(), ""},
                                                        {4, "amount", false, Type::Double(), ""}}));
    ST_ASSIGN_OR_RETURN(PartitionSpec spec,
                        PartitionSpec::Make(schema, 0,
                                            {{2, 1000, "ts_day", Transform::Day()},
                                             {3, 1001, "category", Transform::Identity()},
                                             {1, 1002, "id_bucket", Transform::Bucket(4)}}));
    ST_ASSIGN_OR_RETURN(
        TableMetadata created,
        NewTableMetadata(schema, spec, SortOrder::Unsorted(), warehouse_ + "/db/t",
                         {{"commit.manifest.min-count-to-merge", "3"}},
                         "4f1a2b3c-0000-4000-8000-000000000001", clock_.NowMillis()));
    ST_ASSIGN_OR_RETURN(version_, WriteInitialMetadata(*io_, created, random_));

    nlohmann::json& files = (*out)["files"];
    auto file = [&](const std::string& name, int32_t day, std::optional<std::string> category,
                    int64_t min_id, int64_t records) {
      DataFile f;
      f.file_path = warehouse_ + "/db/t/data/" + name + ".parquet";
      f.partition =
          Value::MakeStruct({Value::Int32(day), category ? Value::String(*category) : Value::Null(),
                             Value::Int32(static_cast<int32_t>(min_id % 4))});
      f.record_count = records;
      f.file_size_in_bytes = 4096 + records * 17;
      f.column_sizes = {{1, records * 8}, {2, records * 8}, {3, records * 5}, {4, records * 8}};
      f.value_counts = {{1, records}, {2, records}, {3, records}, {4, records}};
      f.null_value_counts = {{1, 0}, {2, 0}, {3, category ? 0 : records}, {4, 1}};
      f.nan_value_counts = {{4, 0}};
      int64_t day_micros = int64_t{day} * 86'400'000'000;
      f.lower_bounds = {{1, Le64(min_id)}, {2, Le8(day_micros + 1000)}};
      f.upper_bounds = {{1, Le64(min_id + records - 1)}, {2, Le8(day_micros + 3'600'000'000)}};
      if (category) {
        f.lower_bounds[3] = *category;
        f.upper_bounds[3] = *category;
      }
      f.split_offsets = {4, 4 + records * 10};
      f.sort_order_id = 0;
      files[f.file_path] = FileJson(f);
      return f;
    };
    // Days 20089 = 2025-01-01, 20090 = 2025-01-02.
    ST_TRY(Commit(FastAppend(version_.metadata,
                             {file("a", 20089, "books", 1, 100), file("b", 20089, "toys", 2, 50)},
                             {{"streamtables.channel", "orders"}}, Ctx())));
    ST_TRY(Commit(FastAppend(version_.metadata, {file("c", 20090, "books", 7, 30)}, {}, Ctx())));
    // The third data manifest reaches min-count-to-merge = 3: all fold into one.
    ST_TRY(
        Commit(FastAppend(version_.metadata, {file("d", 20090, std::nullopt, 11, 5)}, {}, Ctx())));
    ST_TRY(Commit(FastAppend(version_.metadata, {file("e", 20091, "food", 20, 8)}, {}, Ctx())));
    ST_TRY(Commit(
        ReplaceFiles(version_.metadata,
                     {warehouse_ + "/db/t/data/a.parquet", warehouse_ + "/db/t/data/c.parquet"},
                     {file("ac", 20089, "books", 1, 130)}, {}, Ctx())));
    int64_t replace_ms = version_.metadata.CurrentSnapshot()->timestamp_ms;
    ST_TRY(
        Commit(DeleteFiles(version_.metadata, {warehouse_ + "/db/t/data/b.parquet"}, {}, Ctx())));

    ST_ASSIGN_OR_RETURN(ExpireResult expired,
                        ExpireSnapshots(version_.metadata, {replace_ms, 1}, *io_, clock_));
    ST_ASSIGN_OR_RETURN(NewVersion v, WriteNextMetadata(*io_, version_, expired.metadata, random_));
    version_ = v.version;
    for (const auto* group : {&expired.manifest_lists, &expired.manifests, &expired.data_files}) {
      for (const std::string& path : *group) ST_TRY(io_->Delete(path));
    }
    (*out)["expired"] = {{"snapshot_ids", expired.expired_snapshot_ids},
                         {"manifest_lists", expired.manifest_lists},
                         {"manifests", expired.manifests},
                         {"data_files", expired.data_files}};

    (*out)["metadata_location"] = version_.location;
    (*out)["location"] = version_.metadata.location;
    nlohmann::json snapshots = nlohmann::json::array();
    for (const Snapshot& s : version_.metadata.snapshots) {
      ST_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests,
                          ReadManifestList(*io_, s.manifest_list));
      nlohmann::json list = nlohmann::json::array();
      for (const ManifestFile& m : manifests) list.push_back(ManifestJson(m));
      snapshots.push_back(
          {{"snapshot_id", s.snapshot_id},
           {"parent_snapshot_id",
            s.parent_snapshot_id ? nlohmann::json(*s.parent_snapshot_id) : nlohmann::json()},
           {"sequence_number", s.sequence_number},
           {"operation", s.operation()},
           {"summary", s.summary},
           {"manifest_list", s.manifest_list},
           {"manifests", list}});
    }
    (*out)["snapshots"] = snapshots;
    (*out)["current_snapshot_id"] = *version_.metadata.current_snapshot_id;
    (*out)["operations"] = operations_;
    return Status::OK();
  }

 private:
  OperationContext Ctx() { return OperationContext{*io_, clock_, random_}; }

  Status Commit(Result<SnapshotCommit> commit) {
    if (!commit.has_value()) return commit.error();
    ST_ASSIGN_OR_RETURN(NewVersion v, WriteNextMetadata(*io_, version_, commit->metadata, random_));
    version_ = v.version;
    operations_.push_back(version_.metadata.CurrentSnapshot()->operation());
    clock_.Advance(std::chrono::minutes(10));
    return Status::OK();
  }

  std::string warehouse_;
  ManualClock clock_;
  DefaultRandom random_;
  std::unique_ptr<storage::ObjectStore> store_;
  std::unique_ptr<FileIO> io_;
  MetadataVersion version_;
  std::vector<std::string> operations_;
};

}  // namespace
}  // namespace st::iceberg

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: st_manifest_scenario_tool <warehouse dir>\n";
    return 2;
  }
  nlohmann::json out;
  st::iceberg::Scenario scenario(argv[1]);
  st::Status status = scenario.Run(&out);
  if (!status.ok()) {
    std::cerr << "scenario failed: " << status.ToString() << "\n";
    return 1;
  }
  std::cout << out.dump(2) << "\n";
  return 0;
}
