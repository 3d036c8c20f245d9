#include "catalog/maintenance_model.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/maintenance_defaults.h"

namespace st::catalog {
namespace {

// Same JSON document (nlohmann writes members in key order).
nlohmann::json J(const std::string& text) { return nlohmann::json::parse(text); }

TEST(MaintenanceModelTest, DefaultsAreTheDocumentedValues) {
  EXPECT_EQ(J(SerializeMaintenanceValue(DefaultMaintenance(MaintenanceType::kIcebergCompaction))),
            J(kDefaultCompactionValue));
  EXPECT_EQ(
      J(SerializeMaintenanceValue(DefaultMaintenance(MaintenanceType::kIcebergSnapshotManagement))),
      J(kDefaultSnapshotManagementValue));
  MaintenanceConfiguration files =
      DefaultMaintenance(MaintenanceType::kIcebergUnreferencedFileRemoval);
  EXPECT_EQ(J(SerializeMaintenanceValue(files)), J(kDefaultUnreferencedFileRemovalValue));
  EXPECT_TRUE(files.enabled());
  EXPECT_EQ(files.unreferenced_file_removal.unreferenced, std::chrono::days(3));
  EXPECT_EQ(files.unreferenced_file_removal.non_current, std::chrono::days(10));
  MaintenanceConfiguration compaction = DefaultMaintenance(MaintenanceType::kIcebergCompaction);
  EXPECT_EQ(compaction.compaction.target_file_size_mb, 512);
  EXPECT_EQ(compaction.compaction.strategy, CompactionStrategy::kAuto);
  EXPECT_EQ(DefaultMaintenance(MaintenanceType::kIcebergSnapshotManagement)
                .snapshot_management.max_snapshot_age,
            std::chrono::hours(120));
}

TEST(MaintenanceModelTest, RoundTripsOnlyWhatWasGiven) {
  for (
      const char* text :
      {R"({"status":"disabled"})", R"({})", R"({"settings":{"icebergCompaction":{}}})",
       R"({"status":"enabled","settings":{"icebergCompaction":{"strategy":"z-order","targetFileSizeMB":64}}})"}) {
    auto parsed = ParseMaintenanceValue(MaintenanceType::kIcebergCompaction, text);
    ASSERT_TRUE(parsed.has_value()) << text << ": " << parsed.error().ToString();
    EXPECT_EQ(J(SerializeMaintenanceValue(*parsed)), J(text));
  }
  // Unknown members are dropped; {"settings":{}} names no typed settings.
  auto dropped = ParseMaintenanceValue(MaintenanceType::kIcebergSnapshotManagement,
                                       R"({"x":1,"settings":{}})");
  ASSERT_TRUE(dropped.has_value());
  EXPECT_EQ(SerializeMaintenanceValue(*dropped),
            R"({"settings":{"icebergSnapshotManagement":{}}})");
  EXPECT_FALSE(
      ParseMaintenanceValue(MaintenanceType::kIcebergCompaction, R"({"status":"disabled"})")
          ->enabled());
}

TEST(MaintenanceModelTest, RefusalsNameTheMember) {
  struct Case {
    MaintenanceType type;
    const char* value;
    const char* needle;
  };
  for (const Case& c : std::vector<Case>{
           {MaintenanceType::kIcebergCompaction,
            R"({"settings":{"icebergCompaction":{"targetFileSizeMB":1}}})",
            "value.settings.icebergCompaction.targetFileSizeMB"},
           {MaintenanceType::kIcebergCompaction,
            R"({"settings":{"icebergCompaction":{"targetFileSizeMB":513}}})", "64 to 512"},
           {MaintenanceType::kIcebergCompaction,
            R"({"settings":{"icebergCompaction":{"strategy":"shuffle"}}})", "shuffle"},
           {MaintenanceType::kIcebergCompaction,
            R"({"settings":{"icebergSnapshotManagement":{"minSnapshotsToKeep":1}}})",
            "icebergSnapshotManagement"},
           {MaintenanceType::kIcebergSnapshotManagement,
            R"({"settings":{"icebergSnapshotManagement":{"minSnapshotsToKeep":0}}})",
            "minSnapshotsToKeep"},
           {MaintenanceType::kIcebergSnapshotManagement, R"({"status":"sometimes"})", "sometimes"},
           {MaintenanceType::kIcebergUnreferencedFileRemoval,
            R"({"settings":{"icebergUnreferencedFileRemoval":{"nonCurrentDays":"3"}}})",
            "value.settings.icebergUnreferencedFileRemoval.nonCurrentDays"},
           {MaintenanceType::kIcebergUnreferencedFileRemoval, R"([])", "value"},
       }) {
    auto parsed = ParseMaintenanceValue(c.type, c.value);
    ASSERT_FALSE(parsed.has_value()) << c.value;
    EXPECT_EQ(parsed.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.error().message().find(c.needle), std::string::npos)
        << parsed.error().message();
  }
}

TEST(MaintenanceModelTest, EveryEnumHasItsWireString) {
  const std::vector<std::pair<MaintenanceType, std::string>> types = {
      {MaintenanceType::kIcebergCompaction, "icebergCompaction"},
      {MaintenanceType::kIcebergSnapshotManagement, "icebergSnapshotManagement"},
      {MaintenanceType::kIcebergUnreferencedFileRemoval, "icebergUnreferencedFileRemoval"}};
  for (const auto& [type, name] : types) {
    EXPECT_EQ(MaintenanceTypeName(type), name);
    EXPECT_EQ(ParseMaintenanceType(name).value(), type);
  }
  EXPECT_TRUE(IsTableMaintenance(MaintenanceType::kIcebergCompaction));
  EXPECT_FALSE(IsTableMaintenance(MaintenanceType::kIcebergUnreferencedFileRemoval));
  EXPECT_FALSE(ParseMaintenanceType("icebergVacuum").has_value());
  for (const auto& [strategy, name] : std::vector<std::pair<CompactionStrategy, std::string>>{
           {CompactionStrategy::kAuto, "auto"},
           {CompactionStrategy::kBinpack, "binpack"},
           {CompactionStrategy::kSort, "sort"},
           {CompactionStrategy::kZOrder, "z-order"}}) {
    EXPECT_EQ(CompactionStrategyName(strategy), name);
    EXPECT_EQ(ParseCompactionStrategy(name).value(), strategy);
  }
  EXPECT_EQ(MaintenanceStatusName(MaintenanceStatus::kEnabled), "enabled");
  EXPECT_EQ(ParseMaintenanceStatus("disabled").value(), MaintenanceStatus::kDisabled);
  EXPECT_EQ(SseAlgorithmName(SseAlgorithm::kAes256), "AES256");
  EXPECT_EQ(SseAlgorithmName(SseAlgorithm::kAwsKms), "aws:kms");
  EXPECT_EQ(ParseSseAlgorithm("aws:kms").value(), SseAlgorithm::kAwsKms);
  EXPECT_EQ(ParseSseAlgorithm("rot13").error().message(),
            "The sseAlgorithm 'rot13' is not supported; use AES256 or aws:kms.");
}

TEST(MaintenanceModelTest, RecordExpiration) {
  auto parsed = ParseRecordExpirationValue(R"({"status":"enabled","settings":{"days":30}})");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_TRUE(parsed->enabled());
  EXPECT_EQ(parsed->days, std::chrono::days(30));
  EXPECT_EQ(SerializeRecordExpirationValue(*parsed),
            R"({"settings":{"days":30},"status":"enabled"})");
  EXPECT_FALSE(ParseRecordExpirationValue(R"({})")->enabled());
  EXPECT_EQ(SerializeRecordExpirationValue(*ParseRecordExpirationValue(R"({"settings":{}})")),
            R"({"settings":{}})");
  auto zero = ParseRecordExpirationValue(R"({"settings":{"days":0}})");
  ASSERT_FALSE(zero.has_value());
  EXPECT_EQ(zero.error().message(), "The member 'value.settings.days' must be at least 1.");
  EXPECT_FALSE(ParseRecordExpirationValue(R"({"settings":{"days":99999999999}})").has_value());
  EXPECT_FALSE(ParseRecordExpirationValue(R"({"status":"on"})").has_value());
}

TEST(MaintenanceModelTest, Encryption) {
  auto kms = ParseEncryptionConfiguration(
      R"({"sseAlgorithm":"aws:kms","kmsKeyArn":"arn:aws:kms:us-east-1:111122223333:key/k1"})");
  ASSERT_TRUE(kms.has_value()) << kms.error().ToString();
  EXPECT_EQ(kms->sse_algorithm, SseAlgorithm::kAwsKms);
  EncryptionConfig record = ToEncryptionRecord(*kms);
  EXPECT_EQ(record, (EncryptionConfig{"aws:kms", "arn:aws:kms:us-east-1:111122223333:key/k1"}));
  auto back = FromEncryptionRecord(record);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(
      SerializeEncryptionConfiguration(*back),
      R"({"kmsKeyArn":"arn:aws:kms:us-east-1:111122223333:key/k1","sseAlgorithm":"aws:kms"})");
  EXPECT_EQ(ToEncryptionRecord(EncryptionConfiguration{}), EncryptionConfig{});
  EXPECT_EQ(SerializeEncryptionConfiguration(*FromEncryptionRecord(EncryptionConfig{})),
            R"({"sseAlgorithm":"AES256"})");
  EXPECT_EQ(FromEncryptionRecord({"rot13", ""}).error().code(), StatusCode::kCorruption);
  for (const char* bad :
       {R"({"sseAlgorithm":"rot13"})", R"({})", R"({"sseAlgorithm":"aws:kms"})",
        R"({"sseAlgorithm":"aws:kms","kmsKeyArn":"arn:aws:kms:us-east-1:1:key/k"})",
        R"({"sseAlgorithm":"AES256","kmsKeyArn":"arn:aws:kms:us-east-1:111122223333:key/k1"})"}) {
    auto refused = ParseEncryptionConfiguration(bad);
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_EQ(refused.error().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace st::catalog
