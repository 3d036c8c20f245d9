// Snapshots and snapshot references.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace st::iceberg {

// Summary keys are the spec's ("operation", "added-data-files", "total-records", ...);
// every value is a string.
using SnapshotSummary = std::map<std::string, std::string>;

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
  int64_t timestamp_ms = 0;
  std::string manifest_list;  // Full URI of the manifest list file.
  SnapshotSummary summary;    // Includes "operation": append|replace|overwrite|delete.
  std::optional<int32_t> schema_id;

  std::string operation() const {
    auto it = summary.find("operation");
    return it == summary.end() ? std::string() : it->second;
  }
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

enum class SnapshotRefType { kBranch, kTag };

struct SnapshotRef {
  int64_t snapshot_id = 0;
  SnapshotRefType type = SnapshotRefType::kBranch;
  std::optional<int32_t> min_snapshots_to_keep;  // branches only
  std::optional<int64_t> max_snapshot_age_ms;    // branches only
  std::optional<int64_t> max_ref_age_ms;
  friend bool operator==(const SnapshotRef&, const SnapshotRef&) = default;
};

inline constexpr const char* kMainBranch = "main";

}  // namespace st::iceberg
