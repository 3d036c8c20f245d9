#include "iceberg/json_serde.h"

#include <nlohmann/json.hpp>

#include "common/json_nesting.h"
#include "iceberg/json_reader_internal.h"
#include "iceberg/type_nesting.h"

namespace st::iceberg {

using internal::Json;
using internal::JsonReader;

namespace {

// A struct level costs 3 JSON levels (type object, "fields" array, field
// object); the envelope around a schema (a REST body, a metadata file, a
// table update) stays under 16. So a JSON document that passed
// CheckJsonNesting always reaches the type limit first, with its clearer message.
static_assert(3 * kMaxTypeNesting + 16 <= kMaxJsonNesting);

Result<TypePtr> ParseType(const Json& json, const std::string& what, int depth);

Result<NestedField> ParseField(const Json& json, const std::string& what, int depth) {
  JsonReader r(json, what);
  ST_TRY(r.CheckObject());
  NestedField f;
  ST_ASSIGN_OR_RETURN(f.id, r.Int32("id"));
  ST_ASSIGN_OR_RETURN(f.name, r.String("name"));
  ST_ASSIGN_OR_RETURN(f.required, r.Bool("required"));
  ST_ASSIGN_OR_RETURN(const Json* type, r.Required("type"));
  ST_ASSIGN_OR_RETURN(f.type, ParseType(*type, "type of field '" + f.name + "'", depth));
  ST_ASSIGN_OR_RETURN(auto doc, r.OptionalString("doc"));
  f.doc = doc.value_or("");
  return f;
}

// `depth`: the nesting level of the fields' own types (top-level fields: 1).
Result<std::vector<NestedField>> ParseFields(const JsonReader& r, int depth) {
  ST_ASSIGN_OR_RETURN(const Json* fields, r.Array("fields"));
  std::vector<NestedField> out;
  for (size_t i = 0; i < fields->size(); ++i) {
    ST_ASSIGN_OR_RETURN(NestedField f,
                        ParseField((*fields)[i], r.what() + " field #" + std::to_string(i), depth));
    out.push_back(std::move(f));
  }
  return out;
}

Result<TypePtr> ParseType(const Json& json, const std::string& what, int depth) {
  if (json.is_string()) return Type::ParsePrimitive(json.get<std::string>());
  if (!json.is_object()) {
    return Err(InvalidArgument(what + " must be a type string or a JSON object"));
  }
  if (depth > kMaxTypeNesting) {
    return Err(InvalidArgument(what + ": nested types go deeper than " +
                               std::to_string(kMaxTypeNesting) +
                               " levels (struct, list and map each add one); flatten the schema"));
  }
  JsonReader r(json, what);
  ST_ASSIGN_OR_RETURN(std::string kind, r.String("type"));
  if (kind == "struct") {
    ST_ASSIGN_OR_RETURN(auto fields, ParseFields(r, depth + 1));
    return Type::Struct(std::move(fields));
  }
  if (kind == "list") {
    ST_ASSIGN_OR_RETURN(int32_t element_id, r.Int32("element-id"));
    ST_ASSIGN_OR_RETURN(bool element_required, r.Bool("element-required"));
    ST_ASSIGN_OR_RETURN(const Json* element, r.Required("element"));
    ST_ASSIGN_OR_RETURN(TypePtr element_type, ParseType(*element, what + " element", depth + 1));
    return Type::List(element_id, element_required, std::move(element_type));
  }
  if (kind == "map") {
    ST_ASSIGN_OR_RETURN(int32_t key_id, r.Int32("key-id"));
    ST_ASSIGN_OR_RETURN(const Json* key, r.Required("key"));
    ST_ASSIGN_OR_RETURN(TypePtr key_type, ParseType(*key, what + " key", depth + 1));
    ST_ASSIGN_OR_RETURN(int32_t value_id, r.Int32("value-id"));
    ST_ASSIGN_OR_RETURN(bool value_required, r.Bool("value-required"));
    ST_ASSIGN_OR_RETURN(const Json* value, r.Required("value"));
    ST_ASSIGN_OR_RETURN(TypePtr value_type, ParseType(*value, what + " value", depth + 1));
    return Type::Map(key_id, std::move(key_type), value_id, value_required, std::move(value_type));
  }
  return Err(InvalidArgument(what + ": unknown Iceberg type '" + kind + "'"));
}

Json FieldToJson(const NestedField& f) {
  Json j = {
      {"id", f.id}, {"name", f.name}, {"required", f.required}, {"type", TypeToJson(*f.type)}};
  if (!f.doc.empty()) j["doc"] = f.doc;
  return j;
}

const char* DirectionName(SortDirection d) { return d == SortDirection::kAsc ? "asc" : "desc"; }
const char* NullOrderName(NullOrder n) {
  return n == NullOrder::kNullsFirst ? "nulls-first" : "nulls-last";
}

}  // namespace

Json TypeToJson(const Type& type) {
  switch (type.id()) {
    case TypeId::kStruct: {
      Json fields = Json::array();
      for (const auto& f : type.fields()) fields.push_back(FieldToJson(f));
      return Json{{"type", "struct"}, {"fields", std::move(fields)}};
    }
    case TypeId::kList:
      return Json{{"type", "list"},
                  {"element-id", type.element().id},
                  {"element-required", type.element().required},
                  {"element", TypeToJson(*type.element().type)}};
    case TypeId::kMap:
      return Json{{"type", "map"},
                  {"key-id", type.key().id},
                  {"key", TypeToJson(*type.key().type)},
                  {"value-id", type.value().id},
                  {"value-required", type.value().required},
                  {"value", TypeToJson(*type.value().type)}};
    default:
      return type.ToString();
  }
}

Result<TypePtr> TypeFromJson(const Json& json) { return ParseType(json, "type", 1); }

Json SchemaToJson(const Schema& schema) {
  Json j = TypeToJson(*schema.AsStruct());
  j["schema-id"] = schema.schema_id();
  j["identifier-field-ids"] = schema.identifier_field_ids();
  return j;
}

Result<Schema> SchemaFromJson(const Json& json) {
  JsonReader r(json, "schema");
  ST_TRY(r.CheckObject());
  ST_ASSIGN_OR_RETURN(std::string kind, r.String("type"));
  if (kind != "struct") {
    return Err(InvalidArgument("schema: key 'type' must be \"struct\", got \"" + kind + "\""));
  }
  ST_ASSIGN_OR_RETURN(auto schema_id, r.OptionalInt32("schema-id"));
  std::vector<int32_t> identifier_ids;
  if (r.Has("identifier-field-ids")) {
    ST_ASSIGN_OR_RETURN(identifier_ids, r.Int32List("identifier-field-ids"));
  }
  ST_ASSIGN_OR_RETURN(auto fields, ParseFields(r, 1));
  return Schema::Make(schema_id.value_or(0), std::move(fields), std::move(identifier_ids));
}

Json PartitionFieldsToJson(const std::vector<PartitionField>& fields) {
  Json out = Json::array();
  for (const auto& f : fields) {
    out.push_back({{"source-id", f.source_id},
                   {"field-id", f.field_id},
                   {"name", f.name},
                   {"transform", f.transform.ToString()}});
  }
  return out;
}

Result<std::vector<PartitionField>> PartitionFieldsFromJson(const Json& json) {
  if (!json.is_array()) return Err(InvalidArgument("partition spec fields must be an array"));
  std::vector<PartitionField> out;
  for (size_t i = 0; i < json.size(); ++i) {
    JsonReader r(json[i], "partition field #" + std::to_string(i));
    ST_TRY(r.CheckObject());
    PartitionField f;
    ST_ASSIGN_OR_RETURN(f.source_id, r.Int32("source-id"));
    ST_ASSIGN_OR_RETURN(auto field_id, r.OptionalInt32("field-id"));
    f.field_id = field_id.value_or(0);
    ST_ASSIGN_OR_RETURN(f.name, r.String("name"));
    ST_ASSIGN_OR_RETURN(std::string transform, r.String("transform"));
    ST_ASSIGN_OR_RETURN(f.transform, Transform::Parse(transform));
    out.push_back(std::move(f));
  }
  return out;
}

Json PartitionSpecToJson(const PartitionSpec& spec) {
  return Json{{"spec-id", spec.spec_id()}, {"fields", PartitionFieldsToJson(spec.fields())}};
}

Result<PartitionSpec> PartitionSpecFromJson(const Json& json) {
  JsonReader r(json, "partition spec");
  ST_TRY(r.CheckObject());
  ST_ASSIGN_OR_RETURN(auto spec_id, r.OptionalInt32("spec-id"));
  ST_ASSIGN_OR_RETURN(const Json* fields, r.Array("fields"));
  ST_ASSIGN_OR_RETURN(auto parsed, PartitionFieldsFromJson(*fields));
  return PartitionSpec::MakeUnchecked(spec_id.value_or(0), std::move(parsed));
}

Json SortOrderToJson(const SortOrder& order) {
  Json fields = Json::array();
  for (const auto& f : order.fields) {
    fields.push_back({{"transform", f.transform.ToString()},
                      {"source-id", f.source_id},
                      {"direction", DirectionName(f.direction)},
                      {"null-order", NullOrderName(f.null_order)}});
  }
  return Json{{"order-id", order.order_id}, {"fields", std::move(fields)}};
}

Result<SortOrder> SortOrderFromJson(const Json& json) {
  JsonReader r(json, "sort order");
  ST_TRY(r.CheckObject());
  SortOrder order;
  ST_ASSIGN_OR_RETURN(auto order_id, r.OptionalInt32("order-id"));
  order.order_id = order_id.value_or(0);
  ST_ASSIGN_OR_RETURN(const Json* fields, r.Array("fields"));
  for (size_t i = 0; i < fields->size(); ++i) {
    JsonReader fr((*fields)[i], "sort field #" + std::to_string(i));
    ST_TRY(fr.CheckObject());
    SortField f;
    ST_ASSIGN_OR_RETURN(std::string transform, fr.String("transform"));
    ST_ASSIGN_OR_RETURN(f.transform, Transform::Parse(transform));
    ST_ASSIGN_OR_RETURN(f.source_id, fr.Int32("source-id"));
    ST_ASSIGN_OR_RETURN(std::string direction, fr.String("direction"));
    if (direction == "asc") {
      f.direction = SortDirection::kAsc;
    } else if (direction == "desc") {
      f.direction = SortDirection::kDesc;
    } else {
      return Err(InvalidArgument(fr.what() + ": direction must be \"asc\" or \"desc\", got \"" +
                                 direction + "\""));
    }
    ST_ASSIGN_OR_RETURN(std::string null_order, fr.String("null-order"));
    if (null_order == "nulls-first") {
      f.null_order = NullOrder::kNullsFirst;
    } else if (null_order == "nulls-last") {
      f.null_order = NullOrder::kNullsLast;
    } else {
      return Err(InvalidArgument(fr.what() +
                                 ": null-order must be \"nulls-first\" or \"nulls-last\", got \"" +
                                 null_order + "\""));
    }
    order.fields.push_back(std::move(f));
  }
  return order;
}

Json SnapshotToJson(const Snapshot& s) {
  Json j = {{"snapshot-id", s.snapshot_id},
            {"sequence-number", s.sequence_number},
            {"timestamp-ms", s.timestamp_ms},
            {"manifest-list", s.manifest_list}};
  // Empty only for a snapshot read without one (see SnapshotFromJson).
  if (!s.summary.empty()) j["summary"] = s.summary;
  if (s.parent_snapshot_id) j["parent-snapshot-id"] = *s.parent_snapshot_id;
  if (s.schema_id) j["schema-id"] = *s.schema_id;
  return j;
}

Result<Snapshot> SnapshotFromJson(const Json& json, int format_version) {
  Snapshot s;
  {
    JsonReader first(json, "snapshot");
    ST_TRY(first.CheckObject());
    ST_ASSIGN_OR_RETURN(s.snapshot_id, first.Int64("snapshot-id"));
  }
  JsonReader r(json, "snapshot " + std::to_string(s.snapshot_id));
  ST_ASSIGN_OR_RETURN(s.parent_snapshot_id, r.OptionalInt64("parent-snapshot-id"));
  if (format_version >= 2 || r.Has("sequence-number")) {
    ST_ASSIGN_OR_RETURN(s.sequence_number, r.Int64("sequence-number"));
  }
  ST_ASSIGN_OR_RETURN(s.timestamp_ms, r.Int64("timestamp-ms"));
  if (!r.Has("manifest-list") && r.Has("manifests")) {
    return Err(Unsupported(r.what() +
                           " lists its manifests inline (v1 \"manifests\"); only snapshots with a "
                           "\"manifest-list\" are supported"));
  }
  ST_ASSIGN_OR_RETURN(s.manifest_list, r.String("manifest-list"));
  // The spec requires a summary in v2, but a table upgraded from v1 keeps
  // its v1 snapshots, which may have none (Iceberg's Java library writes them
  // without one and reads them back): accepted in both versions. A summary
  // that is there must name its operation (as Java requires in both), so
  // whatever we write as v2 parses again.
  if (r.Has("summary")) {
    ST_ASSIGN_OR_RETURN(s.summary, r.StringMap("summary"));
    if (!s.summary.count("operation")) {
      return Err(InvalidArgument(r.what() + ": summary lacks required key 'operation'"));
    }
  }
  ST_ASSIGN_OR_RETURN(s.schema_id, r.OptionalInt32("schema-id"));
  return s;
}

Json SnapshotRefToJson(const SnapshotRef& ref) {
  Json j = {{"snapshot-id", ref.snapshot_id},
            {"type", ref.type == SnapshotRefType::kBranch ? "branch" : "tag"}};
  if (ref.min_snapshots_to_keep) j["min-snapshots-to-keep"] = *ref.min_snapshots_to_keep;
  if (ref.max_snapshot_age_ms) j["max-snapshot-age-ms"] = *ref.max_snapshot_age_ms;
  if (ref.max_ref_age_ms) j["max-ref-age-ms"] = *ref.max_ref_age_ms;
  return j;
}

Result<SnapshotRef> SnapshotRefFromJson(const Json& json) {
  JsonReader r(json, "snapshot ref");
  ST_TRY(r.CheckObject());
  SnapshotRef ref;
  ST_ASSIGN_OR_RETURN(ref.snapshot_id, r.Int64("snapshot-id"));
  ST_ASSIGN_OR_RETURN(std::string type, r.String("type"));
  if (type == "branch") {
    ref.type = SnapshotRefType::kBranch;
  } else if (type == "tag") {
    ref.type = SnapshotRefType::kTag;
  } else {
    return Err(
        InvalidArgument("snapshot ref: type must be \"branch\" or \"tag\", got \"" + type + "\""));
  }
  ST_ASSIGN_OR_RETURN(ref.min_snapshots_to_keep, r.OptionalInt32("min-snapshots-to-keep"));
  ST_ASSIGN_OR_RETURN(ref.max_snapshot_age_ms, r.OptionalInt64("max-snapshot-age-ms"));
  ST_ASSIGN_OR_RETURN(ref.max_ref_age_ms, r.OptionalInt64("max-ref-age-ms"));
  return ref;
}

}  // namespace st::iceberg
