#include "iceberg/table_metadata.h"

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
