// REST JSON shapes of commit requirements and updates.
#include <nlohmann/json.hpp>

#include "common/overloaded.h"
#include "iceberg/json_reader_internal.h"
#include "iceberg/json_serde.h"
#include "iceberg/table_update.h"

namespace st::iceberg {

using internal::Json;
using internal::JsonReader;

namespace {

// Actions the REST spec defines that this engine does not implement.
constexpr const char* kUnsupportedActions[] = {
    "set-statistics",           "remove-statistics",
    "set-partition-statistics", "remove-partition-statistics",
    "add-encryption-key",       "remove-encryption-key",
    "add-view-version",         "set-current-view-version"};

// Errors from nested parsers get the update's name as context.
template <typename T>
Result<T> InContext(Result<T> r, const std::string& context) {
  if (!r.has_value()) return Err(r.error().WithContext(context));
  return r;
}

Result<TableRequirement> ParseRequirement(const JsonReader& r, const std::string& type) {
  if (type == "assert-create") return AssertCreate{};
  if (type == "assert-table-uuid") {
    ST_ASSIGN_OR_RETURN(std::string uuid, r.String("uuid"));
    return AssertTableUuid{std::move(uuid)};
  }
  if (type == "assert-ref-snapshot-id") {
    AssertRefSnapshotId a;
    ST_ASSIGN_OR_RETURN(a.ref, r.String("ref"));
    ST_ASSIGN_OR_RETURN(a.snapshot_id, r.OptionalInt64("snapshot-id"));
    return a;
  }
  if (type == "assert-current-schema-id") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("current-schema-id"));
    return AssertCurrentSchemaId{id};
  }
  if (type == "assert-last-assigned-field-id") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("last-assigned-field-id"));
    return AssertLastAssignedFieldId{id};
  }
  if (type == "assert-last-assigned-partition-id") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("last-assigned-partition-id"));
    return AssertLastAssignedPartitionId{id};
  }
  if (type == "assert-default-spec-id") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("default-spec-id"));
    return AssertDefaultSpecId{id};
  }
  if (type == "assert-default-sort-order-id") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("default-sort-order-id"));
    return AssertDefaultSortOrderId{id};
  }
  return Err(InvalidArgument("unknown commit requirement type '" + type + "'"));
}

Result<TableUpdate> ParseSchemaUpdates(const JsonReader& r, const std::string& action) {
  if (action == "add-schema") {
    ST_ASSIGN_OR_RETURN(const Json* schema_json, r.Object("schema"));
    ST_ASSIGN_OR_RETURN(Schema schema, InContext(SchemaFromJson(*schema_json), action));
    ST_ASSIGN_OR_RETURN(auto last_column_id, r.OptionalInt32("last-column-id"));
    return AddSchema{std::move(schema), last_column_id};
  }
  if (action == "set-current-schema") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("schema-id"));
    return SetCurrentSchema{id};
  }
  if (action == "add-spec") {
    ST_ASSIGN_OR_RETURN(const Json* spec_json, r.Object("spec"));
    ST_ASSIGN_OR_RETURN(PartitionSpec spec, InContext(PartitionSpecFromJson(*spec_json), action));
    return AddPartitionSpec{std::move(spec)};
  }
  if (action == "set-default-spec") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("spec-id"));
    return SetDefaultSpec{id};
  }
  if (action == "add-sort-order") {
    ST_ASSIGN_OR_RETURN(const Json* order_json, r.Object("sort-order"));
    ST_ASSIGN_OR_RETURN(SortOrder order, InContext(SortOrderFromJson(*order_json), action));
    return AddSortOrder{std::move(order)};
  }
  if (action == "set-default-sort-order") {
    ST_ASSIGN_OR_RETURN(int32_t id, r.Int32("sort-order-id"));
    return SetDefaultSortOrder{id};
  }
  if (action == "remove-schemas") {
    ST_ASSIGN_OR_RETURN(auto ids, r.Int32List("schema-ids"));
    return RemoveSchemas{std::move(ids)};
  }
  if (action == "remove-partition-specs") {
    ST_ASSIGN_OR_RETURN(auto ids, r.Int32List("spec-ids"));
    return RemovePartitionSpecs{std::move(ids)};
  }
  return Err(InvalidArgument("unknown table update action '" + action + "'"));
}

Result<TableUpdate> ParseUpdate(const JsonReader& r, const Json& json, const std::string& action) {
  if (action == "assign-uuid") {
    ST_ASSIGN_OR_RETURN(std::string uuid, r.String("uuid"));
    return AssignUuid{std::move(uuid)};
  }
  if (action == "upgrade-format-version") {
    ST_ASSIGN_OR_RETURN(int32_t v, r.Int32("format-version"));
    return UpgradeFormatVersion{v};
  }
  if (action == "add-snapshot") {
    ST_ASSIGN_OR_RETURN(const Json* snapshot_json, r.Object("snapshot"));
    ST_ASSIGN_OR_RETURN(Snapshot snapshot, InContext(SnapshotFromJson(*snapshot_json), action));
    // Only snapshots read from old metadata may lack a summary; a new one
    // names its operation.
    if (snapshot.summary.empty()) {
      return Err(InvalidArgument(action + ": the snapshot has no summary; it must name its "
                                          "operation"));
    }
    return AddSnapshot{std::move(snapshot)};
  }
  if (action == "set-snapshot-ref") {
    SetSnapshotRef u;
    ST_ASSIGN_OR_RETURN(u.ref_name, r.String("ref-name"));
    // The ref's own fields sit inline in the update object.
    ST_ASSIGN_OR_RETURN(u.ref, InContext(SnapshotRefFromJson(json), action));
    return u;
  }
  if (action == "remove-snapshots") {
    ST_ASSIGN_OR_RETURN(auto ids, r.Int64List("snapshot-ids"));
    return RemoveSnapshots{std::move(ids)};
  }
  if (action == "remove-snapshot-ref") {
    ST_ASSIGN_OR_RETURN(std::string name, r.String("ref-name"));
    return RemoveSnapshotRef{std::move(name)};
  }
  if (action == "set-location") {
    ST_ASSIGN_OR_RETURN(std::string location, r.String("location"));
    return SetLocation{std::move(location)};
  }
  if (action == "set-properties") {
    ST_ASSIGN_OR_RETURN(auto updates, r.StringMap("updates"));
    return SetProperties{std::move(updates)};
  }
  if (action == "remove-properties") {
    ST_ASSIGN_OR_RETURN(auto removals, r.StringList("removals"));
    return RemoveProperties{std::move(removals)};
  }
  for (const char* unsupported : kUnsupportedActions) {
    if (action == unsupported) {
      return Err(Unsupported("table update action '" + action + "' is not supported"));
    }
  }
  return ParseSchemaUpdates(r, action);
}

}  // namespace

std::string RequirementType(const TableRequirement& requirement) {
  return std::visit(
      Overloaded{
          [](const AssertCreate&) { return "assert-create"; },
          [](const AssertTableUuid&) { return "assert-table-uuid"; },
          [](const AssertRefSnapshotId&) { return "assert-ref-snapshot-id"; },
          [](const AssertCurrentSchemaId&) { return "assert-current-schema-id"; },
          [](const AssertLastAssignedFieldId&) { return "assert-last-assigned-field-id"; },
          [](const AssertLastAssignedPartitionId&) { return "assert-last-assigned-partition-id"; },
          [](const AssertDefaultSpecId&) { return "assert-default-spec-id"; },
          [](const AssertDefaultSortOrderId&) { return "assert-default-sort-order-id"; },
      },
      requirement);
}

std::string UpdateAction(const TableUpdate& update) {
  return std::visit(Overloaded{
                        [](const AssignUuid&) { return "assign-uuid"; },
                        [](const UpgradeFormatVersion&) { return "upgrade-format-version"; },
                        [](const AddSchema&) { return "add-schema"; },
                        [](const SetCurrentSchema&) { return "set-current-schema"; },
                        [](const AddPartitionSpec&) { return "add-spec"; },
                        [](const SetDefaultSpec&) { return "set-default-spec"; },
                        [](const AddSortOrder&) { return "add-sort-order"; },
                        [](const SetDefaultSortOrder&) { return "set-default-sort-order"; },
                        [](const AddSnapshot&) { return "add-snapshot"; },
                        [](const SetSnapshotRef&) { return "set-snapshot-ref"; },
                        [](const RemoveSnapshots&) { return "remove-snapshots"; },
                        [](const RemoveSnapshotRef&) { return "remove-snapshot-ref"; },
                        [](const SetLocation&) { return "set-location"; },
                        [](const SetProperties&) { return "set-properties"; },
                        [](const RemoveProperties&) { return "remove-properties"; },
                        [](const RemoveSchemas&) { return "remove-schemas"; },
                        [](const RemovePartitionSpecs&) { return "remove-partition-specs"; },
                    },
                    update);
}

Json TableRequirementToJson(const TableRequirement& requirement) {
  Json j = {{"type", RequirementType(requirement)}};
  std::visit(
      Overloaded{
          [](const AssertCreate&) {},
          [&](const AssertTableUuid& a) { j["uuid"] = a.uuid; },
          [&](const AssertRefSnapshotId& a) {
            j["ref"] = a.ref;
            j["snapshot-id"] = a.snapshot_id ? Json(*a.snapshot_id) : Json(nullptr);
          },
          [&](const AssertCurrentSchemaId& a) { j["current-schema-id"] = a.current_schema_id; },
          [&](const AssertLastAssignedFieldId& a) {
            j["last-assigned-field-id"] = a.last_assigned_field_id;
          },
          [&](const AssertLastAssignedPartitionId& a) {
            j["last-assigned-partition-id"] = a.last_assigned_partition_id;
          },
          [&](const AssertDefaultSpecId& a) { j["default-spec-id"] = a.default_spec_id; },
          [&](const AssertDefaultSortOrderId& a) {
            j["default-sort-order-id"] = a.default_sort_order_id;
          },
      },
      requirement);
  return j;
}

Result<TableRequirement> TableRequirementFromJson(const Json& json) {
  JsonReader r(json, "commit requirement");
  ST_ASSIGN_OR_RETURN(std::string type, r.String("type"));
  JsonReader named(json, "requirement " + type);
  return ParseRequirement(named, type);
}

Json TableUpdateToJson(const TableUpdate& update) {
  Json j = {{"action", UpdateAction(update)}};
  std::visit(Overloaded{
                 [&](const AssignUuid& u) { j["uuid"] = u.uuid; },
                 [&](const UpgradeFormatVersion& u) { j["format-version"] = u.format_version; },
                 [&](const AddSchema& u) {
                   j["schema"] = SchemaToJson(u.schema);
                   if (u.last_column_id) j["last-column-id"] = *u.last_column_id;
                 },
                 [&](const SetCurrentSchema& u) { j["schema-id"] = u.schema_id; },
                 [&](const AddPartitionSpec& u) { j["spec"] = PartitionSpecToJson(u.spec); },
                 [&](const SetDefaultSpec& u) { j["spec-id"] = u.spec_id; },
                 [&](const AddSortOrder& u) { j["sort-order"] = SortOrderToJson(u.sort_order); },
                 [&](const SetDefaultSortOrder& u) { j["sort-order-id"] = u.sort_order_id; },
                 [&](const AddSnapshot& u) { j["snapshot"] = SnapshotToJson(u.snapshot); },
                 [&](const SetSnapshotRef& u) {
                   j.update(SnapshotRefToJson(u.ref));
                   j["ref-name"] = u.ref_name;
                 },
                 [&](const RemoveSnapshots& u) { j["snapshot-ids"] = u.snapshot_ids; },
                 [&](const RemoveSnapshotRef& u) { j["ref-name"] = u.ref_name; },
                 [&](const SetLocation& u) { j["location"] = u.location; },
                 [&](const SetProperties& u) { j["updates"] = u.updates; },
                 [&](const RemoveProperties& u) { j["removals"] = u.removals; },
                 [&](const RemoveSchemas& u) { j["schema-ids"] = u.schema_ids; },
                 [&](const RemovePartitionSpecs& u) { j["spec-ids"] = u.spec_ids; },
             },
             update);
  return j;
}

Result<TableUpdate> TableUpdateFromJson(const Json& json) {
  JsonReader r(json, "table update");
  ST_ASSIGN_OR_RETURN(std::string action, r.String("action"));
  JsonReader named(json, "update " + action);
  return ParseUpdate(named, json, action);
}

Result<std::vector<TableRequirement>> TableRequirementsFromJson(const Json& json) {
  if (!json.is_array()) return Err(InvalidArgument("requirements must be a JSON array"));
  std::vector<TableRequirement> out;
  for (size_t i = 0; i < json.size(); ++i) {
    ST_ASSIGN_OR_RETURN(auto req, InContext(TableRequirementFromJson(json[i]),
                                            "requirements[" + std::to_string(i) + "]"));
    out.push_back(std::move(req));
  }
  return out;
}

Result<std::vector<TableUpdate>> TableUpdatesFromJson(const Json& json) {
  if (!json.is_array()) return Err(InvalidArgument("updates must be a JSON array"));
  std::vector<TableUpdate> out;
  for (size_t i = 0; i < json.size(); ++i) {
    ST_ASSIGN_OR_RETURN(
        auto update, InContext(TableUpdateFromJson(json[i]), "updates[" + std::to_string(i) + "]"));
    out.push_back(std::move(update));
  }
  return out;
}

}  // namespace st::iceberg
