// CheckRequirements: the REST commit's optimistic-concurrency assertions.
#include <algorithm>
#include <cctype>

#include "common/overloaded.h"
#include "iceberg/table_update.h"

namespace st::iceberg {

namespace {

bool EqualsIgnoreCase(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The message starts with "Requirement failed: <what changed>", the words
// Iceberg's clients and its REST Compatibility Kit look for, then names the
// requirement and the fix. A Conflict: the table moved on since the client
// read it, so a reload and retry can succeed (409 CommitFailedException).
Status Failed(const TableRequirement& r, const std::string& detail) {
  return Conflict("Requirement failed: " + detail + " (" + RequirementType(r) +
                  "); reload the table and retry the commit.");
}

Status IdChanged(const TableRequirement& r, const char* what, int64_t expected, int64_t actual) {
  if (expected == actual) return Status::OK();
  return Failed(r, std::string(what) + " changed: expected id " + std::to_string(expected) +
                       " != " + std::to_string(actual));
}

std::string RefKind(const SnapshotRef& ref) {
  return ref.type == SnapshotRefType::kTag ? "tag" : "branch";
}

Status Check(const TableRequirement& req, const TableMetadata& m) {
  return std::visit(
      Overloaded{
          [&](const AssertCreate&) { return Failed(req, "table already exists"); },
          [&](const AssertTableUuid& a) {
            if (EqualsIgnoreCase(a.uuid, m.table_uuid)) return Status::OK();
            return Failed(req, "UUID does not match: expected " + a.uuid + " != " + m.table_uuid);
          },
          [&](const AssertRefSnapshotId& a) {
            auto it = m.refs.find(a.ref);
            if (it == m.refs.end()) {
              if (!a.snapshot_id) return Status::OK();
              return Failed(req, "branch or tag " + a.ref + " is missing, expected snapshot " +
                                     std::to_string(*a.snapshot_id));
            }
            const std::string ref = RefKind(it->second) + " " + a.ref;
            if (!a.snapshot_id) {
              return Failed(req, ref + " was created concurrently (it points at snapshot " +
                                     std::to_string(it->second.snapshot_id) +
                                     ", expected it not to exist)");
            }
            if (it->second.snapshot_id == *a.snapshot_id) return Status::OK();
            return Failed(req, ref + " has changed: expected id " + std::to_string(*a.snapshot_id) +
                                   " != " + std::to_string(it->second.snapshot_id));
          },
          [&](const AssertCurrentSchemaId& a) {
            return IdChanged(req, "current schema", a.current_schema_id, m.current_schema_id);
          },
          [&](const AssertLastAssignedFieldId& a) {
            return IdChanged(req, "last assigned field id", a.last_assigned_field_id,
                             m.last_column_id);
          },
          [&](const AssertLastAssignedPartitionId& a) {
            return IdChanged(req, "last assigned partition id", a.last_assigned_partition_id,
                             m.last_partition_id);
          },
          [&](const AssertDefaultSpecId& a) {
            return IdChanged(req, "default partition spec", a.default_spec_id, m.default_spec_id);
          },
          [&](const AssertDefaultSortOrderId& a) {
            return IdChanged(req, "default sort order", a.default_sort_order_id,
                             m.default_sort_order_id);
          },
      },
      req);
}

}  // namespace

Status CheckRequirements(const std::vector<TableRequirement>& requirements,
                         const TableMetadata* current) {
  for (const auto& req : requirements) {
    if (current == nullptr) {
      if (std::holds_alternative<AssertCreate>(req)) continue;
      return Failed(req, "table does not exist");
    }
    ST_TRY(Check(req, *current));
  }
  return Status::OK();
}

}  // namespace st::iceberg
