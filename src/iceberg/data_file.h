// Data files and manifest entries as the manifests record them (spec
// "Manifests"; field ids in docs/api-contract-notes.md §5.4).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/value.h"

namespace st::iceberg {

enum class DataFileContent { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };
enum class FileFormat { kParquet, kAvro, kOrc };

struct DataFile {
  DataFileContent content = DataFileContent::kData;
  std::string file_path;  // Full URI (table location + "/data/...").
  FileFormat file_format = FileFormat::kParquet;
  int32_t spec_id = 0;  // The partition spec the partition tuple follows.
  Value partition;      // Struct in partition-spec field order (empty Struct when unpartitioned).
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  // Per field id. Bounds use the single-value serialization (conversions.h).
  std::map<int32_t, int64_t> column_sizes;
  std::map<int32_t, int64_t> value_counts;
  std::map<int32_t, int64_t> null_value_counts;
  std::map<int32_t, int64_t> nan_value_counts;
  std::map<int32_t, std::string> lower_bounds;
  std::map<int32_t, std::string> upper_bounds;
  std::optional<std::string> key_metadata;
  std::vector<int64_t> split_offsets;  // Ascending row-group start offsets.
  std::optional<int32_t> sort_order_id;

  friend bool operator==(const DataFile&, const DataFile&) = default;
};

enum class ManifestEntryStatus { kExisting = 0, kAdded = 1, kDeleted = 2 };

struct ManifestEntry {
  ManifestEntryStatus status = ManifestEntryStatus::kAdded;
  // Null on ADDED entries written by the snapshot that adds them: they
  // inherit the manifest's snapshot id and sequence number at read time.
  // Readers of our manifests get them resolved (see manifest reader).
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> sequence_number;  // Data sequence number.
  std::optional<int64_t> file_sequence_number;
  DataFile data_file;

  friend bool operator==(const ManifestEntry&, const ManifestEntry&) = default;
};

// One partition field's summary in a manifest-list entry.
struct PartitionFieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;  // Single-value serialization of the partition type.
  std::optional<std::string> upper_bound;
  friend bool operator==(const PartitionFieldSummary&, const PartitionFieldSummary&) = default;
};

enum class ManifestContent { kData = 0, kDeletes = 1 };

// A manifest-list entry (`manifest_file` record).
struct ManifestFile {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  int64_t sequence_number = 0;
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  int32_t added_files_count = 0;
  int32_t existing_files_count = 0;
  int32_t deleted_files_count = 0;
  int64_t added_rows_count = 0;
  int64_t existing_rows_count = 0;
  int64_t deleted_rows_count = 0;
  std::vector<PartitionFieldSummary> partitions;
  std::optional<std::string> key_metadata;

  friend bool operator==(const ManifestFile&, const ManifestFile&) = default;
};

}  // namespace st::iceberg
