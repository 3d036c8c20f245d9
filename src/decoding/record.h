// What the decoder consumes (one Kafka record) and what it reports for a
// record it cannot turn into a row (the record then goes to the dead-letter
// queue; docs/msk-channel-api-notes.md §12).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace st::decoding {

// How a channel's record keys land in `_kafka.key` (its keyConverter): their
// bytes (binary), UTF-8 text (string), or Avro / Protobuf / JSON (an object)
// behind the Confluent framing, decoded by the key's writer schema into the
// Iceberg type it maps to (the table gains `_kafka.key` with the first keyed
// record and evolves it with later key schema versions).
enum class KeyFormat { kBytes, kString, kAvroConfluent, kProtobufConfluent, kJsonSchemaConfluent };

// Whether keys of `format` are decoded by a writer schema (a typed `_kafka.key`).
inline bool KeyHasSchema(KeyFormat format) {
  return format == KeyFormat::kAvroConfluent || format == KeyFormat::kProtobufConfluent ||
         format == KeyFormat::kJsonSchemaConfluent;
}

// How a channel's record values are encoded (the channel's valueConverter).
enum class ValueFormat {
  kJson,           // UTF-8 JSON object, mapped onto the value columns.
  kJsonSchemaGsr,  // Glue Schema Registry framing (§13) around a JSON object.
  kByteArray,      // The raw bytes, one binary `value` column.
  kString,         // UTF-8 text, one string `value` column.
  // Avro binary behind the Confluent wire framing (magic byte 0, 4-byte
  // big-endian schema id), decoded per the writer schema the id names.
  kAvroConfluent,
  // Avro binary behind the Glue Schema Registry framing (§13, data format AVRO).
  kAvroGsr,
  // Protobuf binary behind the Confluent framing with message indexes,
  // decoded per the .proto schema the id names (issue 14 item 3).
  kProtobufConfluent,
  // A JSON object behind the Confluent framing (magic byte 0, 4-byte
  // big-endian schema id), its id naming a JSON Schema (schemaType JSON).
  kJsonSchemaConfluent,
  // Protobuf binary behind the Glue Schema Registry framing (§13, data
  // format PROTOBUF): the payload is the GSR message index (an unsigned
  // varint) and the message, decoded per the version's .proto definition.
  kProtobufGsr,
};

struct KafkaHeader {
  std::string_view key;
  std::optional<std::string_view> value;
};

// All views are owned by the caller and only need to stay valid during the
// call that receives the record.
struct KafkaRecord {
  std::string_view topic;
  int32_t partition = 0;
  int64_t offset = 0;
  int64_t timestamp_ms = -1;  // Negative: the record has no timestamp.
  std::optional<std::string_view> key;
  std::optional<std::string_view> value;  // nullopt: a tombstone.
  std::vector<KafkaHeader> headers;
};

// Stable error codes (the DLQ entry's errorCode).
inline constexpr std::string_view kMalformedJson = "MALFORMED_JSON";
inline constexpr std::string_view kMissingGsrHeader = "MISSING_GSR_HEADER";
inline constexpr std::string_view kSchemaNotFound = "SCHEMA_NOT_FOUND";
inline constexpr std::string_view kSchemaMismatch = "SCHEMA_MISMATCH";
inline constexpr std::string_view kMissingRequiredField = "MISSING_REQUIRED_FIELD";
inline constexpr std::string_view kTypeMismatch = "TYPE_MISMATCH";
inline constexpr std::string_view kMissingPartitionValue = "MISSING_PARTITION_VALUE";
inline constexpr std::string_view kNestingTooDeep = "NESTING_TOO_DEEP";
inline constexpr std::string_view kRecordTooLarge = "RECORD_TOO_LARGE";
inline constexpr std::string_view kNullValue = "NULL_VALUE";
// The record's timestamptz partition source value (a streaming table's `ts`)
// is older than the table's record expiration horizon (now − days): record
// expiration would remove it at once, so it is not written.
inline constexpr std::string_view kRecordExpired = "RECORD_EXPIRED";
// Confluent framing: the first byte is not the magic byte 0.
inline constexpr std::string_view kWrongMagicByte = "WRONG_MAGIC_BYTE";
// The value ends before its framing header (or Protobuf message indexes), or
// the Avro payload ends inside a value.
inline constexpr std::string_view kTruncatedPayload = "TRUNCATED_PAYLOAD";
// The Avro payload does not match its writer schema: a bad varint, union
// branch or enum index, a negative length or one past the end, a string that
// is not UTF-8, a boolean byte other than 0/1, bytes after the value.
inline constexpr std::string_view kMalformedAvro = "MALFORMED_AVRO";
// Confluent Protobuf framing: the message indexes are malformed or name no
// message of the schema (GSR Protobuf: likewise its one index, or its zlib
// stream is corrupt); or the payload does not match its writer schema (a
// truncated or overlong varint, a length past the end, a wire type the
// field's type is not sent with, a string that is not UTF-8).
inline constexpr std::string_view kMalformedProtobuf = "MALFORMED_PROTOBUF";
// The record's writer schema cannot be resolved onto (or evolve) the table's
// schema; the message names the field and both types.
inline constexpr std::string_view kSchemaIncompatible = "SCHEMA_INCOMPATIBLE";

// Why one record was rejected. `message` names the field path (dotted, list
// elements as "element", map values as "value") and what was expected.
struct RecordError {
  std::string code;  // One of the k* codes above.
  std::string message;
  // The embedded writer schema id, when it was readable: JSON_SCHEMA_GSR,
  // Avro-GSR and Protobuf-GSR the version UUID, Confluent the decimal schema id.
  std::string schema_version_id;

  friend bool operator==(const RecordError&, const RecordError&) = default;
};

}  // namespace st::decoding
