// Iceberg schema, type, partition-spec, sort-order and snapshot JSON from
// outside bytes, the way an Iceberg REST createTable body reaches them:
// the body as a whole goes through every FromJson parser, and its "schema",
// "partition-spec" and "write-order" members through the createTable path
// (AssignFreshIds, SchemaFromJson, PartitionSpec::Make against the schema,
// SortOrderFromJson, NewTableMetadata), then a schema serialize/parse round
// trip that must give the same schema back.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "api/iceberg_rest/fresh_ids_internal.h"
#include "iceberg/json_serde.h"
#include "iceberg/parquet_schema.h"
#include "iceberg/table_update.h"

namespace ice = st::iceberg;

namespace {

nlohmann::json* Member(nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

void CreateTablePath(nlohmann::json& body) {
  nlohmann::json* schema_json = Member(body, "schema");
  if (schema_json == nullptr || !schema_json->is_object()) return;
  nlohmann::json* spec_json = Member(body, "partition-spec");
  nlohmann::json* order_json = Member(body, "write-order");
  if (!st::api::iceberg_rest::AssignFreshIds(*schema_json, spec_json, order_json).ok()) return;
  auto schema = ice::SchemaFromJson(*schema_json);
  if (!schema.has_value()) return;
  (void)ice::ToParquetSchema(*schema);
  ice::PartitionSpec spec = ice::PartitionSpec::Unpartitioned();
  if (spec_json != nullptr) {
    auto parsed = ice::PartitionSpecFromJson(*spec_json);
    if (!parsed.has_value()) return;
    auto checked = ice::PartitionSpec::Make(*schema, parsed->spec_id(), parsed->fields());
    if (!checked.has_value()) return;
    spec = *checked;
  }
  ice::SortOrder order;
  if (order_json != nullptr) {
    auto parsed = ice::SortOrderFromJson(*order_json);
    if (!parsed.has_value()) return;
    order = *parsed;
  }
  (void)ice::NewTableMetadata(*schema, spec, order, "s3://bucket/t", {},
                              "0e6b0f3c-3a4e-4a4d-9f7b-1d2c3e4f5a6b", 1764547200000);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return 0;
  (void)ice::TypeFromJson(json);
  (void)ice::PartitionSpecFromJson(json);
  (void)ice::PartitionFieldsFromJson(json);
  (void)ice::SortOrderFromJson(json);
  (void)ice::SnapshotFromJson(json, 1);
  (void)ice::SnapshotFromJson(json, 2);
  (void)ice::SnapshotRefFromJson(json);
  auto schema = ice::SchemaFromJson(json);
  if (schema.has_value()) {
    auto again = ice::SchemaFromJson(ice::SchemaToJson(*schema));
    if (!again.has_value() || !again->SameStructure(*schema) ||
        again->schema_id() != schema->schema_id()) {
      fprintf(stderr, "schema changed in a serialize/parse round trip: %s\n",
              ice::SchemaToJson(*schema).dump().c_str());
      abort();
    }
  }
  if (json.is_object()) CreateTablePath(json);
  return 0;
}
