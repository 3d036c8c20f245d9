#include "iceberg/table_metadata.h"

#include <set>

namespace st::iceberg {

namespace {
template <typename C, typename Pred>
auto FindIn(const C& items, Pred pred) -> const typename C::value_type* {
  for (const auto& item : items) {
    if (pred(item)) return &item;
  }
  return nullptr;
}
}  // namespace

const Schema* TableMetadata::SchemaById(int32_t id) const {
  return FindIn(schemas, [&](const Schema& s) { return s.schema_id() == id; });
}
const Schema* TableMetadata::CurrentSchema() const { return SchemaById(current_schema_id); }
const PartitionSpec* TableMetadata::SpecById(int32_t id) const {
  return FindIn(partition_specs, [&](const PartitionSpec& s) { return s.spec_id() == id; });
}
const PartitionSpec* TableMetadata::DefaultSpec() const { return SpecById(default_spec_id); }
const SortOrder* TableMetadata::DefaultSortOrder() const {
  return FindIn(sort_orders,
                [&](const SortOrder& s) { return s.order_id == default_sort_order_id; });
}
const Snapshot* TableMetadata::SnapshotById(int64_t id) const {
  return FindIn(snapshots, [&](const Snapshot& s) { return s.snapshot_id == id; });
}
const Snapshot* TableMetadata::CurrentSnapshot() const {
  return current_snapshot_id ? SnapshotById(*current_snapshot_id) : nullptr;
}

Status TableMetadata::Validate() const {
  auto fail = [](const std::string& message) { return Corruption("table metadata: " + message); };
  if (format_version < 1 || format_version > 2) {
    return fail("format-version " + std::to_string(format_version) + " is not 1 or 2");
  }
  std::set<int32_t> ids;
  for (const auto& s : schemas) {
    if (!ids.insert(s.schema_id()).second) {
      return fail("duplicate schema-id " + std::to_string(s.schema_id()));
    }
    if (s.HighestFieldId() > last_column_id) {
      return fail("schema " + std::to_string(s.schema_id()) + " has field id " +
                  std::to_string(s.HighestFieldId()) + " above last-column-id " +
                  std::to_string(last_column_id));
    }
  }
  if (CurrentSchema() == nullptr) {
    return fail("current-schema-id " + std::to_string(current_schema_id) + " is not in schemas");
  }
  ids.clear();
  for (const auto& spec : partition_specs) {
    if (!ids.insert(spec.spec_id()).second) {
      return fail("duplicate spec-id " + std::to_string(spec.spec_id()));
    }
    if (spec.LastFieldId() > last_partition_id) {
      return fail("partition spec " + std::to_string(spec.spec_id()) + " has field id " +
                  std::to_string(spec.LastFieldId()) + " above last-partition-id " +
                  std::to_string(last_partition_id));
    }
  }
  if (DefaultSpec() == nullptr) {
    return fail("default-spec-id " + std::to_string(default_spec_id) +
                " is not in partition-specs");
  }
  ids.clear();
  for (const auto& order : sort_orders) {
    if (!ids.insert(order.order_id).second) {
      return fail("duplicate sort order-id " + std::to_string(order.order_id));
    }
  }
  if (DefaultSortOrder() == nullptr) {
    return fail("default-sort-order-id " + std::to_string(default_sort_order_id) +
                " is not in sort-orders");
  }
  // Parents are not checked: expiring snapshots legitimately leaves the
  // oldest survivor's parent-snapshot-id dangling.
  std::set<int64_t> snapshot_ids;
  for (const auto& s : snapshots) {
    if (!snapshot_ids.insert(s.snapshot_id).second) {
      return fail("duplicate snapshot-id " + std::to_string(s.snapshot_id));
    }
    if (format_version >= 2 && s.sequence_number > last_sequence_number) {
      return fail("snapshot " + std::to_string(s.snapshot_id) + " has sequence-number " +
                  std::to_string(s.sequence_number) + " above last-sequence-number " +
                  std::to_string(last_sequence_number));
    }
  }
  if (current_snapshot_id && !snapshot_ids.count(*current_snapshot_id)) {
    return fail("current-snapshot-id " + std::to_string(*current_snapshot_id) +
                " is not in snapshots");
  }
  for (const auto& [name, ref] : refs) {
    if (!snapshot_ids.count(ref.snapshot_id)) {
      return fail("ref '" + name + "' points at unknown snapshot " +
                  std::to_string(ref.snapshot_id));
    }
  }
  auto main = refs.find(kMainBranch);
  if (main != refs.end()) {
    if (main->second.type != SnapshotRefType::kBranch) return fail("ref 'main' must be a branch");
    if (main->second.snapshot_id != current_snapshot_id.value_or(-1)) {
      return fail("refs.main points at snapshot " + std::to_string(main->second.snapshot_id) +
                  " but current-snapshot-id is " +
                  std::to_string(current_snapshot_id.value_or(-1)));
    }
  } else if (current_snapshot_id) {
    return fail("current-snapshot-id is " + std::to_string(*current_snapshot_id) +
                " but there is no 'main' ref");
  }
  return Status::OK();
}

bool operator==(const TableMetadata& a, const TableMetadata& b) {
  if (a.schemas.size() != b.schemas.size()) return false;
  for (size_t i = 0; i < a.schemas.size(); ++i) {
    if (a.schemas[i].schema_id() != b.schemas[i].schema_id() ||
        !a.schemas[i].SameStructure(b.schemas[i])) {
      return false;
    }
  }
  return a.format_version == b.format_version && a.table_uuid == b.table_uuid &&
         a.location == b.location && a.last_sequence_number == b.last_sequence_number &&
         a.last_updated_ms == b.last_updated_ms && a.last_column_id == b.last_column_id &&
         a.current_schema_id == b.current_schema_id && a.partition_specs == b.partition_specs &&
         a.default_spec_id == b.default_spec_id && a.last_partition_id == b.last_partition_id &&
         a.sort_orders == b.sort_orders && a.default_sort_order_id == b.default_sort_order_id &&
         a.properties == b.properties && a.current_snapshot_id == b.current_snapshot_id &&
         a.snapshots == b.snapshots && a.snapshot_log == b.snapshot_log &&
         a.metadata_log == b.metadata_log && a.refs == b.refs;
}

}  // namespace st::iceberg
