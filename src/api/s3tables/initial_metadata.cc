#include <set>

#include "api/s3tables/initial_metadata_internal.h"
#include "api/s3tables/json_body_internal.h"
#include "iceberg/json_serde.h"

namespace st::api::s3tables {

namespace {

constexpr const char* kWhere = "metadata.iceberg.";

// IcebergSchema: {fields: [{id?, name, type (primitive string), required?}]}.
Result<iceberg::Schema> ParseSimpleSchema(const nlohmann::json& schema) {
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> fields,
                      OptionalArray(schema, "fields", "metadata.iceberg.schema."));
  if (!fields.has_value()) {
    return Err(InvalidArgument("The required member 'metadata.iceberg.schema.fields' is missing."));
  }
  std::set<int64_t> taken;
  for (const nlohmann::json& field : *fields) {
    if (field.is_object() && field.contains("id") && field["id"].is_number_integer()) {
      taken.insert(field["id"].get<int64_t>());
    }
  }
  std::vector<iceberg::NestedField> out;
  int32_t next_id = 1;
  for (size_t i = 0; i < fields->size(); ++i) {
    const nlohmann::json& field = (*fields)[i];
    std::string where = "metadata.iceberg.schema.fields[" + std::to_string(i) + "].";
    if (!field.is_object())
      return Err(InvalidArgument("The member '" + where + "' must be an object."));
    iceberg::NestedField nested;
    ST_ASSIGN_OR_RETURN(nested.name, RequiredString(field, "name", where));
    ST_ASSIGN_OR_RETURN(std::string type, RequiredString(field, "type", where));
    Result<iceberg::TypePtr> parsed = iceberg::Type::ParsePrimitive(type);
    if (!parsed.has_value()) {
      return Err(InvalidArgument("The type '" + type + "' of " + where +
                                 "type is not an Iceberg primitive type; use schemaV2 for nested "
                                 "types."));
    }
    nested.type = *parsed;
    ST_ASSIGN_OR_RETURN(std::optional<bool> required, OptionalBool(field, "required", where));
    nested.required = required.value_or(false);
    ST_ASSIGN_OR_RETURN(std::optional<int64_t> id, OptionalInt(field, "id", where));
    if (id.has_value()) {
      nested.id = static_cast<int32_t>(*id);
    } else {
      while (taken.count(next_id) != 0) ++next_id;
      nested.id = next_id;
      taken.insert(next_id);
    }
    out.push_back(std::move(nested));
  }
  return iceberg::Schema::Make(0, std::move(out));
}

Status Prefixed(const Status& status, const std::string& member) {
  return InvalidArgument("Invalid " + member + ": " + status.message());
}

}  // namespace

Result<catalog::InitialMetadata> ParseInitialMetadata(const nlohmann::json& metadata) {
  for (const auto& [key, value] : metadata.items()) {
    if (key != "iceberg") {
      return Err(InvalidArgument("The metadata member '" + key +
                                 "' is not supported; send metadata.iceberg."));
    }
  }
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> iceberg_json,
                      OptionalObject(metadata, "iceberg", "metadata."));
  if (!iceberg_json.has_value()) {
    return Err(InvalidArgument("The member 'metadata' must hold exactly one of: iceberg."));
  }
  const nlohmann::json& ice = *iceberg_json;
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> simple, OptionalObject(ice, "schema", kWhere));
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> full, OptionalObject(ice, "schemaV2", kWhere));
  if (simple.has_value() == full.has_value()) {
    return Err(InvalidArgument("metadata.iceberg needs exactly one of 'schema' and 'schemaV2'."));
  }

  Result<iceberg::Schema> schema =
      simple.has_value() ? ParseSimpleSchema(*simple) : iceberg::SchemaFromJson(*full);
  if (!schema.has_value()) {
    return Err(Prefixed(schema.error(), simple.has_value() ? "metadata.iceberg.schema"
                                                           : "metadata.iceberg.schemaV2"));
  }
  catalog::InitialMetadata out{std::move(*schema),
                               iceberg::PartitionSpec::Unpartitioned(),
                               iceberg::SortOrder::Unsorted(),
                               {}};

  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> spec,
                      OptionalObject(ice, "partitionSpec", kWhere));
  if (spec.has_value()) {
    Result<iceberg::PartitionSpec> parsed = iceberg::PartitionSpecFromJson(*spec);
    if (!parsed.has_value()) {
      return Err(Prefixed(parsed.error(), "metadata.iceberg.partitionSpec"));
    }
    out.spec = std::move(*parsed);
  }
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> order,
                      OptionalObject(ice, "writeOrder", kWhere));
  if (order.has_value()) {
    Result<iceberg::SortOrder> parsed = iceberg::SortOrderFromJson(*order);
    if (!parsed.has_value()) return Err(Prefixed(parsed.error(), "metadata.iceberg.writeOrder"));
    out.sort_order = std::move(*parsed);
  }
  ST_ASSIGN_OR_RETURN(out.properties, OptionalStringMap(ice, "properties", kWhere));
  return out;
}

}  // namespace st::api::s3tables
