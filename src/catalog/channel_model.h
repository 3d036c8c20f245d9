// The typed model of a delivery channel's configuration (docs/msk-channel-api-notes.md
// §3.1, §4, with our extensions: includeKafkaMetadata, deadLetterTopic,
// TIME_DAY, 1 s freshness) and its one JSON codec.
//
// The stored document (Channel::configuration_json) is the CreateChannel
// body without tags and with defaults filled, camelCase as on the wire. The
// codec reads both: a CreateChannel body (kCreateRequest: the members the
// model requires on the wire must be there) and a stored document (kStored:
// what an earlier release stored). Serialize writes the stored document.
// Parsed once where it enters: api/kafka parses request bodies, delivery
// parses the stored document once per channel configuration.
//
// Errors: InvalidArgument whose message names the member and the fix; when
// `invalid_member` is given it receives that camelCase member name (MSK's
// invalidParameter), or "" when the document as a whole is wrong.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/arns.h"
#include "catalog/channel_records.h"
#include "catalog/external_schema_registry.h"
#include "common/status.h"

namespace st::catalog {

// ---- Enums and their wire strings (one table each, in channel_model.cc) ----

// topicConfigurationList[].recordConverter.valueConverter. The modelled
// product has the first four; AVRO_GSR (Avro behind the Glue Schema Registry
// framing, definitions from the built-in Glue registry) and AVRO_CONFLUENT
// (Avro behind the Confluent framing, magic 0 + 4-byte schema id) and
// PROTOBUF_CONFLUENT (Protobuf behind the Confluent framing with message
// indexes, .proto schemas from the built-in Confluent-compatible registry)
// and JSON_SCHEMA_CONFLUENT (a JSON object behind the Confluent framing, its
// id naming a JSON Schema in that registry) and PROTOBUF_GSR (Protobuf behind
// the Glue Schema Registry framing, a .proto version of the built-in Glue
// registry, the message selected by the GSR message index) are streamtables
// extensions.
enum class ValueConverter {
  kJson,
  kJsonSchemaGsr,
  kByteArray,
  kString,
  kAvroGsr,
  kAvroConfluent,
  kProtobufConfluent,
  kJsonSchemaConfluent,
  kProtobufGsr
};
std::string_view ValueConverterName(ValueConverter converter);  // "JSON", ...
// Errors: InvalidArgument naming the value and the valid ones.
Result<ValueConverter> ParseValueConverter(std::string_view name);

// Extension: topicConfigurationList[].recordConverter.keyConverter, how the
// record key lands in `_kafka.key`: BYTE_ARRAY (the default) keeps its bytes
// (binary); STRING decodes it as UTF-8 text (string), and a record whose key
// is not UTF-8 goes to the dead-letter queue (TYPE_MISMATCH); AVRO_CONFLUENT /
// PROTOBUF_CONFLUENT / JSON_SCHEMA_CONFLUENT decode a Confluent-framed Avro /
// Protobuf / JSON key by its writer schema into a typed `_kafka.key` (only
// with a *_CONFLUENT valueConverter: the same registry).
enum class KeyConverter {
  kByteArray,
  kString,
  kAvroConfluent,
  kProtobufConfluent,
  kJsonSchemaConfluent
};
// "BYTE_ARRAY", "STRING", "AVRO_CONFLUENT", "PROTOBUF_CONFLUENT", "JSON_SCHEMA_CONFLUENT"
std::string_view KeyConverterName(KeyConverter converter);
// Errors: InvalidArgument naming the value and the valid ones.
Result<KeyConverter> ParseKeyConverter(std::string_view name);

// icebergDestinationConfiguration.compressionType.
enum class IcebergCompression { kZstd, kSnappy };
std::string_view IcebergCompressionName(IcebergCompression compression);  // "ZSTD", "SNAPPY"
// The Iceberg `write.parquet.compression-codec` value: "zstd", "snappy".
std::string_view IcebergCompressionCodec(IcebergCompression compression);
Result<IcebergCompression> ParseIcebergCompression(std::string_view name);

// destinationTableList[].partitionSpec.partitionStrategy.
enum class PartitionStrategy { kTimeHour, kTimeDay };
std::string_view PartitionStrategyName(PartitionStrategy strategy);  // "TIME_HOUR", "TIME_DAY"
Result<PartitionStrategy> ParsePartitionStrategy(std::string_view name);

// stateInfo.code of a FAILED / SUSPENDED (or stalled ACTIVE) channel.
enum class ChannelStateCode {
  kAccessDenied,           // The service role may not do something it must.
  kClusterNotFound,        // The channel's Kafka cluster is not registered.
  kDeliveryStalled,        // ACTIVE, but commits have failed for longer than the freshness.
  kDlqBucketNotFound,      // deadLetterQueueS3.bucketArn does not exist.
  kInvalidClientProperty,  // The cluster carries a client property we refuse.
  kInvalidConfiguration,   // The stored configuration does not parse.
  kInvalidSchema,          // The registry schema does not map to a table.
  kPaused,                 // Extension: the user paused delivery.
  kSchemaNotFound,         // The registry schema does not exist.
  kTableAlreadyExists,     // The destination table exists and is not the channel's.
  kTableBucketNotFound,    // catalog.warehouseLocation does not exist.
  kTableDeleted,           // The channel's table was deleted.
  kTopicNotFound,          // The Kafka topic does not exist.
};
std::string_view ChannelStateCodeName(ChannelStateCode code);  // "ACCESS_DENIED", ...
Result<ChannelStateCode> ParseChannelStateCode(std::string_view name);
// ChannelStateInfo keeps the code as its wire string (the store's column);
// these are the typed ways to make and test one.
ChannelStateInfo MakeStateInfo(ChannelStateCode code, std::string message);
bool HasStateCode(const std::optional<ChannelStateInfo>& info, ChannelStateCode code);

// ---- Data freshness ----

// Extension: from 1 s (AWS: 300 s) to 900 s; default 600 s.
inline constexpr std::chrono::seconds kMinDataFreshness{1};
inline constexpr std::chrono::seconds kMaxDataFreshness{900};
inline constexpr std::chrono::seconds kDefaultDataFreshness{600};
// Errors: InvalidArgument outside [kMinDataFreshness, kMaxDataFreshness].
Result<std::chrono::seconds> DataFreshnessFromSeconds(int64_t seconds);

// ---- The model ----

struct ChannelConfig {
  std::string channel_name;

  // topicConfigurationList[0]
  std::string topic_arn;
  KafkaTopicArnParts topic;
  ValueConverter value_converter = ValueConverter::kJson;
  KeyConverter key_converter = KeyConverter::kByteArray;  // Echoed only when not the default.
  std::optional<std::string> gsr_arn;  // recordSchema.gsrArn: required for JSON, else absent.
  // Extension: recordSchema.externalSchemaRegistry, only for the *_CONFLUENT
  // converters: schema ids resolve there instead of in the built-in registry.
  std::optional<ExternalSchemaRegistry> external_registry;

  // icebergDestinationConfiguration
  IamRoleArnParts service_execution_role;  // Its account may be empty (the API refuses it).
  // deadLetterQueueS3
  std::string dlq_bucket_arn;
  std::string dlq_bucket_name;
  std::optional<std::string> dlq_error_output_prefix;    // 1–512 of [0-9A-Za-z!-_'.*()/].
  std::optional<std::string> dlq_expected_bucket_owner;  // 12 digits.
  std::optional<std::string> dlq_topic;                  // Extension: deadLetterTopic.topicName.
  bool include_kafka_metadata = true;                    // Extension.
  // destinationTableList[0]
  std::string namespace_name;
  std::string table_name;
  PartitionStrategy partition_strategy = PartitionStrategy::kTimeHour;
  // partitionSpec.sourceList[0].sourceName; absent: the Kafka record timestamp.
  std::optional<std::string> partition_source;
  // catalog
  std::string table_bucket_arn;  // warehouseLocation
  TableBucketArnParts table_bucket;
  std::optional<std::string> catalog_arn;  // The warehouse bucket's Glue catalog ARN.
  std::chrono::seconds data_freshness = kDefaultDataFreshness;
  IcebergCompression compression = IcebergCompression::kZstd;

  // encryptionConfiguration.kmsKeyArn (stored and echoed; not enforced yet).
  std::optional<std::string> kms_key_arn;
  // loggingInfo as the client sent it (JSON object text): echoed by
  // DescribeChannel, not interpreted (no log delivery yet).
  std::optional<std::string> logging_info_json;

  std::string dlq_prefix() const { return dlq_error_output_prefix.value_or(""); }
};

enum class ChannelDocument {
  kCreateRequest,  // A CreateChannel body: appendOnly, schemaEvolution, tableCreation required.
  kStored,         // Channel::configuration_json.
};

// The CreateChannel body: the configuration and the channel's tags.
struct CreateChannelRequest {
  ChannelConfig config;
  std::map<std::string, std::string> tags;  // Checked with ValidateTag.
};

Result<ChannelConfig> ParseChannelConfig(std::string_view json_text, ChannelDocument document,
                                         std::string* invalid_member = nullptr);
// Also refuses s3DestinationConfiguration (every channel here is ICEBERG).
Result<CreateChannelRequest> ParseCreateChannelRequest(std::string_view json_text,
                                                       std::string* invalid_member = nullptr);
// What an UpdateChannel body changes: icebergDestinationUpdate with
// dataFreshnessInSeconds (the MSK API's one member), and, our extension,
// externalSchemaRegistryUpdate {"url", "basicAuth": {"key", "secret"}}: the
// whole external registry of a *_CONFLUENT channel that has one (its secret
// in plaintext, as at create; the API seals it). At least one of the two;
// s3DestinationUpdate is refused.
struct ChannelUpdate {
  std::optional<std::chrono::seconds> data_freshness;
  std::optional<ExternalSchemaRegistry> external_registry;
};
Result<ChannelUpdate> ParseUpdateChannelRequest(std::string_view json_text,
                                                std::string* invalid_member = nullptr);
// What SerializeChannelConfig writes: the stored document, or what
// DescribeChannel echoes (the same without secrets: an external registry's
// sealed secret is left out, its URL and key stay).
enum class ChannelEcho { kStored, kDescribe };
// Compact JSON object text. A plaintext basicAuth.secret is never written.
std::string SerializeChannelConfig(const ChannelConfig& config,
                                   ChannelEcho echo = ChannelEcho::kStored);
// The sealing context of the channel's external registry secret
// (ExternalRegistrySealContext); "" without an external registry.
std::string ExternalRegistrySealContextOf(const ChannelConfig& config);

}  // namespace st::catalog
