#include <nlohmann/json.hpp>

#include "iceberg/manifest_metadata_internal.h"

namespace st::iceberg::internal {

namespace {

// TODO(icefiles): switch to the model side's schema JSON serializer
// (json_serde.h) once it lands; this covers the same spec Appendix C shape.
nlohmann::json TypeJson(const Type& type) {
  switch (type.id()) {
    case TypeId::kStruct: {
      nlohmann::json fields = nlohmann::json::array();
      for (const NestedField& f : type.fields()) {
        nlohmann::json field = {
            {"id", f.id}, {"name", f.name}, {"required", f.required}, {"type", TypeJson(*f.type)}};
        if (!f.doc.empty()) field["doc"] = f.doc;
        fields.push_back(std::move(field));
      }
      return {{"type", "struct"}, {"fields", std::move(fields)}};
    }
    case TypeId::kList:
      return {{"type", "list"},
              {"element-id", type.element().id},
              {"element", TypeJson(*type.element().type)},
              {"element-required", type.element().required}};
    case TypeId::kMap:
      return {{"type", "map"},
              {"key-id", type.key().id},
              {"key", TypeJson(*type.key().type)},
              {"value-id", type.value().id},
              {"value", TypeJson(*type.value().type)},
              {"value-required", type.value().required}};
    default:
      return type.ToString();
  }
}

}  // namespace

Result<AvroMetadata> ManifestMetadata(const Schema& schema, const PartitionSpec& spec,
                                      ManifestContent content) {
  nlohmann::json schema_json = TypeJson(*schema.AsStruct());
  schema_json["schema-id"] = schema.schema_id();
  schema_json["identifier-field-ids"] = schema.identifier_field_ids();
  nlohmann::json fields = nlohmann::json::array();
  for (const PartitionField& f : spec.fields()) {
    fields.push_back({{"name", f.name},
                      {"transform", f.transform.ToString()},
                      {"source-id", f.source_id},
                      {"field-id", f.field_id}});
  }
  return AvroMetadata{
      {"schema", schema_json.dump()},
      {"schema-id", std::to_string(schema.schema_id())},
      {"partition-spec", fields.dump()},
      {"partition-spec-id", std::to_string(spec.spec_id())},
      {"format-version", "2"},
      {"content", content == ManifestContent::kData ? "data" : "deletes"},
  };
}

AvroMetadata ManifestListMetadata(int64_t snapshot_id, std::optional<int64_t> parent_snapshot_id,
                                  int64_t sequence_number) {
  return AvroMetadata{
      {"snapshot-id", std::to_string(snapshot_id)},
      {"parent-snapshot-id",
       parent_snapshot_id ? std::to_string(*parent_snapshot_id) : std::string("null")},
      {"sequence-number", std::to_string(sequence_number)},
      {"format-version", "2"},
  };
}

}  // namespace st::iceberg::internal
