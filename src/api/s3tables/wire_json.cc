#include <cstdio>
#include <ctime>

#include "api/s3tables/wire_json_internal.h"

namespace st::api::s3tables {

std::string FormatTimestamp(catalog::TimePoint time) {
  auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  int64_t fraction = millis % 1000;
  if (fraction < 0) {
    fraction += 1000;
    seconds -= 1;
  }
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(fraction));
  return buffer;
}

nlohmann::json TableBucketJson(const catalog::TableBucket& bucket) {
  return {{"arn", bucket.arn},
          {"name", bucket.name},
          {"ownerAccountId", bucket.owner_account_id},
          {"createdAt", FormatTimestamp(bucket.created_at)},
          {"tableBucketId", bucket.table_bucket_id},
          {"type", "customer"}};
}

nlohmann::json NamespaceJson(const catalog::Namespace& ns) {
  return {{"namespace", nlohmann::json::array({ns.name})},
          {"createdAt", FormatTimestamp(ns.created_at)},
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
                        {"createdAt", FormatTimestamp(table.created_at)},
                        {"modifiedAt", FormatTimestamp(table.modified_at)},
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
                        {"createdAt", FormatTimestamp(table.created_at)},
                        {"createdBy", table.created_by},
                        {"modifiedAt", FormatTimestamp(table.modified_at)},
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
