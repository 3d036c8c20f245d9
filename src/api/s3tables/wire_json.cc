#include "api/s3tables/wire_json_internal.h"
#include "common/utc_time.h"

namespace st::api::s3tables {

nlohmann::json MaintenanceJobStatusJson(const std::optional<catalog::MaintenanceJobState>& last_run,
                                        bool enabled, bool record_expiration) {
  if (!enabled) return {{"status", "Disabled"}};
  if (!last_run.has_value()) {
    return {{"status", record_expiration ? "NotYetRun" : "Not_Yet_Run"}};
  }
  nlohmann::json out = {
      {"status", last_run->outcome == catalog::JobOutcome::kSuccessful ? "Successful" : "Failed"},
      {"lastRunTimestamp", FormatUtcMillis(last_run->last_run)}};
  if (last_run->outcome == catalog::JobOutcome::kFailed) {
    out["failureMessage"] = last_run->failure_message;
  }
  if (record_expiration && last_run->outcome == catalog::JobOutcome::kSuccessful) {
    out["metrics"] = {{"deletedDataFiles", last_run->deleted_data_files},
                      {"deletedRecords", last_run->deleted_records},
                      {"removedFilesSize", last_run->removed_files_size_bytes}};
  }
  return out;
}

nlohmann::json TableBucketJson(const catalog::TableBucket& bucket) {
  return {{"arn", bucket.arn},
          {"name", bucket.name},
          {"ownerAccountId", bucket.owner_account_id},
          {"createdAt", FormatUtcMillis(bucket.created_at)},
          {"tableBucketId", bucket.table_bucket_id},
          {"type", "customer"}};
}

nlohmann::json NamespaceJson(const catalog::Namespace& ns) {
  return {{"namespace", nlohmann::json::array({ns.name})},
          {"createdAt", FormatUtcMillis(ns.created_at)},
          {"createdBy", ns.created_by},
          {"ownerAccountId", ns.owner_account_id},
          {"namespaceId", ns.namespace_id},
          {"tableBucketId", ns.table_bucket_id}};
}

nlohmann::json TableSummaryJson(const catalog::Table& table) {
  nlohmann::json out = {{"namespace", nlohmann::json::array({table.namespace_name})},
                        {"name", table.name},
                        {"type", table.type},
                        {"tableARN", table.arn},
                        {"createdAt", FormatUtcMillis(table.created_at)},
                        {"modifiedAt", FormatUtcMillis(table.modified_at)},
                        {"namespaceId", table.namespace_id},
                        {"tableBucketId", table.table_bucket_id}};
  // A streaming table is managed by its delivery channel; naming it here
  // tells clients why their writes are refused.
  if (table.managed_by_channel.has_value()) out["managedByService"] = *table.managed_by_channel;
  return out;
}

nlohmann::json TableJson(const catalog::Table& table) {
  nlohmann::json out = {{"name", table.name},
                        {"type", table.type},
                        {"tableARN", table.arn},
                        {"namespace", nlohmann::json::array({table.namespace_name})},
                        {"namespaceId", table.namespace_id},
                        {"versionToken", table.version_token},
                        {"warehouseLocation", table.warehouse_location},
                        {"createdAt", FormatUtcMillis(table.created_at)},
                        {"createdBy", table.created_by},
                        {"modifiedAt", FormatUtcMillis(table.modified_at)},
                        {"modifiedBy", table.modified_by},
                        {"ownerAccountId", table.owner_account_id},
                        {"format", table.format},
                        {"tableBucketId", table.table_bucket_id}};
  if (table.metadata_location.has_value()) out["metadataLocation"] = *table.metadata_location;
  if (table.managed_by_channel.has_value()) out["managedByService"] = *table.managed_by_channel;
  return out;
}

nlohmann::json EncryptionJson(const catalog::EncryptionConfig& config) {
  nlohmann::json out = {{"sseAlgorithm", config.sse_algorithm}};
  if (!config.kms_key_arn.empty()) out["kmsKeyArn"] = config.kms_key_arn;
  return out;
}

http::Response JsonResponse(const nlohmann::json& body, int status) {
  return http::Response::Json(status, body.dump());
}

}  // namespace st::api::s3tables
