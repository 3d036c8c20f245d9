// The checks follow the table in docs/msk-channel-api-notes.md §4, member by member, so
// that each refusal names the member a client has to fix.
#include "catalog/channel_model.h"

#include <array>
#include <nlohmann/json.hpp>

#include "catalog/json_members_internal.h"
#include "catalog/names.h"

namespace st::catalog {

namespace {

using internal::NameOf;
using internal::Reader;
using internal::ValueOf;
using internal::WireName;
using nlohmann::json;

// ---- Wire string tables ----

constexpr std::array<WireName<ValueConverter>, 9> kValueConverters{{
    {ValueConverter::kJson, "JSON"},
    {ValueConverter::kJsonSchemaGsr, "JSON_SCHEMA_GSR"},
    {ValueConverter::kByteArray, "BYTE_ARRAY"},
    {ValueConverter::kString, "STRING"},
    {ValueConverter::kAvroGsr, "AVRO_GSR"},
    {ValueConverter::kAvroConfluent, "AVRO_CONFLUENT"},
    {ValueConverter::kProtobufConfluent, "PROTOBUF_CONFLUENT"},
    {ValueConverter::kJsonSchemaConfluent, "JSON_SCHEMA_CONFLUENT"},
    {ValueConverter::kProtobufGsr, "PROTOBUF_GSR"},
}};

constexpr std::array<WireName<KeyConverter>, 5> kKeyConverters{{
    {KeyConverter::kByteArray, "BYTE_ARRAY"},
    {KeyConverter::kString, "STRING"},
    {KeyConverter::kAvroConfluent, "AVRO_CONFLUENT"},
    {KeyConverter::kProtobufConfluent, "PROTOBUF_CONFLUENT"},
    {KeyConverter::kJsonSchemaConfluent, "JSON_SCHEMA_CONFLUENT"},
}};

struct CompressionRow {
  IcebergCompression value;
  std::string_view name;
  std::string_view codec;  // write.parquet.compression-codec
};
constexpr std::array<CompressionRow, 2> kCompressions{{
    {IcebergCompression::kZstd, "ZSTD", "zstd"},
    {IcebergCompression::kSnappy, "SNAPPY", "snappy"},
}};

constexpr std::array<WireName<PartitionStrategy>, 2> kPartitionStrategies{{
    {PartitionStrategy::kTimeHour, "TIME_HOUR"},
    {PartitionStrategy::kTimeDay, "TIME_DAY"},
}};

constexpr std::array<WireName<ChannelStateCode>, 13> kStateCodes{{
    {ChannelStateCode::kAccessDenied, "ACCESS_DENIED"},
    {ChannelStateCode::kClusterNotFound, "CLUSTER_NOT_FOUND"},
    {ChannelStateCode::kDeliveryStalled, "DELIVERY_STALLED"},
    {ChannelStateCode::kDlqBucketNotFound, "DLQ_BUCKET_NOT_FOUND"},
    {ChannelStateCode::kInvalidClientProperty, "INVALID_CLIENT_PROPERTY"},
    {ChannelStateCode::kInvalidConfiguration, "INVALID_CONFIGURATION"},
    {ChannelStateCode::kInvalidSchema, "INVALID_SCHEMA"},
    {ChannelStateCode::kPaused, "PAUSED"},
    {ChannelStateCode::kSchemaNotFound, "SCHEMA_NOT_FOUND"},
    {ChannelStateCode::kTableAlreadyExists, "TABLE_ALREADY_EXISTS"},
    {ChannelStateCode::kTableBucketNotFound, "TABLE_BUCKET_NOT_FOUND"},
    {ChannelStateCode::kTableDeleted, "TABLE_DELETED"},
    {ChannelStateCode::kTopicNotFound, "TOPIC_NOT_FOUND"},
}};

bool IsDigits(const std::string& s, size_t n) {
  if (s.size() != n) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool IsErrorPrefixChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!-_'.*()/").find(c) != std::string_view::npos;
}

// An ARN of `service` whose resource starts with `resource` and has more.
bool ArnOf(const std::string& arn, std::string_view service, std::string_view resource) {
  Result<ArnFields> fields = ParseArn(arn);
  return fields.has_value() && fields->service == service &&
         fields->resource.compare(0, resource.size(), resource) == 0 &&
         fields->resource.size() > resource.size();
}

bool IsConfluentConverter(ValueConverter converter) {
  return converter == ValueConverter::kAvroConfluent ||
         converter == ValueConverter::kProtobufConfluent ||
         converter == ValueConverter::kJsonSchemaConfluent;
}

std::string ExternalRegistryOnlyForConfluent(const std::string& format) {
  return "externalSchemaRegistry is only for the AVRO_CONFLUENT, PROTOBUF_CONFLUENT and "
         "JSON_SCHEMA_CONFLUENT converters, not " +
         format + ".";
}

// recordSchema.externalSchemaRegistry: {"url", "basicAuth": {"key", "secret"}}
// on the wire; the stored document has basicAuth.sealedSecret instead of the
// secret (the API seals it before storing).
Result<ExternalSchemaRegistry> ReadExternalRegistry(const json& object, ChannelDocument document,
                                                    Reader& reader) {
  ST_ASSIGN_OR_RETURN(std::string url, reader.RequiredStr(object, "url"));
  Result<ExternalSchemaRegistry> parsed = ParseExternalRegistryUrl(url);
  if (!parsed) return Err(reader.Bad("url", parsed.error()));
  ExternalSchemaRegistry out = *std::move(parsed);
  ST_ASSIGN_OR_RETURN(const json* auth, reader.Obj(object, "basicAuth", false));
  if (auth == nullptr) return out;
  ST_ASSIGN_OR_RETURN(std::string key, reader.RequiredStr(*auth, "key"));
  if (Status s = ValidateBasicAuthKey(key); !s.ok()) return Err(reader.Bad("key", s));
  out.basic_auth_key = std::move(key);
  if (document == ChannelDocument::kCreateRequest) {
    if (auth->contains("sealedSecret")) {
      return Err(reader.Bad("sealedSecret",
                            "basicAuth.sealedSecret is written by the server; send "
                            "basicAuth.secret."));
    }
    ST_ASSIGN_OR_RETURN(std::string secret, reader.RequiredStr(*auth, "secret"));
    if (Status s = ValidateBasicAuthSecret(secret); !s.ok()) return Err(reader.Bad("secret", s));
    out.basic_auth_secret = std::move(secret);
  } else {
    ST_ASSIGN_OR_RETURN(std::string sealed, reader.RequiredStr(*auth, "sealedSecret"));
    out.sealed_basic_auth_secret = std::move(sealed);
  }
  return out;
}

Status ReadTopic(const json& body, ChannelDocument document, ChannelConfig& out, Reader& reader) {
  ST_ASSIGN_OR_RETURN(const json* topic, reader.SingleObject(body, "topicConfigurationList"));
  ST_ASSIGN_OR_RETURN(out.topic_arn, reader.RequiredStr(*topic, "topicArn"));
  Result<KafkaTopicArnParts> parsed = ParseKafkaTopicArn(out.topic_arn);
  if (!parsed) return reader.Bad("topicArn", parsed.error());
  out.topic = *std::move(parsed);
  ST_ASSIGN_OR_RETURN(const json* converter, reader.Obj(*topic, "recordConverter", true));
  ST_ASSIGN_OR_RETURN(std::string format, reader.RequiredStr(*converter, "valueConverter"));
  Result<ValueConverter> value_converter = ParseValueConverter(format);
  if (!value_converter) return reader.Bad("valueConverter", value_converter.error());
  out.value_converter = *value_converter;
  ST_ASSIGN_OR_RETURN(std::optional<std::string> key_format,
                      reader.Str(*converter, "keyConverter", false));
  if (key_format.has_value()) {
    Result<KeyConverter> key_converter = ParseKeyConverter(*key_format);
    if (!key_converter) return reader.Bad("keyConverter", key_converter.error());
    out.key_converter = *key_converter;
  }
  // Typed keys resolve their schema ids in the Confluent-compatible registry
  // of a *_CONFLUENT value converter (built-in, or its
  // externalSchemaRegistry); with any other value converter, in the
  // account's built-in one.
  const bool json_format = out.value_converter == ValueConverter::kJson;
  ST_ASSIGN_OR_RETURN(const json* schema,
                      reader.Obj(*topic, "recordSchema", json_format,
                                 " (a JSON channel needs recordSchema.gsrArn)"));
  if (json_format) {
    ST_ASSIGN_OR_RETURN(std::string gsr_arn, reader.RequiredStr(*schema, "gsrArn"));
    if (!ArnOf(gsr_arn, "glue", "schema/")) {
      return reader.Bad("gsrArn", "The gsrArn '" + gsr_arn +
                                      "' must be a Glue schema ARN "
                                      "(arn:aws:glue:<region>:<account>:schema/<registry>/"
                                      "<schema>).");
    }
    out.gsr_arn = std::move(gsr_arn);
    if (schema->contains("externalSchemaRegistry")) {
      return reader.Bad("externalSchemaRegistry", ExternalRegistryOnlyForConfluent(format));
    }
  } else if (schema != nullptr && IsConfluentConverter(out.value_converter)) {
    if (schema->contains("gsrArn")) {
      return reader.Bad("gsrArn", "gsrArn is only for the JSON converter: " + format +
                                      " records carry a Confluent schema id.");
    }
    ST_ASSIGN_OR_RETURN(const json* external,
                        reader.Obj(*schema, "externalSchemaRegistry", true,
                                   " (recordSchema of a Confluent channel names an external "
                                   "registry; leave it out for the built-in one)"));
    ST_ASSIGN_OR_RETURN(out.external_registry, ReadExternalRegistry(*external, document, reader));
  } else if (schema != nullptr) {
    if (schema->contains("externalSchemaRegistry")) {
      return reader.Bad("externalSchemaRegistry", ExternalRegistryOnlyForConfluent(format));
    }
    return reader.Bad(
        "recordSchema",
        "recordSchema is only for the JSON converter (gsrArn) and the Confluent "
        "converters (externalSchemaRegistry): " +
            format +
            " records carry their schema id (JSON_SCHEMA_GSR, AVRO_GSR, PROTOBUF_GSR) or "
            "need "
            "none.");
  }
  return Status::OK();
}

Status ReadDeadLetter(const json& iceberg, ChannelConfig& out, Reader& reader) {
  ST_ASSIGN_OR_RETURN(const json* dlq, reader.Obj(iceberg, "deadLetterQueueS3", true));
  ST_ASSIGN_OR_RETURN(out.dlq_bucket_arn, reader.RequiredStr(*dlq, "bucketArn"));
  Result<std::string> bucket = ParseGeneralPurposeBucketArn(out.dlq_bucket_arn);
  if (!bucket) {
    return reader.Bad("bucketArn", "deadLetterQueueS3.bucketArn: " + bucket.error().message());
  }
  out.dlq_bucket_name = *std::move(bucket);
  ST_ASSIGN_OR_RETURN(out.dlq_error_output_prefix, reader.Str(*dlq, "errorOutputPrefix", false));
  if (out.dlq_error_output_prefix.has_value()) {
    const std::string& value = *out.dlq_error_output_prefix;
    bool ok = !value.empty() && value.size() <= 512;
    for (char c : value) ok = ok && IsErrorPrefixChar(c);
    if (!ok) {
      return reader.Bad("errorOutputPrefix",
                        "errorOutputPrefix must be 1 to 512 characters of "
                        "[0-9A-Za-z!-_'.*()/].");
    }
  }
  ST_ASSIGN_OR_RETURN(out.dlq_expected_bucket_owner,
                      reader.Str(*dlq, "expectedBucketOwner", false));
  if (out.dlq_expected_bucket_owner.has_value() && !IsDigits(*out.dlq_expected_bucket_owner, 12)) {
    return reader.Bad("expectedBucketOwner", "expectedBucketOwner must be 12 digits.");
  }
  return Status::OK();
}

Status ReadTable(const json& iceberg, ChannelDocument document, ChannelConfig& out,
                 Reader& reader) {
  ST_ASSIGN_OR_RETURN(const json* table, reader.SingleObject(iceberg, "destinationTableList"));
  ST_ASSIGN_OR_RETURN(out.namespace_name, reader.RequiredStr(*table, "destinationDatabaseName"));
  if (Status s = ValidateNamespaceName(out.namespace_name); !s.ok()) {
    return reader.Bad("destinationDatabaseName", s);
  }
  ST_ASSIGN_OR_RETURN(out.table_name, reader.RequiredStr(*table, "destinationTableName"));
  if (Status s = ValidateTableName(out.table_name); !s.ok()) {
    return reader.Bad("destinationTableName", s);
  }
  ST_ASSIGN_OR_RETURN(const json* spec, reader.Obj(*table, "partitionSpec", false));
  if (spec == nullptr) {
    out.partition_strategy = PartitionStrategy::kTimeHour;
  } else {
    ST_ASSIGN_OR_RETURN(std::string strategy, reader.RequiredStr(*spec, "partitionStrategy"));
    Result<PartitionStrategy> parsed = ParsePartitionStrategy(strategy);
    if (!parsed) return reader.Bad("partitionStrategy", parsed.error());
    out.partition_strategy = *parsed;
  }
  const json* sources = nullptr;
  if (spec != nullptr) {
    ST_ASSIGN_OR_RETURN(sources, reader.Arr(*spec, "sourceList", false));
  }
  const size_t source_count = sources == nullptr ? 0 : sources->size();
  if (source_count > 1) {
    return reader.Bad("sourceList", "sourceList holds at most one source column.");
  }
  if (source_count == 1) {
    const json& source = (*sources)[0];
    if (!source.is_object()) {
      return reader.Bad("sourceList", "Each sourceList entry must be an object.");
    }
    ST_ASSIGN_OR_RETURN(std::string name, reader.RequiredStr(source, "sourceName"));
    if (name.empty()) return reader.Bad("sourceName", "sourceName cannot be empty.");
    out.partition_source = std::move(name);
  } else if (!out.include_kafka_metadata && document == ChannelDocument::kCreateRequest) {
    return reader.Bad("sourceList",
                      "Without a source column the table is partitioned on the Kafka "
                      "record timestamp, which needs includeKafkaMetadata true; name a "
                      "timestamp column in sourceList or include the metadata.");
  }
  return Status::OK();
}

// appendOnly / enableSchemaEvolution / enableTableCreation: constants of this
// release, required on the wire (a stored document may lack them).
Status ReadFixedFlag(const json& object, const std::string& flag, bool required_value,
                     bool required, Reader& reader) {
  ST_ASSIGN_OR_RETURN(const json* value, reader.Bool(object, flag, required));
  if (value != nullptr && value->get<bool>() != required_value) {
    return reader.Bad(
        flag, flag + " must be " + (required_value ? "true" : "false") + " in this release.");
  }
  return Status::OK();
}

Status ReadFixedFlagObject(const json& iceberg, const std::string& object_name,
                           const std::string& flag, bool required_value, bool required,
                           Reader& reader) {
  ST_ASSIGN_OR_RETURN(const json* object, reader.Obj(iceberg, object_name, required));
  if (object == nullptr) return Status::OK();
  return ReadFixedFlag(*object, flag, required_value, required, reader);
}

Result<std::chrono::seconds> ReadFreshness(const json& object, bool required, Reader& reader) {
  ST_ASSIGN_OR_RETURN(const json* value, reader.Int(object, "dataFreshnessInSeconds", required));
  if (value == nullptr) return kDefaultDataFreshness;
  int64_t seconds = value->is_number_unsigned() ? static_cast<int64_t>(value->get<uint64_t>())
                                                : value->get<int64_t>();
  if (value->is_number_unsigned() && value->get<uint64_t>() > 1000000) seconds = -1;
  Result<std::chrono::seconds> freshness = DataFreshnessFromSeconds(seconds);
  if (!freshness) return Err(reader.Bad("dataFreshnessInSeconds", freshness.error()));
  return *freshness;
}

Status ReadIceberg(const json& body, ChannelDocument document, ChannelConfig& out, Reader& reader) {
  const bool wire = document == ChannelDocument::kCreateRequest;
  ST_ASSIGN_OR_RETURN(const json* iceberg,
                      reader.Obj(body, "icebergDestinationConfiguration", true));
  ST_ASSIGN_OR_RETURN(const json* append_only, reader.Bool(*iceberg, "appendOnly", wire));
  if (append_only != nullptr && !append_only->get<bool>()) {
    return reader.Bad("appendOnly",
                      "appendOnly must be true: updates and deletes are not supported.");
  }
  ST_ASSIGN_OR_RETURN(std::string role, reader.RequiredStr(*iceberg, "serviceExecutionRoleArn"));
  Result<IamRoleArnParts> role_parts = ParseIamRoleArn(role);
  if (!role_parts) {
    return reader.Bad("serviceExecutionRoleArn",
                      "serviceExecutionRoleArn must be an IAM role ARN "
                      "(arn:aws:iam::<account>:role/<name>).");
  }
  out.service_execution_role = *std::move(role_parts);
  ST_TRY(ReadDeadLetter(*iceberg, out, reader));
  ST_ASSIGN_OR_RETURN(const json* include, reader.Bool(*iceberg, "includeKafkaMetadata", false));
  out.include_kafka_metadata = include == nullptr || include->get<bool>();
  if (!out.include_kafka_metadata && out.key_converter != KeyConverter::kByteArray &&
      document == ChannelDocument::kCreateRequest) {
    return reader.Bad("keyConverter", "keyConverter " +
                                          std::string(KeyConverterName(out.key_converter)) +
                                          " decodes the record key into _kafka.key, which needs "
                                          "includeKafkaMetadata true.");
  }
  ST_TRY(ReadTable(*iceberg, document, out, reader));
  ST_TRY(ReadFixedFlagObject(*iceberg, "schemaEvolution", "enableSchemaEvolution", false, wire,
                             reader));
  ST_TRY(ReadFixedFlagObject(*iceberg, "tableCreation", "enableTableCreation", true, wire, reader));
  ST_ASSIGN_OR_RETURN(const json* catalog_config,
                      reader.Obj(*iceberg, "catalog", true,
                                 " (catalog.warehouseLocation is the table bucket ARN)"));
  ST_ASSIGN_OR_RETURN(out.table_bucket_arn,
                      reader.RequiredStr(*catalog_config, "warehouseLocation"));
  Result<TableBucketArnParts> bucket = ParseTableBucketArn(out.table_bucket_arn);
  if (!bucket) return reader.Bad("warehouseLocation", bucket.error());
  out.table_bucket = *std::move(bucket);
  ST_ASSIGN_OR_RETURN(out.catalog_arn, reader.Str(*catalog_config, "catalogArn", false));
  if (out.catalog_arn.has_value()) {
    const std::string expected = "arn:aws:glue:" + out.table_bucket.region + ":" +
                                 out.table_bucket.account_id + ":catalog/s3tablescatalog/" +
                                 out.table_bucket.bucket_name;
    if (*out.catalog_arn != expected) {
      return reader.Bad("catalogArn", "catalogArn must be '" + expected +
                                          "' (the catalog of the warehouse bucket) or left out.");
    }
  }
  ST_ASSIGN_OR_RETURN(out.data_freshness, ReadFreshness(*iceberg, false, reader));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> compression,
                      reader.Str(*iceberg, "compressionType", false));
  if (compression.has_value()) {
    Result<IcebergCompression> parsed = ParseIcebergCompression(*compression);
    if (!parsed) return reader.Bad("compressionType", parsed.error());
    out.compression = *parsed;
  }
  ST_ASSIGN_OR_RETURN(const json* dead_letter_topic,
                      reader.Obj(*iceberg, "deadLetterTopic", false));
  if (dead_letter_topic != nullptr) {
    ST_ASSIGN_OR_RETURN(std::string topic_name,
                        reader.RequiredStr(*dead_letter_topic, "topicName"));
    if (Status s = ValidateKafkaTopicName(topic_name); !s.ok()) return reader.Bad("topicName", s);
    out.dlq_topic = std::move(topic_name);
  }
  return Status::OK();
}

Result<ChannelConfig> ReadChannel(const json& body, ChannelDocument document, Reader& reader) {
  ChannelConfig out;
  ST_ASSIGN_OR_RETURN(out.channel_name, reader.RequiredStr(body, "channelName"));
  if (Status s = ValidateChannelName(out.channel_name); !s.ok()) {
    return Err(reader.Bad("channelName", s));
  }
  ST_TRY(ReadTopic(body, document, out, reader));
  if (document == ChannelDocument::kCreateRequest) {
    ST_ASSIGN_OR_RETURN(const json* s3, reader.Obj(body, "s3DestinationConfiguration", false));
    if (s3 != nullptr) {
      return Err(reader.Bad("s3DestinationConfiguration",
                            "The S3 destination is not supported by this server; use "
                            "icebergDestinationConfiguration."));
    }
  }
  ST_TRY(ReadIceberg(body, document, out, reader));
  ST_ASSIGN_OR_RETURN(const json* encryption, reader.Obj(body, "encryptionConfiguration", false));
  if (encryption != nullptr) {
    ST_ASSIGN_OR_RETURN(std::string kms, reader.RequiredStr(*encryption, "kmsKeyArn"));
    if (!ArnOf(kms, "kms", "key")) {
      return Err(
          reader.Bad("kmsKeyArn",
                     "kmsKeyArn must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)."));
    }
    out.kms_key_arn = std::move(kms);
  }
  ST_ASSIGN_OR_RETURN(const json* logging, reader.Obj(body, "loggingInfo", false));
  if (logging != nullptr) out.logging_info_json = logging->dump();
  return out;
}

}  // namespace

std::string_view ValueConverterName(ValueConverter converter) {
  return NameOf(kValueConverters, converter);
}
Result<ValueConverter> ParseValueConverter(std::string_view name) {
  return ValueOf(kValueConverters, name, "valueConverter");
}

std::string_view KeyConverterName(KeyConverter converter) {
  return NameOf(kKeyConverters, converter);
}
Result<KeyConverter> ParseKeyConverter(std::string_view name) {
  return ValueOf(kKeyConverters, name, "keyConverter");
}

std::string_view IcebergCompressionName(IcebergCompression compression) {
  return NameOf(kCompressions, compression);
}
std::string_view IcebergCompressionCodec(IcebergCompression compression) {
  for (const CompressionRow& row : kCompressions) {
    if (row.value == compression) return row.codec;
  }
  return "";
}
Result<IcebergCompression> ParseIcebergCompression(std::string_view name) {
  return ValueOf(kCompressions, name, "compressionType");
}

std::string_view PartitionStrategyName(PartitionStrategy strategy) {
  return NameOf(kPartitionStrategies, strategy);
}
Result<PartitionStrategy> ParsePartitionStrategy(std::string_view name) {
  return ValueOf(kPartitionStrategies, name, "partitionStrategy");
}

std::string_view ChannelStateCodeName(ChannelStateCode code) { return NameOf(kStateCodes, code); }
Result<ChannelStateCode> ParseChannelStateCode(std::string_view name) {
  return ValueOf(kStateCodes, name, "stateInfo code");
}
ChannelStateInfo MakeStateInfo(ChannelStateCode code, std::string message) {
  return ChannelStateInfo{std::string(ChannelStateCodeName(code)), std::move(message)};
}
bool HasStateCode(const std::optional<ChannelStateInfo>& info, ChannelStateCode code) {
  return info.has_value() && info->code == ChannelStateCodeName(code);
}

Result<std::chrono::seconds> DataFreshnessFromSeconds(int64_t seconds) {
  if (seconds < kMinDataFreshness.count() || seconds > kMaxDataFreshness.count()) {
    return Err(InvalidArgument("dataFreshnessInSeconds must be between " +
                               std::to_string(kMinDataFreshness.count()) + " and " +
                               std::to_string(kMaxDataFreshness.count()) + " (default " +
                               std::to_string(kDefaultDataFreshness.count()) + ")."));
  }
  return std::chrono::seconds(seconds);
}

Result<ChannelConfig> ParseChannelConfig(std::string_view json_text, ChannelDocument document,
                                         std::string* invalid_member) {
  Reader reader(invalid_member);
  const char* what = document == ChannelDocument::kStored ? "The stored channel configuration"
                                                          : "The request body";
  ST_ASSIGN_OR_RETURN(json body,
                      reader.ParseObject(json_text, std::string(what) + " must be a JSON object."));
  return ReadChannel(body, document, reader);
}

Result<CreateChannelRequest> ParseCreateChannelRequest(std::string_view json_text,
                                                       std::string* invalid_member) {
  Reader reader(invalid_member);
  ST_ASSIGN_OR_RETURN(json body,
                      reader.ParseObject(json_text, "The request body must be a JSON object."));
  CreateChannelRequest out;
  ST_ASSIGN_OR_RETURN(out.config, ReadChannel(body, ChannelDocument::kCreateRequest, reader));
  ST_ASSIGN_OR_RETURN(const json* tags, reader.Obj(body, "tags", false));
  if (tags != nullptr) {
    for (const auto& [key, value] : tags->items()) {
      if (!value.is_string()) return Err(reader.Bad("tags", "Tag values must be strings."));
      if (Status s = ValidateTag(key, value.get<std::string>()); !s.ok()) {
        return Err(reader.Bad("tags", s));
      }
      out.tags[key] = value.get<std::string>();
    }
  }
  return out;
}

Result<ChannelUpdate> ParseUpdateChannelRequest(std::string_view json_text,
                                                std::string* invalid_member) {
  Reader reader(invalid_member);
  ST_ASSIGN_OR_RETURN(json body,
                      reader.ParseObject(json_text, "The request body must be a JSON object."));
  ST_ASSIGN_OR_RETURN(const json* iceberg, reader.Obj(body, "icebergDestinationUpdate", false));
  ST_ASSIGN_OR_RETURN(const json* s3, reader.Obj(body, "s3DestinationUpdate", false));
  ST_ASSIGN_OR_RETURN(const json* registry,
                      reader.Obj(body, "externalSchemaRegistryUpdate", false));
  if (s3 != nullptr) {
    return Err(reader.Bad("s3DestinationUpdate",
                          "The channel's destination type is ICEBERG: send "
                          "icebergDestinationUpdate instead."));
  }
  if (iceberg == nullptr && registry == nullptr) {
    return Err(reader.Bad("icebergDestinationUpdate",
                          "The required member 'icebergDestinationUpdate' is missing."));
  }
  ChannelUpdate out;
  if (iceberg != nullptr) {
    ST_ASSIGN_OR_RETURN(out.data_freshness, ReadFreshness(*iceberg, true, reader));
  }
  if (registry != nullptr) {
    ST_ASSIGN_OR_RETURN(out.external_registry,
                        ReadExternalRegistry(*registry, ChannelDocument::kCreateRequest, reader));
  }
  return out;
}

std::string SerializeChannelConfig(const ChannelConfig& config, ChannelEcho echo) {
  json topic = {{"topicArn", config.topic_arn},
                {"recordConverter",
                 {{"valueConverter", std::string(ValueConverterName(config.value_converter))}}}};
  if (config.key_converter != KeyConverter::kByteArray) {
    topic["recordConverter"]["keyConverter"] = std::string(KeyConverterName(config.key_converter));
  }
  if (config.gsr_arn.has_value()) topic["recordSchema"] = {{"gsrArn", *config.gsr_arn}};
  if (config.external_registry.has_value()) {
    const ExternalSchemaRegistry& registry = *config.external_registry;
    json external = {{"url", registry.url}};
    if (registry.basic_auth_key.has_value()) {
      json auth = {{"key", *registry.basic_auth_key}};
      if (echo == ChannelEcho::kStored && registry.sealed_basic_auth_secret.has_value()) {
        auth["sealedSecret"] = *registry.sealed_basic_auth_secret;
      }
      external["basicAuth"] = std::move(auth);
    }
    topic["recordSchema"] = {{"externalSchemaRegistry", std::move(external)}};
  }

  json dlq = {{"bucketArn", config.dlq_bucket_arn}};
  if (config.dlq_error_output_prefix) dlq["errorOutputPrefix"] = *config.dlq_error_output_prefix;
  if (config.dlq_expected_bucket_owner) {
    dlq["expectedBucketOwner"] = *config.dlq_expected_bucket_owner;
  }
  json sources = json::array();
  if (config.partition_source) sources.push_back({{"sourceName", *config.partition_source}});
  json table = {
      {"destinationDatabaseName", config.namespace_name},
      {"destinationTableName", config.table_name},
      {"partitionSpec",
       {{"partitionStrategy", std::string(PartitionStrategyName(config.partition_strategy))},
        {"sourceList", sources}}}};
  json catalog_config = {{"warehouseLocation", config.table_bucket_arn}};
  if (config.catalog_arn) catalog_config["catalogArn"] = *config.catalog_arn;
  json iceberg = {{"appendOnly", true},
                  {"serviceExecutionRoleArn", config.service_execution_role.arn},
                  {"deadLetterQueueS3", dlq},
                  {"includeKafkaMetadata", config.include_kafka_metadata},
                  {"destinationTableList", json::array({table})},
                  {"schemaEvolution", {{"enableSchemaEvolution", false}}},
                  {"tableCreation", {{"enableTableCreation", true}}},
                  {"catalog", catalog_config},
                  {"dataFreshnessInSeconds", config.data_freshness.count()},
                  {"compressionType", std::string(IcebergCompressionName(config.compression))}};
  if (config.dlq_topic) iceberg["deadLetterTopic"] = {{"topicName", *config.dlq_topic}};

  json out = {{"channelName", config.channel_name},
              {"topicConfigurationList", json::array({topic})},
              {"icebergDestinationConfiguration", iceberg}};
  if (config.kms_key_arn) out["encryptionConfiguration"] = {{"kmsKeyArn", *config.kms_key_arn}};
  if (config.logging_info_json) {
    json logging = json::parse(*config.logging_info_json, nullptr, /*allow_exceptions=*/false);
    if (logging.is_object()) out["loggingInfo"] = std::move(logging);
  }
  return out.dump();
}

std::string ExternalRegistrySealContextOf(const ChannelConfig& config) {
  if (!config.external_registry.has_value()) return "";
  return ExternalRegistrySealContext(config.topic.cluster.cluster_arn, config.channel_name,
                                     *config.external_registry);
}

}  // namespace st::catalog
