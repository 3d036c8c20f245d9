#include "decoding/channel_schema.h"

#include <algorithm>

namespace st::decoding {
namespace {

bool IsJsonFormat(ValueFormat format) {
  // Formats whose records carry their own value schema (JSON or Avro).
  return format == ValueFormat::kJson || format == ValueFormat::kJsonSchemaGsr ||
         format == ValueFormat::kAvroConfluent || format == ValueFormat::kAvroGsr ||
         format == ValueFormat::kProtobufConfluent || format == ValueFormat::kJsonSchemaConfluent ||
         format == ValueFormat::kProtobufGsr;
}

iceberg::NestedField KafkaMetadataField(int32_t first_id, KeyFormat key_format) {
  using iceberg::NestedField;
  using iceberg::Type;
  int32_t id = first_id;
  const int32_t struct_id = id++;
  std::vector<NestedField> fields = {
      {id++, "partition", true, Type::Int(), "Kafka partition"},
      {id++, "offset", true, Type::Long(), "Kafka offset"},
      {id++, "timestamp", false, Type::TimestampTz(), "Kafka record timestamp"},
  };
  // A typed key's type comes from its writer schema: the first keyed record
  // adds `key` (a new optional struct member, which Iceberg allows).
  if (!KeyHasSchema(key_format)) {
    fields.push_back({id++, "key", false,
                      key_format == KeyFormat::kString ? Type::String() : Type::Binary(),
                      "Kafka record key"});
  }
  const int32_t headers_id = id++;
  const int32_t header_key_id = id++;
  const int32_t header_value_id = id++;
  fields.push_back(
      {headers_id, "headers", false,
       Type::Map(header_key_id, Type::String(), header_value_id, false, Type::Binary()),
       "Kafka record headers"});
  return {struct_id, std::string(kKafkaMetadataColumn), false, Type::Struct(std::move(fields)),
          "Kafka record metadata"};
}

}  // namespace

Result<iceberg::Schema> ChannelTableSchema(ValueFormat format,
                                           const std::optional<iceberg::Schema>& value_schema,
                                           bool include_metadata,
                                           const std::optional<std::string>& partition_source,
                                           KeyFormat key_format) {
  std::vector<iceberg::NestedField> fields;
  int32_t highest_id = 0;
  if (IsJsonFormat(format)) {
    if (!value_schema) {
      return Err(InvalidArgument("a JSON, JSON_SCHEMA_GSR or Avro channel needs the value schema"));
    }
    fields = value_schema->fields();
    highest_id = value_schema->HighestFieldId();
  } else {
    if (partition_source) {
      return Err(InvalidArgument(
          "partition source column '" + *partition_source +
          "' is not available with a BYTE_ARRAY or STRING value converter; leave the source "
          "list empty to partition on the Kafka record timestamp"));
    }
    const bool text = format == ValueFormat::kString;
    fields.push_back({1, "value", false, text ? iceberg::Type::String() : iceberg::Type::Binary(),
                      "Kafka record value"});
    highest_id = 1;
  }
  for (const auto& field : fields) {
    if (field.name == kKafkaMetadataColumn) {
      return Err(
          InvalidArgument("the value schema has a top-level '_kafka' property, which is "
                          "reserved for Kafka metadata; rename it"));
    }
  }
  if (partition_source) {
    auto it = std::find_if(fields.begin(), fields.end(),
                           [&](const auto& f) { return f.name == *partition_source; });
    if (it == fields.end()) {
      return Err(InvalidArgument("partition source column '" + *partition_source +
                                 "' is not a top-level property of the value schema"));
    }
    if (it->type->id() != iceberg::TypeId::kTimestampTz) {
      return Err(InvalidArgument("partition source column '" + *partition_source + "' is " +
                                 it->type->ToString() +
                                 "; it must be a string with format date-time (timestamptz)"));
    }
    it->required = true;
  }
  if (include_metadata) fields.push_back(KafkaMetadataField(highest_id + 1, key_format));
  return iceberg::Schema::Make(0, std::move(fields));
}

Result<iceberg::PartitionSpec> ChannelPartitionSpec(
    const iceberg::Schema& table_schema, bool daily,
    const std::optional<std::string>& partition_source) {
  const iceberg::NestedField* source = nullptr;
  std::string name_base;
  if (partition_source) {
    for (const auto& field : table_schema.fields()) {
      if (field.name == *partition_source) source = &field;
    }
    if (source == nullptr) {
      return Err(InvalidArgument("partition source column '" + *partition_source +
                                 "' is not a top-level column of the table"));
    }
    name_base = *partition_source;
  } else {
    source = table_schema.FindFieldByName(std::string(kKafkaMetadataColumn) + ".timestamp");
    if (source == nullptr) {
      return Err(InvalidArgument(
          "partitioning on the Kafka record timestamp needs the _kafka metadata column; enable "
          "includeKafkaMetadata or name a source column"));
    }
    name_base = std::string(kKafkaMetadataColumn) + "_timestamp";
  }
  if (source->type->id() != iceberg::TypeId::kTimestampTz) {
    return Err(InvalidArgument("partition source column '" + name_base + "' is " +
                               source->type->ToString() + "; it must be timestamptz"));
  }
  iceberg::PartitionField field;
  field.source_id = source->id;
  field.field_id = iceberg::kPartitionFieldIdStart;
  field.transform = daily ? iceberg::Transform::Day() : iceberg::Transform::Hour();
  field.name = name_base + (daily ? "_day" : "_hour");
  return iceberg::PartitionSpec::Make(table_schema, 0, {std::move(field)});
}

namespace {

bool IsKafkaStruct(const iceberg::NestedField& f) {
  return f.name == kKafkaMetadataColumn && f.type->id() == iceberg::TypeId::kStruct;
}

Status NoKafkaStruct() {
  return InvalidArgument("the table has no _kafka column to hold a typed key");
}

}  // namespace

Result<const iceberg::NestedField*> KafkaKeyOf(const iceberg::Schema& table) {
  const std::vector<iceberg::NestedField>& fields = table.fields();
  auto kafka = std::find_if(fields.begin(), fields.end(), IsKafkaStruct);
  if (kafka == fields.end()) return Err(NoKafkaStruct());
  for (const iceberg::NestedField& member : kafka->type->fields()) {
    if (member.name == "key") return &member;
  }
  return static_cast<const iceberg::NestedField*>(nullptr);
}

Result<iceberg::Schema> WithKafkaKey(const iceberg::Schema& table, iceberg::NestedField key) {
  std::vector<iceberg::NestedField> fields = table.fields();
  auto kafka = std::find_if(fields.begin(), fields.end(), IsKafkaStruct);
  if (kafka == fields.end()) return Err(NoKafkaStruct());
  std::vector<iceberg::NestedField> members = kafka->type->fields();
  auto at = std::find_if(members.begin(), members.end(),
                         [](const iceberg::NestedField& f) { return f.name == "key"; });
  if (at != members.end()) {
    *at = std::move(key);
  } else {
    at = std::find_if(members.begin(), members.end(),
                      [](const iceberg::NestedField& f) { return f.name == "headers"; });
    members.insert(at, std::move(key));
  }
  kafka->type = iceberg::Type::Struct(std::move(members));
  return iceberg::Schema::Make(table.schema_id() + 1, std::move(fields),
                               table.identifier_field_ids());
}

}  // namespace st::decoding
