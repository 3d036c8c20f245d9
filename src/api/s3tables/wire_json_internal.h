// Response bodies of the control plane: the model's JSON member names
// (camelCase), ISO-8601 timestamps with milliseconds and 'Z'
// (docs/api-contract-notes.md §1.1, §1.5).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/maintenance_job_store.h"
#include "catalog/records.h"
#include "http/response.h"

namespace st::api::s3tables {

// TableBucketSummary / GetTableBucket output.
nlohmann::json TableBucketJson(const catalog::TableBucket& bucket);
// NamespaceSummary / GetNamespace output.
nlohmann::json NamespaceJson(const catalog::Namespace& ns);
// TableSummary (ListTables).
nlohmann::json TableSummaryJson(const catalog::Table& table);
// GetTable output.
nlohmann::json TableJson(const catalog::Table& table);
// EncryptionConfiguration.
nlohmann::json EncryptionJson(const catalog::EncryptionConfig& config);

// TableMaintenanceJobStatusValue, or the record-expiration job status when
// `record_expiration` (its words have no underscores, and it carries the
// deleted counts as `metrics`): Disabled when the job is off, else the last
// run's outcome (Not_Yet_Run when it never ran).
nlohmann::json MaintenanceJobStatusJson(const std::optional<catalog::MaintenanceJobState>& last_run,
                                        bool enabled, bool record_expiration);

// 200 (or `status`) with a JSON body.
http::Response JsonResponse(const nlohmann::json& body, int status = 200);

}  // namespace st::api::s3tables
