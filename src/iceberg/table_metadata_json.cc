// ParseTableMetadata / SerializeTableMetadata (spec "Table Metadata Fields").
#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/json_nesting.h"
#include "iceberg/json_reader_internal.h"
#include "iceberg/json_serde.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

using internal::AsCorruption;
using internal::Json;
using internal::JsonReader;

namespace {

constexpr const char* kWhat = "table metadata";

// Each array element parsed by `parse`, with errors re-coded as Corruption
// and prefixed by the key and index.
template <typename T, typename Parse>
Result<std::vector<T>> ParseArray(const JsonReader& r, const char* key, Parse parse) {
  ST_ASSIGN_OR_RETURN(const Json* array, r.Array(key));
  std::vector<T> out;
  for (size_t i = 0; i < array->size(); ++i) {
    auto item = parse((*array)[i]);
    if (!item.has_value()) {
      const Status& e = item.error();
      const std::string context = std::string(kWhat) + ": " + key + "[" + std::to_string(i) + "]";
      if (e.code() == StatusCode::kUnsupported) return Err(e.WithContext(context));
      return Err(Corruption(context + ": " + e.message()));
    }
    out.push_back(std::move(*item));
  }
  return out;
}

// In stored metadata the ids are required, unlike in REST requests.
Status RequireKey(const Json& j, const char* key, const char* what) {
  if (!j.is_object() || !j.contains(key)) {
    return InvalidArgument(std::string(what) + ": missing required key '" + key + "'");
  }
  return Status::OK();
}

Result<Schema> ParseStoredSchema(const Json& j) {
  ST_TRY(RequireKey(j, "schema-id", "schema"));
  return SchemaFromJson(j);
}

Result<PartitionSpec> ParseStoredSpec(const Json& j) {
  ST_TRY(RequireKey(j, "spec-id", "partition spec"));
  return PartitionSpecFromJson(j);
}

Result<SortOrder> ParseStoredOrder(const Json& j) {
  ST_TRY(RequireKey(j, "order-id", "sort order"));
  return SortOrderFromJson(j);
}

Result<SnapshotLogEntry> ParseSnapshotLogEntry(const Json& j) {
  JsonReader e(j, "snapshot-log entry");
  SnapshotLogEntry entry;
  ST_ASSIGN_OR_RETURN(entry.snapshot_id, e.Int64("snapshot-id"));
  ST_ASSIGN_OR_RETURN(entry.timestamp_ms, e.Int64("timestamp-ms"));
  return entry;
}

Result<MetadataLogEntry> ParseMetadataLogEntry(const Json& j) {
  JsonReader e(j, "metadata-log entry");
  MetadataLogEntry entry;
  ST_ASSIGN_OR_RETURN(entry.metadata_file, e.String("metadata-file"));
  ST_ASSIGN_OR_RETURN(entry.timestamp_ms, e.Int64("timestamp-ms"));
  return entry;
}

Status ParseSchemas(const JsonReader& r, int version, TableMetadata& m) {
  if (version >= 2 || r.Has("schemas")) {
    ST_ASSIGN_OR_RETURN(m.schemas, ParseArray<Schema>(r, "schemas", ParseStoredSchema));
    ST_ASSIGN_OR_RETURN(m.current_schema_id, r.Int32("current-schema-id"));
    return Status::OK();
  }
  ST_ASSIGN_OR_RETURN(const Json* schema, r.Object("schema"));
  auto parsed = SchemaFromJson(*schema);
  if (!parsed.has_value()) return Corruption(std::string(kWhat) + ": " + parsed.error().message());
  m.current_schema_id = parsed->schema_id();
  m.schemas.push_back(std::move(*parsed));
  return Status::OK();
}

Status ParseSpecs(const JsonReader& r, int version, TableMetadata& m) {
  if (version >= 2 || r.Has("partition-specs")) {
    ST_ASSIGN_OR_RETURN(m.partition_specs,
                        ParseArray<PartitionSpec>(r, "partition-specs", ParseStoredSpec));
    ST_ASSIGN_OR_RETURN(m.default_spec_id, r.Int32("default-spec-id"));
  } else {
    // v1 "partition-spec": the fields of spec 0; old writers omit field ids.
    ST_ASSIGN_OR_RETURN(const Json* fields, r.Array("partition-spec"));
    auto parsed = PartitionFieldsFromJson(*fields);
    if (!parsed.has_value()) {
      return Corruption(std::string(kWhat) + ": partition-spec: " + parsed.error().message());
    }
    for (size_t i = 0; i < parsed->size(); ++i) {
      if ((*parsed)[i].field_id == 0) {
        (*parsed)[i].field_id = kPartitionFieldIdStart + static_cast<int32_t>(i);
      }
    }
    m.partition_specs.push_back(PartitionSpec::MakeUnchecked(0, std::move(*parsed)));
    m.default_spec_id = 0;
  }
  for (const auto& spec : m.partition_specs) {
    for (const auto& f : spec.fields()) {
      if (f.field_id == 0) {
        return Corruption(std::string(kWhat) + ": partition field '" + f.name + "' of spec " +
                          std::to_string(spec.spec_id()) + " lacks 'field-id'");
      }
    }
  }
  if (version >= 2 || r.Has("last-partition-id")) {
    ST_ASSIGN_OR_RETURN(m.last_partition_id, r.Int32("last-partition-id"));
  } else {
    m.last_partition_id = kPartitionFieldIdStart - 1;
    for (const auto& spec : m.partition_specs) {
      m.last_partition_id = std::max(m.last_partition_id, spec.LastFieldId());
    }
  }
  return Status::OK();
}

Status ParseSnapshotsAndRefs(const JsonReader& r, int version, TableMetadata& m) {
  ST_ASSIGN_OR_RETURN(auto current, r.OptionalInt64("current-snapshot-id"));
  if (current && *current != -1) m.current_snapshot_id = current;
  if (r.Has("snapshots")) {
    ST_ASSIGN_OR_RETURN(m.snapshots, ParseArray<Snapshot>(r, "snapshots", [&](const Json& j) {
                          return SnapshotFromJson(j, version);
                        }));
  }
  if (r.Has("snapshot-log")) {
    ST_ASSIGN_OR_RETURN(m.snapshot_log,
                        ParseArray<SnapshotLogEntry>(r, "snapshot-log", ParseSnapshotLogEntry));
  }
  if (r.Has("metadata-log")) {
    ST_ASSIGN_OR_RETURN(m.metadata_log,
                        ParseArray<MetadataLogEntry>(r, "metadata-log", ParseMetadataLogEntry));
  }
  if (r.Has("refs")) {
    ST_ASSIGN_OR_RETURN(const Json* refs, r.Object("refs"));
    for (auto it = refs->begin(); it != refs->end(); ++it) {
      auto ref = SnapshotRefFromJson(*it);
      if (!ref.has_value()) {
        return Corruption(std::string(kWhat) + ": refs." + it.key() + ": " + ref.error().message());
      }
      m.refs.emplace(it.key(), *ref);
    }
  } else if (m.current_snapshot_id) {
    // Writers before refs existed: main is implied by current-snapshot-id.
    m.refs.emplace(kMainBranch, SnapshotRef{*m.current_snapshot_id, SnapshotRefType::kBranch,
                                            std::nullopt, std::nullopt, std::nullopt});
  }
  return Status::OK();
}

Result<TableMetadata> ParseDocument(const Json& doc) {
  JsonReader r(doc, kWhat);
  ST_TRY(r.CheckObject());
  TableMetadata m;
  ST_ASSIGN_OR_RETURN(m.format_version, r.Int32("format-version"));
  if (m.format_version > 2) {
    return Err(Unsupported("table metadata has format-version " + std::to_string(m.format_version) +
                           "; only versions 1 and 2 are supported"));
  }
  if (m.format_version < 1) {
    return Err(InvalidArgument("table metadata has invalid format-version " +
                               std::to_string(m.format_version)));
  }
  const int v = m.format_version;
  if (v >= 2 || r.Has("table-uuid")) {
    ST_ASSIGN_OR_RETURN(m.table_uuid, r.String("table-uuid"));
  }
  ST_ASSIGN_OR_RETURN(m.location, r.String("location"));
  if (v >= 2) {
    ST_ASSIGN_OR_RETURN(m.last_sequence_number, r.Int64("last-sequence-number"));
  }
  ST_ASSIGN_OR_RETURN(m.last_updated_ms, r.Int64("last-updated-ms"));
  ST_ASSIGN_OR_RETURN(m.last_column_id, r.Int32("last-column-id"));
  ST_TRY(ParseSchemas(r, v, m));
  ST_TRY(ParseSpecs(r, v, m));
  if (v >= 2 || r.Has("sort-orders")) {
    ST_ASSIGN_OR_RETURN(m.sort_orders, ParseArray<SortOrder>(r, "sort-orders", ParseStoredOrder));
    ST_ASSIGN_OR_RETURN(m.default_sort_order_id, r.Int32("default-sort-order-id"));
  } else {
    m.sort_orders.push_back(SortOrder::Unsorted());
  }
  if (r.Has("properties")) {
    ST_ASSIGN_OR_RETURN(m.properties, r.StringMap("properties"));
  }
  ST_TRY(ParseSnapshotsAndRefs(r, v, m));
  if (v == 1) {
    // v1 has no last-sequence-number, but v1 writers may still stamp
    // snapshots with sequence numbers (and the field itself). We write v2,
    // which requires last-sequence-number >= every snapshot's, so a v1 table
    // we commit to must carry the largest one forward.
    if (r.Has("last-sequence-number")) {
      ST_ASSIGN_OR_RETURN(m.last_sequence_number, r.Int64("last-sequence-number"));
    }
    for (const auto& snapshot : m.snapshots) {
      m.last_sequence_number = std::max(m.last_sequence_number, snapshot.sequence_number);
    }
  }
  ST_TRY(m.Validate());
  return m;
}

}  // namespace

Result<TableMetadata> ParseTableMetadata(std::string_view text) {
  Status nesting = CheckJsonNesting(text, "table metadata");
  if (!nesting.ok()) return Err(AsCorruption(nesting));
  Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Err(Corruption("table metadata is not valid JSON"));
  try {
    auto parsed = ParseDocument(doc);
    if (!parsed.has_value() && parsed.error().code() == StatusCode::kInvalidArgument) {
      return Err(AsCorruption(parsed.error()));
    }
    return parsed;
  } catch (const nlohmann::json::exception& e) {
    return Err(Corruption(std::string("table metadata: ") + e.what()));
  }
}

std::string SerializeTableMetadata(const TableMetadata& m) {
  Json schemas = Json::array();
  for (const auto& s : m.schemas) schemas.push_back(SchemaToJson(s));
  Json specs = Json::array();
  for (const auto& s : m.partition_specs) specs.push_back(PartitionSpecToJson(s));
  Json orders = Json::array();
  for (const auto& o : m.sort_orders) orders.push_back(SortOrderToJson(o));
  Json snapshots = Json::array();
  for (const auto& s : m.snapshots) snapshots.push_back(SnapshotToJson(s));
  Json snapshot_log = Json::array();
  for (const auto& e : m.snapshot_log) {
    snapshot_log.push_back({{"snapshot-id", e.snapshot_id}, {"timestamp-ms", e.timestamp_ms}});
  }
  Json metadata_log = Json::array();
  for (const auto& e : m.metadata_log) {
    metadata_log.push_back({{"metadata-file", e.metadata_file}, {"timestamp-ms", e.timestamp_ms}});
  }
  // refs.main is derived from current-snapshot-id so the two cannot disagree.
  std::map<std::string, SnapshotRef> refs = m.refs;
  if (m.current_snapshot_id) {
    refs[kMainBranch].snapshot_id = *m.current_snapshot_id;
    refs[kMainBranch].type = SnapshotRefType::kBranch;
  } else {
    refs.erase(kMainBranch);
  }
  Json refs_json = Json::object();
  for (const auto& [name, ref] : refs) refs_json[name] = SnapshotRefToJson(ref);

  Json doc = {
      {"format-version", 2},
      {"table-uuid", m.table_uuid},
      {"location", m.location},
      {"last-sequence-number", m.last_sequence_number},
      {"last-updated-ms", m.last_updated_ms},
      {"last-column-id", m.last_column_id},
      {"schemas", std::move(schemas)},
      {"current-schema-id", m.current_schema_id},
      {"partition-specs", std::move(specs)},
      {"default-spec-id", m.default_spec_id},
      {"last-partition-id", m.last_partition_id},
      {"sort-orders", std::move(orders)},
      {"default-sort-order-id", m.default_sort_order_id},
      {"properties", m.properties},
      // Java writes -1 for "no current snapshot"; every reader accepts it.
      {"current-snapshot-id", m.current_snapshot_id.value_or(-1)},
      {"refs", std::move(refs_json)},
      {"snapshots", std::move(snapshots)},
      {"snapshot-log", std::move(snapshot_log)},
      {"metadata-log", std::move(metadata_log)},
  };
  return doc.dump();
}

}  // namespace st::iceberg
