// Maintenance configuration a table or bucket reports when none was put
// (docs/api-contract-notes.md §1.5 and §6 item 8). Values are the S3 Tables `value`
// JSON documents, as MetadataStore stores them.
#pragma once

#include "catalog/metadata_store.h"

namespace st::catalog {

inline constexpr const char* kIcebergCompaction = "icebergCompaction";
inline constexpr const char* kIcebergSnapshotManagement = "icebergSnapshotManagement";
inline constexpr const char* kIcebergUnreferencedFileRemoval = "icebergUnreferencedFileRemoval";

// Enabled, 512 MB target, strategy auto.
inline constexpr const char* kDefaultCompactionValue =
    R"({"status":"enabled","settings":{"icebergCompaction":{"targetFileSizeMB":512,"strategy":"auto"}}})";
// Enabled, keep at least 1 snapshot, expire after 120 hours.
inline constexpr const char* kDefaultSnapshotManagementValue =
    R"({"status":"enabled","settings":{"icebergSnapshotManagement":{"minSnapshotsToKeep":1,"maxSnapshotAgeHours":120}}})";
// Enabled, noncurrent after 3 days, deleted 10 days later.
inline constexpr const char* kDefaultUnreferencedFileRemovalValue =
    R"({"status":"enabled","settings":{"icebergUnreferencedFileRemoval":{"unreferencedDays":3,"nonCurrentDays":10}}})";

// `stored` with the table-level defaults added for types never put.
MaintenanceConfigs EffectiveTableMaintenance(MaintenanceConfigs stored);
// `stored` with the bucket-level default added when never put.
MaintenanceConfigs EffectiveTableBucketMaintenance(MaintenanceConfigs stored);

}  // namespace st::catalog
