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

Status Failed(const TableRequirement& r, const std::string& detail) {
  return Conflict("requirement " + RequirementType(r) + " failed: " + detail);
}

Status IdMismatch(const TableRequirement& r, const char* what, int64_t expected, int64_t actual) {
  if (expected == actual) return Status::OK();
  return Failed(r, std::string(what) + " is " + std::to_string(actual) + ", expected " +
                       std::to_string(expected));
}

Status Check(const TableRequirement& req, const TableMetadata& m) {
  return std::visit(
      Overloaded{
          [&](const AssertCreate&) { return Failed(req, "table already exists"); },
          [&](const AssertTableUuid& a) {
            if (EqualsIgnoreCase(a.uuid, m.table_uuid)) return Status::OK();
            return Failed(req, "table uuid is " + m.table_uuid + ", expected " + a.uuid);
          },
          [&](const AssertRefSnapshotId& a) {
            auto it = m.refs.find(a.ref);
            if (it == m.refs.end()) {
              if (!a.snapshot_id) return Status::OK();
              return Failed(req, "ref '" + a.ref + "' does not exist, expected snapshot " +
                                     std::to_string(*a.snapshot_id));
            }
            if (!a.snapshot_id) {
              return Failed(req, "ref '" + a.ref + "' exists (snapshot " +
                                     std::to_string(it->second.snapshot_id) +
                                     "), expected it not to exist");
            }
            if (it->second.snapshot_id == *a.snapshot_id) return Status::OK();
            return Failed(req, "ref '" + a.ref + "' points at snapshot " +
                                   std::to_string(it->second.snapshot_id) + ", expected snapshot " +
                                   std::to_string(*a.snapshot_id));
          },
          [&](const AssertCurrentSchemaId& a) {
            return IdMismatch(req, "current schema id", a.current_schema_id, m.current_schema_id);
          },
          [&](const AssertLastAssignedFieldId& a) {
            return IdMismatch(req, "last assigned field id", a.last_assigned_field_id,
                              m.last_column_id);
          },
          [&](const AssertLastAssignedPartitionId& a) {
            return IdMismatch(req, "last assigned partition id", a.last_assigned_partition_id,
                              m.last_partition_id);
          },
          [&](const AssertDefaultSpecId& a) {
            return IdMismatch(req, "default spec id", a.default_spec_id, m.default_spec_id);
          },
          [&](const AssertDefaultSortOrderId& a) {
            return IdMismatch(req, "default sort order id", a.default_sort_order_id,
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
