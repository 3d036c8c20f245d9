// The typed model of S3 Tables maintenance settings (docs/api-contract-notes.md §1.4,
// §1.5): table maintenance (icebergCompaction, icebergSnapshotManagement),
// table bucket maintenance (icebergUnreferencedFileRemoval), record
// expiration, and a table's or bucket's encryption configuration, each with
// its one JSON codec.
//
// A maintenance or record-expiration document is the S3 Tables `value`
// object, {"status"?: "enabled" | "disabled", "settings"?: {...}}: what a
// Put*Configuration body carries, what MetadataStore stores and what the Get
// operations return. Parse reads it (from a request or the store); Serialize
// writes only the model's members. Settings a client left out stay absent
// (the maintenance runner applies maintenance_defaults.h).
//
// Errors: InvalidArgument naming the member ("value.settings.<type>.<name>")
// and what it must be.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

// The maintenance `type` path label.
enum class MaintenanceType {
  kIcebergCompaction,               // Table.
  kIcebergSnapshotManagement,       // Table.
  kIcebergUnreferencedFileRemoval,  // Table bucket.
};
std::string_view MaintenanceTypeName(MaintenanceType type);  // "icebergCompaction", ...
Result<MaintenanceType> ParseMaintenanceType(std::string_view name);
// Whether `type` is configured on tables (else on table buckets).
bool IsTableMaintenance(MaintenanceType type);

enum class MaintenanceStatus { kEnabled, kDisabled };
std::string_view MaintenanceStatusName(MaintenanceStatus status);  // "enabled", "disabled"
Result<MaintenanceStatus> ParseMaintenanceStatus(std::string_view name);

enum class CompactionStrategy { kAuto, kBinpack, kSort, kZOrder };
std::string_view CompactionStrategyName(CompactionStrategy strategy);  // "auto", ..., "z-order"
Result<CompactionStrategy> ParseCompactionStrategy(std::string_view name);

// The documented range of compaction target sizes.
inline constexpr int64_t kMinTargetFileSizeMb = 64;
inline constexpr int64_t kMaxTargetFileSizeMb = 512;

struct CompactionSettings {
  std::optional<int64_t> target_file_size_mb;  // targetFileSizeMB, 64–512.
  std::optional<CompactionStrategy> strategy;
};
struct SnapshotManagementSettings {
  std::optional<int64_t> min_snapshots_to_keep;        // minSnapshotsToKeep, ≥ 1.
  std::optional<std::chrono::hours> max_snapshot_age;  // maxSnapshotAgeHours, ≥ 1.
};
struct UnreferencedFileRemovalSettings {
  std::optional<std::chrono::days> unreferenced;  // unreferencedDays, ≥ 1.
  std::optional<std::chrono::days> non_current;   // nonCurrentDays, ≥ 1.
};

struct MaintenanceConfiguration {
  MaintenanceType type = MaintenanceType::kIcebergCompaction;
  std::optional<MaintenanceStatus> status;  // Absent reads as enabled.
  // Whether `settings` was given; it is then written as {<type>: {...}}.
  bool has_settings = false;
  // Only the member of `type` is used.
  CompactionSettings compaction;
  SnapshotManagementSettings snapshot_management;
  UnreferencedFileRemovalSettings unreferenced_file_removal;

  bool enabled() const {
    return status.value_or(MaintenanceStatus::kEnabled) == MaintenanceStatus::kEnabled;
  }
};

// `value_json` is the `value` object's text. Errors: InvalidArgument (not an
// object, an unknown status or strategy, settings for another type, a
// number out of range).
Result<MaintenanceConfiguration> ParseMaintenanceValue(MaintenanceType type,
                                                       std::string_view value_json);
std::string SerializeMaintenanceValue(const MaintenanceConfiguration& config);
// What a table or bucket reports for a type never put: enabled; compaction
// 512 MB auto; snapshots: keep 1, expire after 120 h; unreferenced files:
// noncurrent after 3 days, deleted 10 days later.
MaintenanceConfiguration DefaultMaintenance(MaintenanceType type);

// Record expiration: {"status"?, "settings"?: {"days"?: ≥ 1}}.
struct RecordExpirationConfiguration {
  std::optional<MaintenanceStatus> status;  // Absent or unset reads as disabled.
  bool has_settings = false;
  std::optional<std::chrono::days> days;

  bool enabled() const { return status == MaintenanceStatus::kEnabled; }
};
Result<RecordExpirationConfiguration> ParseRecordExpirationValue(std::string_view value_json);
std::string SerializeRecordExpirationValue(const RecordExpirationConfiguration& config);

// ---- Encryption ----

enum class SseAlgorithm { kAes256, kAwsKms };
std::string_view SseAlgorithmName(SseAlgorithm algorithm);  // "AES256", "aws:kms"
Result<SseAlgorithm> ParseSseAlgorithm(std::string_view name);

// encryptionConfiguration {sseAlgorithm, kmsKeyArn?}.
struct EncryptionConfiguration {
  SseAlgorithm sse_algorithm = SseAlgorithm::kAes256;  // As S3 Tables defaults.
  // Exactly for aws:kms: arn:aws:kms:<region>:<12 digits>:key/<id>.
  std::optional<std::string> kms_key_arn;
};
// `json_text` is the encryptionConfiguration object's text. Errors:
// InvalidArgument (an unknown algorithm, a key with AES256, aws:kms without
// a well-formed key ARN).
Result<EncryptionConfiguration> ParseEncryptionConfiguration(std::string_view json_text);
std::string SerializeEncryptionConfiguration(const EncryptionConfiguration& config);
// The store keeps encryption as an EncryptionConfig record (strings).
EncryptionConfig ToEncryptionRecord(const EncryptionConfiguration& config);
// Errors: Corruption when the stored algorithm is unknown.
Result<EncryptionConfiguration> FromEncryptionRecord(const EncryptionConfig& record);

}  // namespace st::catalog
