#include <nlohmann/json.hpp>

#include "iceberg/json_serde.h"
#include "iceberg/manifest_metadata_internal.h"

namespace st::iceberg::internal {

Result<AvroMetadata> ManifestMetadata(const Schema& schema, const PartitionSpec& spec,
                                      ManifestContent content) {
  nlohmann::json schema_json = SchemaToJson(schema);
  nlohmann::json fields = PartitionFieldsToJson(spec.fields());
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
