// Commit requirements and metadata updates: the REST CommitTableRequest
// model (docs/api-contract-notes.md §3.6), their JSON shapes, and the engine that checks
// requirements and applies updates to produce the next TableMetadata.
//
// Everything here is a pure function of its inputs (time is passed in), so a
// catalog can re-run a commit on fresh metadata after a Conflict.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/status.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

// ---- Requirements (JSON discriminator "type") ----
struct AssertCreate {};  // "assert-create"
struct AssertTableUuid {
  std::string uuid;
};                            // "assert-table-uuid"
struct AssertRefSnapshotId {  // "assert-ref-snapshot-id"
  std::string ref;
  std::optional<int64_t> snapshot_id;  // nullopt: the ref must not exist.
};
struct AssertCurrentSchemaId {
  int32_t current_schema_id = 0;
};
struct AssertLastAssignedFieldId {
  int32_t last_assigned_field_id = 0;
};
struct AssertLastAssignedPartitionId {
  int32_t last_assigned_partition_id = 0;
};
struct AssertDefaultSpecId {
  int32_t default_spec_id = 0;
};
struct AssertDefaultSortOrderId {
  int32_t default_sort_order_id = 0;
};

using TableRequirement =
    std::variant<AssertCreate, AssertTableUuid, AssertRefSnapshotId, AssertCurrentSchemaId,
                 AssertLastAssignedFieldId, AssertLastAssignedPartitionId, AssertDefaultSpecId,
                 AssertDefaultSortOrderId>;

// ---- Updates (JSON discriminator "action") ----
// The "-1 means last added" ids refer to the last add-* in the same request.
inline constexpr int32_t kLastAdded = -1;

struct AssignUuid {
  std::string uuid;
};
struct UpgradeFormatVersion {
  int format_version = 2;
};
struct AddSchema {
  Schema schema;
  std::optional<int32_t> last_column_id;  // Deprecated in REST; default: max of old and schema.
};
struct SetCurrentSchema {
  int32_t schema_id = kLastAdded;
};
struct AddPartitionSpec {
  PartitionSpec spec;
};  // Fields with field_id 0 get fresh ids.
struct SetDefaultSpec {
  int32_t spec_id = kLastAdded;
};
struct AddSortOrder {
  SortOrder sort_order;
};
struct SetDefaultSortOrder {
  int32_t sort_order_id = kLastAdded;
};
struct AddSnapshot {
  Snapshot snapshot;
};
struct SetSnapshotRef {
  std::string ref_name;
  SnapshotRef ref;
};
struct RemoveSnapshots {
  std::vector<int64_t> snapshot_ids;
};
struct RemoveSnapshotRef {
  std::string ref_name;
};
struct SetLocation {
  std::string location;
};
struct SetProperties {
  std::map<std::string, std::string> updates;
};
struct RemoveProperties {
  std::vector<std::string> removals;
};
struct RemoveSchemas {
  std::vector<int32_t> schema_ids;
};
struct RemovePartitionSpecs {
  std::vector<int32_t> spec_ids;
};

using TableUpdate =
    std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetCurrentSchema, AddPartitionSpec,
                 SetDefaultSpec, AddSortOrder, SetDefaultSortOrder, AddSnapshot, SetSnapshotRef,
                 RemoveSnapshots, RemoveSnapshotRef, SetLocation, SetProperties, RemoveProperties,
                 RemoveSchemas, RemovePartitionSpecs>;

// The JSON discriminator value ("assert-create", "add-snapshot", ...).
std::string RequirementType(const TableRequirement& requirement);
std::string UpdateAction(const TableUpdate& update);

// JSON (REST shapes). Parse errors: InvalidArgument naming the key, or for an
// unknown "type"/"action" (the REST spec requires a 400); Unsupported for
// actions the spec defines that we do not implement (statistics, encryption
// keys, views).
nlohmann::json TableRequirementToJson(const TableRequirement& requirement);
Result<TableRequirement> TableRequirementFromJson(const nlohmann::json& json);
nlohmann::json TableUpdateToJson(const TableUpdate& update);
Result<TableUpdate> TableUpdateFromJson(const nlohmann::json& json);
// Arrays of the above; the error names the index.
Result<std::vector<TableRequirement>> TableRequirementsFromJson(const nlohmann::json& json);
Result<std::vector<TableUpdate>> TableUpdatesFromJson(const nlohmann::json& json);

// Checks every requirement against `current` (nullptr: the table does not
// exist). Errors: Conflict (REST CommitFailedException, 409) naming the
// requirement and both the expected and the actual value. With current ==
// nullptr, every requirement except assert-create fails.
Status CheckRequirements(const std::vector<TableRequirement>& requirements,
                         const TableMetadata* current);

// Applies `updates` in order to `base` and returns the new metadata (base is
// not modified). To create a table, pass a default-constructed TableMetadata
// as base (no schemas/specs/orders yet). Maintains, as Java's
// TableMetadata.Builder does:
//  - schema/spec/order ids: an add-* equal to an existing one reuses its id,
//    else takes max+1; last-column-id / last-partition-id only grow;
//  - snapshots: v2 requires sequence-number > last-sequence-number, which
//    then advances; snapshot ids must be new;
//  - refs: set-snapshot-ref on main moves current-snapshot-id and appends to
//    the snapshot-log; removing main (or its snapshot) clears it; removing
//    snapshots drops refs that pointed at them and snapshot-log history
//    before a removed entry;
//  - last-updated-ms: the last added snapshot's timestamp, else now_ms
//    (unchanged when `updates` is empty).
// The result passes TableMetadata::Validate(). Does not touch metadata-log
// (see AddMetadataLogEntry). Errors: InvalidArgument naming the update (bad
// ids, missing referents, invalid spec/order for the schema, sequence-number
// not increasing, duplicate snapshot); Unsupported for format versions other
// than 2 as an upgrade target.
Result<TableMetadata> ApplyUpdates(const TableMetadata& base,
                                   const std::vector<TableUpdate>& updates, int64_t now_ms);

// Records the previous metadata file in `metadata.metadata_log` and trims the
// oldest entries to the table property write.metadata.previous-versions-max
// (default 100, at least 1). Errors: InvalidArgument when the property is not
// an integer.
inline constexpr const char* kMetadataPreviousVersionsMax = "write.metadata.previous-versions-max";
inline constexpr int kDefaultMetadataPreviousVersionsMax = 100;
Status AddMetadataLogEntry(TableMetadata& metadata, MetadataLogEntry previous);

// Metadata for a new table (format v2, no snapshots). Field ids of `schema`
// are kept; the schema gets id 0, the spec id 0 (fields with field_id 0 get
// ids from 1000), the sort order id 0 when unsorted else 1. Errors:
// InvalidArgument when the spec or order does not fit the schema.
Result<TableMetadata> NewTableMetadata(const Schema& schema, const PartitionSpec& spec,
                                       const SortOrder& sort_order, std::string location,
                                       std::map<std::string, std::string> properties,
                                       std::string table_uuid, int64_t now_ms);

}  // namespace st::iceberg
