// Table metadata (the *.metadata.json document), format v2 written, v1 and v2 read.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/snapshot.h"
#include "iceberg/sort_order.h"

namespace st::iceberg {

struct SnapshotLogEntry {
  int64_t snapshot_id = 0;
  int64_t timestamp_ms = 0;
  friend bool operator==(const SnapshotLogEntry&, const SnapshotLogEntry&) = default;
};

struct MetadataLogEntry {
  std::string metadata_file;
  int64_t timestamp_ms = 0;
  friend bool operator==(const MetadataLogEntry&, const MetadataLogEntry&) = default;
};

// A plain value; invariants (ids referenced exist, refs.main == current
// snapshot) are checked by Validate() and kept by the builders in
// table_update.h. Fields are spelled as in the spec.
struct TableMetadata {
  int format_version = 2;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<Schema> schemas;
  int32_t current_schema_id = 0;
  std::vector<PartitionSpec> partition_specs;
  int32_t default_spec_id = 0;
  int32_t last_partition_id = kPartitionFieldIdStart - 1;
  std::vector<SortOrder> sort_orders;
  int32_t default_sort_order_id = 0;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;  // -1 in JSON reads as absent.
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::map<std::string, SnapshotRef> refs;

  // Lookups; nullptr when absent.
  const Schema* CurrentSchema() const;
  const Schema* SchemaById(int32_t schema_id) const;
  const PartitionSpec* DefaultSpec() const;
  const PartitionSpec* SpecById(int32_t spec_id) const;
  const SortOrder* DefaultSortOrder() const;
  const Snapshot* CurrentSnapshot() const;
  const Snapshot* SnapshotById(int64_t snapshot_id) const;

  // Checks the cross-references: ids of schemas/specs/orders/snapshots are
  // unique, current schema/spec/sort order exist, current-snapshot-id and
  // refs point at known snapshots, refs.main equals current-snapshot-id,
  // last-column-id and last-partition-id cover all ids, last-sequence-number
  // >= every snapshot's (v2). Parent ids are not checked: expiration leaves
  // the oldest parent dangling. Errors: Corruption.
  Status Validate() const;

  friend bool operator==(const TableMetadata&, const TableMetadata&);
};

// Parses metadata JSON (v1 or v2; gzip is the caller's concern). Errors:
// Corruption naming the missing/bad key; Unsupported for format-version > 2.
Result<TableMetadata> ParseTableMetadata(std::string_view json);
// Serializes as format v2 JSON (never the v1-only "schema"/"partition-spec"
// keys); refs.main always agrees with current-snapshot-id.
std::string SerializeTableMetadata(const TableMetadata& metadata);

}  // namespace st::iceberg
