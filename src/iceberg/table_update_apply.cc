// ApplyUpdates, AddMetadataLogEntry and NewTableMetadata.
#include <algorithm>
#include <charconv>
#include <set>

#include "common/overloaded.h"
#include "iceberg/table_update.h"

namespace st::iceberg {

namespace {

Status Bad(const std::string& action, const std::string& detail) {
  return InvalidArgument(action + ": " + detail);
}

Status ValidateSortOrder(const SortOrder& order, const Schema& schema) {
  for (const auto& f : order.fields) {
    const NestedField* source = schema.FindField(f.source_id);
    if (source == nullptr) {
      return InvalidArgument("sort field source id " + std::to_string(f.source_id) +
                             " is not in schema " + std::to_string(schema.schema_id()));
    }
    if (!source->type->is_primitive() || !f.transform.CanTransform(*source->type)) {
      return InvalidArgument("sort field transform " + f.transform.ToString() +
                             " cannot be applied to '" + source->name + "' of type " +
                             source->type->ToString());
    }
  }
  return Status::OK();
}

// Applies updates one by one to a working copy, tracking what the Java
// builder tracks: the last added schema/spec/order and the commit's time.
class Applier {
 public:
  Applier(const TableMetadata& base, int64_t now_ms) : m_(base), now_ms_(now_ms) {}

  Status Apply(const TableUpdate& update) {
    action_ = UpdateAction(update);
    return std::visit(
        Overloaded{
            [&](const AssignUuid& u) { return AssignUuidTo(u.uuid); },
            [&](const UpgradeFormatVersion& u) { return Upgrade(u.format_version); },
            [&](const AddSchema& u) { return AddSchemaTo(u); },
            [&](const SetCurrentSchema& u) { return SetCurrent(u.schema_id); },
            [&](const AddPartitionSpec& u) { return AddSpec(u.spec); },
            [&](const SetDefaultSpec& u) { return SetDefaultSpecId(u.spec_id); },
            [&](const AddSortOrder& u) { return AddOrder(u.sort_order); },
            [&](const SetDefaultSortOrder& u) { return SetDefaultOrder(u.sort_order_id); },
            [&](const AddSnapshot& u) { return AddSnapshotTo(u.snapshot); },
            [&](const SetSnapshotRef& u) { return SetRef(u.ref_name, u.ref); },
            [&](const RemoveSnapshots& u) { return RemoveSnapshotIds(u.snapshot_ids); },
            [&](const RemoveSnapshotRef& u) { return RemoveRef(u.ref_name); },
            [&](const SetLocation& u) {
              if (u.location.empty()) return Bad(action_, "location must not be empty");
              m_.location = u.location;
              return Status::OK();
            },
            [&](const SetProperties& u) {
              for (const auto& [k, v] : u.updates) m_.properties[k] = v;
              return Status::OK();
            },
            [&](const RemoveProperties& u) {
              for (const auto& k : u.removals) m_.properties.erase(k);
              return Status::OK();
            },
            [&](const RemoveSchemas& u) { return RemoveSchemaIds(u.schema_ids); },
            [&](const RemovePartitionSpecs& u) { return RemoveSpecIds(u.spec_ids); },
        },
        update);
  }

  Result<TableMetadata> Finish() && {
    m_.last_updated_ms = last_updated_ms_.value_or(now_ms_);
    // A create that sends no spec or order gets the unpartitioned/unsorted ones.
    if (m_.partition_specs.empty()) m_.partition_specs.push_back(PartitionSpec::Unpartitioned());
    if (m_.sort_orders.empty()) m_.sort_orders.push_back(SortOrder::Unsorted());
    Status valid = m_.Validate();
    if (!valid.ok()) {
      return Err(InvalidArgument("updates leave the table metadata invalid: " + valid.message()));
    }
    return std::move(m_);
  }

 private:
  Status AssignUuidTo(const std::string& uuid) {
    if (uuid.empty()) return Bad(action_, "uuid must not be empty");
    m_.table_uuid = uuid;
    return Status::OK();
  }

  Status Upgrade(int version) {
    if (version > 2 || version < 1) {
      return Unsupported(action_ + ": format-version " + std::to_string(version) +
                         " is not supported; this engine writes format version 2");
    }
    if (version < m_.format_version) {
      return Bad(action_, "cannot downgrade format-version from " +
                              std::to_string(m_.format_version) + " to " + std::to_string(version));
    }
    if (version < 2) {
      return Unsupported(action_ + ": format-version 1 tables cannot be written; use version 2");
    }
    m_.format_version = version;
    return Status::OK();
  }

  Status AddSchemaTo(const AddSchema& u) {
    // The sent last-column-id is deprecated in the REST spec ("computed on the
    // server side") and ignored, as Iceberg's own catalogs do: Java clients
    // send the schema's highest field id, which after a dropped column is
    // below the table's. The table's last-column-id only ever grows, to the
    // highest field id any schema has used.
    m_.last_column_id = std::max(m_.last_column_id, u.schema.HighestFieldId());
    for (const auto& s : m_.schemas) {
      if (s.SameStructure(u.schema)) {
        last_added_schema_id_ = s.schema_id();
        return Status::OK();
      }
    }
    int32_t id = 0;
    for (const auto& s : m_.schemas) id = std::max(id, s.schema_id() + 1);
    ST_ASSIGN_OR_RETURN(Schema schema,
                        Schema::Make(id, u.schema.fields(), u.schema.identifier_field_ids()));
    m_.schemas.push_back(std::move(schema));
    last_added_schema_id_ = id;
    return Status::OK();
  }

  Result<int32_t> ResolveId(int32_t id, const std::optional<int32_t>& last_added,
                            const char* kind) {
    if (id != kLastAdded) return id;
    if (!last_added) {
      return Err(Bad(action_, std::string("id -1 means the last added ") + kind +
                                  ", but this commit added none"));
    }
    return *last_added;
  }

  Status SetCurrent(int32_t requested) {
    ST_ASSIGN_OR_RETURN(int32_t id, ResolveId(requested, last_added_schema_id_, "schema"));
    if (m_.SchemaById(id) == nullptr) {
      return Bad(action_, "schema " + std::to_string(id) + " does not exist");
    }
    m_.current_schema_id = id;
    return Status::OK();
  }

  // The schema new specs and orders bind to: the current one, or during a
  // create the one just added.
  const Schema* BindingSchema() const {
    if (const Schema* s = m_.CurrentSchema()) return s;
    return last_added_schema_id_ ? m_.SchemaById(*last_added_schema_id_) : nullptr;
  }

  Status AddSpec(const PartitionSpec& requested) {
    const Schema* schema = BindingSchema();
    if (schema == nullptr) return Bad(action_, "the table has no schema to bind the spec to");
    std::vector<PartitionField> fields = requested.fields();
    int32_t last = m_.last_partition_id;
    for (auto& f : fields) {
      if (f.field_id != 0) continue;
      // v2 keeps a partition field's id stable across specs (Java reuses it).
      for (const auto& spec : m_.partition_specs) {
        for (const auto& old : spec.fields()) {
          if (old.source_id == f.source_id && old.transform == f.transform)
            f.field_id = old.field_id;
        }
      }
      if (f.field_id == 0) f.field_id = ++last;
    }
    for (const auto& spec : m_.partition_specs) {
      if (spec.fields() == fields) {
        last_added_spec_id_ = spec.spec_id();
        return Status::OK();
      }
    }
    int32_t id = 0;
    for (const auto& spec : m_.partition_specs) id = std::max(id, spec.spec_id() + 1);
    auto spec = PartitionSpec::Make(*schema, id, std::move(fields));
    if (!spec.has_value()) return spec.error().WithContext(action_);
    m_.last_partition_id = std::max(m_.last_partition_id, spec->LastFieldId());
    m_.partition_specs.push_back(std::move(*spec));
    last_added_spec_id_ = id;
    return Status::OK();
  }

  Status SetDefaultSpecId(int32_t requested) {
    ST_ASSIGN_OR_RETURN(int32_t id, ResolveId(requested, last_added_spec_id_, "spec"));
    if (m_.SpecById(id) == nullptr) {
      return Bad(action_, "partition spec " + std::to_string(id) + " does not exist");
    }
    m_.default_spec_id = id;
    return Status::OK();
  }

  Status AddOrder(const SortOrder& requested) {
    const Schema* schema = BindingSchema();
    if (schema == nullptr) return Bad(action_, "the table has no schema to bind the order to");
    Status valid = ValidateSortOrder(requested, *schema);
    if (!valid.ok()) return valid.WithContext(action_);
    for (const auto& o : m_.sort_orders) {
      if (o.fields == requested.fields) {
        last_added_order_id_ = o.order_id;
        return Status::OK();
      }
    }
    SortOrder order = requested;
    order.order_id = 0;  // Reserved for the unsorted order.
    if (!order.fields.empty()) {
      order.order_id = 1;
      for (const auto& o : m_.sort_orders)
        order.order_id = std::max(order.order_id, o.order_id + 1);
    }
    last_added_order_id_ = order.order_id;
    m_.sort_orders.push_back(std::move(order));
    return Status::OK();
  }

  Status SetDefaultOrder(int32_t requested) {
    ST_ASSIGN_OR_RETURN(int32_t id, ResolveId(requested, last_added_order_id_, "sort order"));
    const bool exists = std::any_of(m_.sort_orders.begin(), m_.sort_orders.end(),
                                    [&](const SortOrder& o) { return o.order_id == id; });
    if (!exists) return Bad(action_, "sort order " + std::to_string(id) + " does not exist");
    m_.default_sort_order_id = id;
    return Status::OK();
  }

  Status AddSnapshotTo(const Snapshot& s) {
    if (m_.SnapshotById(s.snapshot_id) != nullptr) {
      return Bad(action_, "snapshot " + std::to_string(s.snapshot_id) + " already exists");
    }
    // A client numbers a snapshot from the metadata it read. A snapshot on top
    // of a parent numbered at or below the table's last-sequence-number means
    // another commit landed since: a conflict the client resolves by reloading
    // and retrying (409 CommitFailedException), not a malformed request. A
    // snapshot without a parent (a replace transaction's) starts a new
    // lineage and keeps its number, as Iceberg's TableMetadata does: a replace
    // retried after losing a race re-sends the same snapshot.
    if (m_.format_version >= 2 && s.sequence_number <= m_.last_sequence_number &&
        s.parent_snapshot_id.has_value()) {
      return Conflict(action_ + ": snapshot " + std::to_string(s.snapshot_id) +
                      " has sequence-number " + std::to_string(s.sequence_number) +
                      ", which must be greater than the table's last-sequence-number " +
                      std::to_string(m_.last_sequence_number) +
                      ": the table changed since it was read; reload the table and retry.");
    }
    m_.snapshots.push_back(s);
    m_.last_sequence_number = std::max(m_.last_sequence_number, s.sequence_number);
    last_updated_ms_ = s.timestamp_ms;
    added_snapshots_.insert(s.snapshot_id);
    return Status::OK();
  }

  Status SetRef(const std::string& name, const SnapshotRef& ref) {
    if (name.empty()) return Bad(action_, "ref-name must not be empty");
    if (m_.SnapshotById(ref.snapshot_id) == nullptr) {
      return Bad(action_, "ref '" + name + "' cannot point at unknown snapshot " +
                              std::to_string(ref.snapshot_id));
    }
    if (name == kMainBranch && ref.type != SnapshotRefType::kBranch) {
      return Bad(action_, "ref 'main' must be a branch");
    }
    auto it = m_.refs.find(name);
    if (it != m_.refs.end() && it->second == ref) return Status::OK();
    m_.refs[name] = ref;
    if (name == kMainBranch) {
      // A main that moves twice in one commit logs only its final snapshot
      // when the intermediate one was added by this commit (as Java does).
      if (main_logged_ && !m_.snapshot_log.empty() &&
          added_snapshots_.count(m_.snapshot_log.back().snapshot_id)) {
        m_.snapshot_log.pop_back();
      }
      m_.current_snapshot_id = ref.snapshot_id;
      if (!last_updated_ms_) last_updated_ms_ = now_ms_;
      m_.snapshot_log.push_back(SnapshotLogEntry{ref.snapshot_id, *last_updated_ms_});
      main_logged_ = true;
    }
    return Status::OK();
  }

  Status RemoveRef(const std::string& name) {
    m_.refs.erase(name);
    if (name == kMainBranch) m_.current_snapshot_id.reset();
    return Status::OK();
  }

  Status RemoveSnapshotIds(const std::vector<int64_t>& ids) {
    const std::set<int64_t> removed(ids.begin(), ids.end());
    std::erase_if(m_.snapshots, [&](const Snapshot& s) { return removed.count(s.snapshot_id); });
    for (auto it = m_.refs.begin(); it != m_.refs.end();) {
      if (removed.count(it->second.snapshot_id)) {
        if (it->first == kMainBranch) m_.current_snapshot_id.reset();
        it = m_.refs.erase(it);
      } else {
        ++it;
      }
    }
    // History before a removed snapshot is no longer a valid lineage.
    std::vector<SnapshotLogEntry> log;
    for (const auto& e : m_.snapshot_log) {
      if (m_.SnapshotById(e.snapshot_id) == nullptr) {
        log.clear();
      } else {
        log.push_back(e);
      }
    }
    m_.snapshot_log = std::move(log);
    return Status::OK();
  }

  Status RemoveSchemaIds(const std::vector<int32_t>& ids) {
    for (int32_t id : ids) {
      if (id == m_.current_schema_id) {
        return Bad(action_, "cannot remove the current schema " + std::to_string(id));
      }
    }
    std::erase_if(m_.schemas, [&](const Schema& s) {
      return std::find(ids.begin(), ids.end(), s.schema_id()) != ids.end();
    });
    return Status::OK();
  }

  Status RemoveSpecIds(const std::vector<int32_t>& ids) {
    for (int32_t id : ids) {
      if (id == m_.default_spec_id) {
        return Bad(action_, "cannot remove the default partition spec " + std::to_string(id));
      }
    }
    std::erase_if(m_.partition_specs, [&](const PartitionSpec& s) {
      return std::find(ids.begin(), ids.end(), s.spec_id()) != ids.end();
    });
    return Status::OK();
  }

  TableMetadata m_;
  int64_t now_ms_;
  std::string action_;
  std::optional<int64_t> last_updated_ms_;
  std::optional<int32_t> last_added_schema_id_;
  std::optional<int32_t> last_added_spec_id_;
  std::optional<int32_t> last_added_order_id_;
  std::set<int64_t> added_snapshots_;
  bool main_logged_ = false;
};

}  // namespace

Result<TableMetadata> ApplyUpdates(const TableMetadata& base,
                                   const std::vector<TableUpdate>& updates, int64_t now_ms) {
  if (updates.empty()) return base;
  Applier applier(base, now_ms);
  for (const auto& u : updates) ST_TRY(applier.Apply(u));
  return std::move(applier).Finish();
}

Status AddMetadataLogEntry(TableMetadata& metadata, MetadataLogEntry previous) {
  int max_entries = kDefaultMetadataPreviousVersionsMax;
  auto it = metadata.properties.find(kMetadataPreviousVersionsMax);
  if (it != metadata.properties.end()) {
    const std::string& text = it->second;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), max_entries);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
      return InvalidArgument(std::string("table property ") + kMetadataPreviousVersionsMax +
                             " must be an integer, got '" + text + "'");
    }
  }
  max_entries = std::max(1, max_entries);
  metadata.metadata_log.push_back(std::move(previous));
  const size_t excess = metadata.metadata_log.size() > static_cast<size_t>(max_entries)
                            ? metadata.metadata_log.size() - max_entries
                            : 0;
  metadata.metadata_log.erase(metadata.metadata_log.begin(),
                              metadata.metadata_log.begin() + static_cast<ptrdiff_t>(excess));
  return Status::OK();
}

Result<TableMetadata> NewTableMetadata(const Schema& schema, const PartitionSpec& spec,
                                       const SortOrder& sort_order, std::string location,
                                       std::map<std::string, std::string> properties,
                                       std::string table_uuid, int64_t now_ms) {
  if (location.empty()) return Err(InvalidArgument("new table: location must not be empty"));
  if (table_uuid.empty()) return Err(InvalidArgument("new table: table uuid must not be empty"));
  TableMetadata m;
  m.format_version = 2;
  m.table_uuid = std::move(table_uuid);
  m.location = std::move(location);
  m.last_updated_ms = now_ms;
  m.last_column_id = schema.HighestFieldId();
  ST_ASSIGN_OR_RETURN(Schema fresh,
                      Schema::Make(0, schema.fields(), schema.identifier_field_ids()));
  std::vector<PartitionField> fields = spec.fields();
  int32_t next_id = kPartitionFieldIdStart;
  for (const auto& f : fields) next_id = std::max(next_id, f.field_id + 1);
  for (auto& f : fields) {
    if (f.field_id == 0) f.field_id = next_id++;
  }
  auto bound = PartitionSpec::Make(fresh, 0, std::move(fields));
  if (!bound.has_value()) return Err(bound.error().WithContext("new table"));
  m.last_partition_id = bound->LastFieldId();
  m.partition_specs.push_back(std::move(*bound));
  Status order_ok = ValidateSortOrder(sort_order, fresh);
  if (!order_ok.ok()) return Err(order_ok.WithContext("new table"));
  SortOrder order = sort_order;
  order.order_id = order.fields.empty() ? 0 : 1;
  m.default_sort_order_id = order.order_id;
  m.sort_orders.push_back(std::move(order));
  m.schemas.push_back(std::move(fresh));
  m.current_schema_id = 0;
  m.default_spec_id = 0;
  m.properties = std::move(properties);
  ST_TRY(m.Validate());
  return m;
}

}  // namespace st::iceberg
