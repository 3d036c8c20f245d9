// PlanCompaction (compaction.h): candidates per partition, bin-packed.
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "maintenance/compaction.h"

namespace st::maintenance {

namespace {

// A string equal exactly when two partition values are (kinds included, so
// an Int32 1 and an Int64 1 of different specs never share a group).
void AppendKey(const Value& value, std::string* key) {
  key->push_back(static_cast<char>('a' + static_cast<int>(value.kind())));
  switch (value.kind()) {
    case Value::Kind::kNull:
      return;
    case Value::Kind::kBool:
      key->push_back(value.bool_value() ? '1' : '0');
      return;
    case Value::Kind::kInt32:
      *key += std::to_string(value.int32_value());
      break;
    case Value::Kind::kInt64:
      *key += std::to_string(value.int64_value());
      break;
    case Value::Kind::kFloat:
    case Value::Kind::kDouble: {
      const double d =
          value.kind() == Value::Kind::kFloat ? value.float_value() : value.double_value();
      key->append(reinterpret_cast<const char*>(&d), sizeof(d));
      break;
    }
    case Value::Kind::kDecimal: {
      const Int128 v = value.decimal_value();
      key->append(reinterpret_cast<const char*>(&v), sizeof(v));
      break;
    }
    case Value::Kind::kString:
    case Value::Kind::kBinary:
      *key += std::to_string(value.bytes_value().size()) + ':' + value.bytes_value();
      break;
    case Value::Kind::kList:
    case Value::Kind::kStruct:
      for (const Value& v :
           value.kind() == Value::Kind::kList ? value.list_value() : value.struct_value()) {
        AppendKey(v, key);
      }
      break;
    case Value::Kind::kMap:
      for (const auto& [k, v] : value.map_value()) {
        AppendKey(k, key);
        AppendKey(v, key);
      }
      break;
  }
  key->push_back(';');
}

}  // namespace

Result<std::vector<CompactionGroup>> PlanCompaction(const std::vector<iceberg::DataFile>& live,
                                                    int64_t target_file_size_bytes,
                                                    int min_small_files, int64_t max_group_bytes) {
  if (target_file_size_bytes < 1) {
    return Err(InvalidArgument("compaction target file size must be at least 1 byte"));
  }
  if (max_group_bytes <= 0) max_group_bytes = target_file_size_bytes;
  const auto small_below =
      static_cast<int64_t>(static_cast<double>(target_file_size_bytes) * kSmallFileShare);
  std::map<std::string, std::vector<const iceberg::DataFile*>> partitions;
  for (const iceberg::DataFile& file : live) {
    if (file.content != iceberg::DataFileContent::kData ||
        file.file_format != iceberg::FileFormat::kParquet ||
        file.file_size_in_bytes >= small_below) {
      continue;
    }
    std::string key = std::to_string(file.spec_id) + '/';
    AppendKey(file.partition, &key);
    partitions[key].push_back(&file);
  }

  std::vector<CompactionGroup> plan;
  for (auto& [key, files] : partitions) {
    if (files.size() < 2) continue;
    if (min_small_files > 0 && static_cast<int64_t>(files.size()) <= min_small_files) continue;
    // First fit decreasing: the largest files seed the groups, small ones
    // fill the gaps. Ties broken by path so a plan is deterministic.
    std::sort(files.begin(), files.end(), [](const auto* a, const auto* b) {
      if (a->file_size_in_bytes != b->file_size_in_bytes) {
        return a->file_size_in_bytes > b->file_size_in_bytes;
      }
      return a->file_path < b->file_path;
    });
    std::vector<CompactionGroup> groups;
    for (const iceberg::DataFile* file : files) {
      auto fits = std::find_if(groups.begin(), groups.end(), [&](const CompactionGroup& g) {
        return g.bytes + file->file_size_in_bytes <= max_group_bytes;
      });
      if (fits == groups.end()) {
        groups.push_back(CompactionGroup{file->spec_id, file->partition, {}, 0});
        fits = groups.end() - 1;
      }
      fits->files.push_back(*file);
      fits->bytes += file->file_size_in_bytes;
    }
    for (CompactionGroup& group : groups) {
      if (group.files.size() >= 2) plan.push_back(std::move(group));
    }
  }
  return plan;
}

}  // namespace st::maintenance
