#include "catalog/maintenance_model.h"

#include <array>
#include <climits>
#include <nlohmann/json.hpp>
#include <regex>

#include "catalog/json_members_internal.h"
#include "catalog/maintenance_defaults.h"

namespace st::catalog {

namespace {

using internal::NameOf;
using internal::Reader;
using internal::ValueOf;
using internal::WireName;
using nlohmann::json;

constexpr std::array<WireName<MaintenanceType>, 3> kTypes{{
    {MaintenanceType::kIcebergCompaction, kIcebergCompaction},
    {MaintenanceType::kIcebergSnapshotManagement, kIcebergSnapshotManagement},
    {MaintenanceType::kIcebergUnreferencedFileRemoval, kIcebergUnreferencedFileRemoval},
}};

constexpr std::array<WireName<MaintenanceStatus>, 2> kStatuses{{
    {MaintenanceStatus::kEnabled, "enabled"},
    {MaintenanceStatus::kDisabled, "disabled"},
}};

constexpr std::array<WireName<CompactionStrategy>, 4> kStrategies{{
    {CompactionStrategy::kAuto, "auto"},
    {CompactionStrategy::kBinpack, "binpack"},
    {CompactionStrategy::kSort, "sort"},
    {CompactionStrategy::kZOrder, "z-order"},
}};

constexpr std::array<WireName<SseAlgorithm>, 2> kSseAlgorithms{{
    {SseAlgorithm::kAes256, "AES256"},
    {SseAlgorithm::kAwsKms, "aws:kms"},
}};

// An integer member from `min` to `max`; nullopt when absent.
Result<std::optional<int64_t>> RangedInt(const json& object, const std::string& key, int64_t min,
                                         int64_t max, Reader& reader) {
  ST_ASSIGN_OR_RETURN(const json* value, reader.Int(object, key, false));
  if (value == nullptr) return std::optional<int64_t>();
  const bool huge = value->is_number_unsigned() && value->get<uint64_t>() > uint64_t{INT64_MAX};
  const int64_t number = huge ? INT64_MAX : value->get<int64_t>();
  if (huge || number < min || number > max) {
    return Err(reader.Bad(key, "The member '" + reader.where() + key + "' must be from " +
                                   std::to_string(min) + " to " + std::to_string(max) + ", not " +
                                   value->dump() + "."));
  }
  return std::optional<int64_t>(number);
}

// {"status"?, "settings"?}: the status, and the settings object if any.
Result<const json*> ReadStatusAndSettings(const json& value,
                                          std::optional<MaintenanceStatus>& status,
                                          Reader& reader) {
  reader.set_where("value.");
  ST_ASSIGN_OR_RETURN(std::optional<std::string> name, reader.Str(value, "status", false));
  if (name.has_value()) {
    Result<MaintenanceStatus> parsed = ValueOf(kStatuses, *name, "value.status");
    if (!parsed) return Err(reader.Bad("status", parsed.error()));
    status = *parsed;
  }
  return reader.Obj(value, "settings", false);
}

Status ReadTypedSettings(const json& typed, MaintenanceConfiguration& out, Reader& reader) {
  switch (out.type) {
    case MaintenanceType::kIcebergCompaction: {
      ST_ASSIGN_OR_RETURN(
          out.compaction.target_file_size_mb,
          RangedInt(typed, "targetFileSizeMB", kMinTargetFileSizeMb, kMaxTargetFileSizeMb, reader));
      ST_ASSIGN_OR_RETURN(std::optional<std::string> strategy,
                          reader.Str(typed, "strategy", false));
      if (strategy.has_value()) {
        Result<CompactionStrategy> parsed = ParseCompactionStrategy(*strategy);
        if (!parsed) return reader.Bad("strategy", parsed.error());
        out.compaction.strategy = *parsed;
      }
      return Status::OK();
    }
    case MaintenanceType::kIcebergSnapshotManagement: {
      ST_ASSIGN_OR_RETURN(out.snapshot_management.min_snapshots_to_keep,
                          RangedInt(typed, "minSnapshotsToKeep", 1, INT32_MAX, reader));
      ST_ASSIGN_OR_RETURN(std::optional<int64_t> hours,
                          RangedInt(typed, "maxSnapshotAgeHours", 1, INT32_MAX, reader));
      if (hours) out.snapshot_management.max_snapshot_age = std::chrono::hours(*hours);
      return Status::OK();
    }
    case MaintenanceType::kIcebergUnreferencedFileRemoval: {
      ST_ASSIGN_OR_RETURN(std::optional<int64_t> unreferenced,
                          RangedInt(typed, "unreferencedDays", 1, INT32_MAX, reader));
      ST_ASSIGN_OR_RETURN(std::optional<int64_t> non_current,
                          RangedInt(typed, "nonCurrentDays", 1, INT32_MAX, reader));
      if (unreferenced) {
        out.unreferenced_file_removal.unreferenced = std::chrono::days(*unreferenced);
      }
      if (non_current) out.unreferenced_file_removal.non_current = std::chrono::days(*non_current);
      return Status::OK();
    }
  }
  return Internal("unknown maintenance type");
}

json TypedSettingsJson(const MaintenanceConfiguration& config) {
  json out = json::object();
  switch (config.type) {
    case MaintenanceType::kIcebergCompaction:
      if (config.compaction.target_file_size_mb) {
        out["targetFileSizeMB"] = *config.compaction.target_file_size_mb;
      }
      if (config.compaction.strategy) {
        out["strategy"] = std::string(CompactionStrategyName(*config.compaction.strategy));
      }
      break;
    case MaintenanceType::kIcebergSnapshotManagement:
      if (config.snapshot_management.min_snapshots_to_keep) {
        out["minSnapshotsToKeep"] = *config.snapshot_management.min_snapshots_to_keep;
      }
      if (config.snapshot_management.max_snapshot_age) {
        out["maxSnapshotAgeHours"] = config.snapshot_management.max_snapshot_age->count();
      }
      break;
    case MaintenanceType::kIcebergUnreferencedFileRemoval:
      if (config.unreferenced_file_removal.unreferenced) {
        out["unreferencedDays"] = config.unreferenced_file_removal.unreferenced->count();
      }
      if (config.unreferenced_file_removal.non_current) {
        out["nonCurrentDays"] = config.unreferenced_file_removal.non_current->count();
      }
      break;
  }
  return out;
}

}  // namespace

std::string_view MaintenanceTypeName(MaintenanceType type) { return NameOf(kTypes, type); }
Result<MaintenanceType> ParseMaintenanceType(std::string_view name) {
  return ValueOf(kTypes, name, "maintenance type");
}
bool IsTableMaintenance(MaintenanceType type) {
  return type != MaintenanceType::kIcebergUnreferencedFileRemoval;
}

std::string_view MaintenanceStatusName(MaintenanceStatus status) {
  return NameOf(kStatuses, status);
}
Result<MaintenanceStatus> ParseMaintenanceStatus(std::string_view name) {
  return ValueOf(kStatuses, name, "status");
}

std::string_view CompactionStrategyName(CompactionStrategy strategy) {
  return NameOf(kStrategies, strategy);
}
Result<CompactionStrategy> ParseCompactionStrategy(std::string_view name) {
  return ValueOf(kStrategies, name, "strategy");
}

Result<MaintenanceConfiguration> ParseMaintenanceValue(MaintenanceType type,
                                                       std::string_view value_json) {
  Reader reader(nullptr);
  ST_ASSIGN_OR_RETURN(json value,
                      reader.ParseObject(value_json, "The member 'value' must be an object."));
  MaintenanceConfiguration out;
  out.type = type;
  ST_ASSIGN_OR_RETURN(const json* settings, ReadStatusAndSettings(value, out.status, reader));
  if (settings == nullptr) return out;
  out.has_settings = true;
  const std::string type_name(MaintenanceTypeName(type));
  for (const auto& [key, unused] : settings->items()) {
    if (key != type_name) {
      return Err(InvalidArgument("value.settings may only hold '" + type_name + "' for the " +
                                 type_name + " configuration, not '" + key + "'."));
    }
  }
  reader.set_where("value.settings.");
  ST_ASSIGN_OR_RETURN(const json* typed, reader.Obj(*settings, type_name, false));
  if (typed == nullptr) return out;
  reader.set_where("value.settings." + type_name + ".");
  ST_TRY(ReadTypedSettings(*typed, out, reader));
  return out;
}

std::string SerializeMaintenanceValue(const MaintenanceConfiguration& config) {
  json out = json::object();
  if (config.status) out["status"] = std::string(MaintenanceStatusName(*config.status));
  if (config.has_settings) {
    out["settings"] = {{std::string(MaintenanceTypeName(config.type)), TypedSettingsJson(config)}};
  }
  return out.dump();
}

MaintenanceConfiguration DefaultMaintenance(MaintenanceType type) {
  const char* text = type == MaintenanceType::kIcebergCompaction ? kDefaultCompactionValue
                     : type == MaintenanceType::kIcebergSnapshotManagement
                         ? kDefaultSnapshotManagementValue
                         : kDefaultUnreferencedFileRemovalValue;
  Result<MaintenanceConfiguration> parsed = ParseMaintenanceValue(type, text);
  ST_CHECK(parsed.has_value());
  return *std::move(parsed);
}

Result<RecordExpirationConfiguration> ParseRecordExpirationValue(std::string_view value_json) {
  Reader reader(nullptr);
  ST_ASSIGN_OR_RETURN(json value,
                      reader.ParseObject(value_json, "The member 'value' must be an object."));
  RecordExpirationConfiguration out;
  ST_ASSIGN_OR_RETURN(const json* settings, ReadStatusAndSettings(value, out.status, reader));
  if (settings == nullptr) return out;
  out.has_settings = true;
  reader.set_where("value.settings.");
  ST_ASSIGN_OR_RETURN(const json* days, reader.Int(*settings, "days", false));
  if (days != nullptr) {
    // std::chrono::days counts in int.
    const bool huge = days->is_number_unsigned() && days->get<uint64_t>() > uint64_t{INT32_MAX};
    const int64_t count = huge ? INT64_MAX : days->get<int64_t>();
    if (count < 1) {
      return Err(InvalidArgument("The member 'value.settings.days' must be at least 1."));
    }
    if (count > INT32_MAX) {
      return Err(InvalidArgument("The member 'value.settings.days' must be at most " +
                                 std::to_string(INT32_MAX) + "."));
    }
    out.days = std::chrono::days(count);
  }
  return out;
}

std::string SerializeRecordExpirationValue(const RecordExpirationConfiguration& config) {
  json out = json::object();
  if (config.status) out["status"] = std::string(MaintenanceStatusName(*config.status));
  if (config.has_settings) {
    json settings = json::object();
    if (config.days) settings["days"] = config.days->count();
    out["settings"] = settings;
  }
  return out.dump();
}

std::string_view SseAlgorithmName(SseAlgorithm algorithm) {
  return NameOf(kSseAlgorithms, algorithm);
}
Result<SseAlgorithm> ParseSseAlgorithm(std::string_view name) {
  for (const auto& row : kSseAlgorithms) {
    if (row.name == name) return row.value;
  }
  return Err(InvalidArgument("The sseAlgorithm '" + std::string(name) +
                             "' is not supported; use AES256 or aws:kms."));
}

Result<EncryptionConfiguration> ParseEncryptionConfiguration(std::string_view json_text) {
  Reader reader(nullptr, "encryptionConfiguration.");
  ST_ASSIGN_OR_RETURN(
      json value,
      reader.ParseObject(json_text, "The member 'encryptionConfiguration' must be an object."));
  EncryptionConfiguration out;
  ST_ASSIGN_OR_RETURN(std::string algorithm, reader.RequiredStr(value, "sseAlgorithm"));
  ST_ASSIGN_OR_RETURN(out.kms_key_arn, reader.Str(value, "kmsKeyArn", false));
  ST_ASSIGN_OR_RETURN(out.sse_algorithm, ParseSseAlgorithm(algorithm));
  if (out.sse_algorithm == SseAlgorithm::kAes256) {
    if (out.kms_key_arn.has_value()) {
      return Err(InvalidArgument("kmsKeyArn may only be given with sseAlgorithm aws:kms."));
    }
    return out;
  }
  static const std::regex kKmsKeyArn(R"(arn:aws[-a-z0-9]*:kms:[-a-z0-9]*:[0-9]{12}:key/.+)");
  if (!out.kms_key_arn.has_value() || !std::regex_match(*out.kms_key_arn, kKmsKeyArn)) {
    return Err(
        InvalidArgument("sseAlgorithm aws:kms needs kmsKeyArn of the form "
                        "arn:aws:kms:<region>:<account-id>:key/<key-id>."));
  }
  return out;
}

std::string SerializeEncryptionConfiguration(const EncryptionConfiguration& config) {
  json out = {{"sseAlgorithm", std::string(SseAlgorithmName(config.sse_algorithm))}};
  if (config.kms_key_arn.has_value()) out["kmsKeyArn"] = *config.kms_key_arn;
  return out.dump();
}

EncryptionConfig ToEncryptionRecord(const EncryptionConfiguration& config) {
  return EncryptionConfig{std::string(SseAlgorithmName(config.sse_algorithm)),
                          config.kms_key_arn.value_or("")};
}

Result<EncryptionConfiguration> FromEncryptionRecord(const EncryptionConfig& record) {
  Result<SseAlgorithm> algorithm = ParseSseAlgorithm(record.sse_algorithm);
  if (!algorithm) {
    return Err(Corruption("The stored sseAlgorithm '" + record.sse_algorithm + "' is unknown."));
  }
  EncryptionConfiguration out;
  out.sse_algorithm = *algorithm;
  if (!record.kms_key_arn.empty()) out.kms_key_arn = record.kms_key_arn;
  return out;
}

}  // namespace st::catalog
