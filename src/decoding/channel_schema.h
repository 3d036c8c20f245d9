// The Iceberg table a delivery channel writes: its schema and partition spec,
// derived from the channel configuration (docs/msk-channel-api-notes.md §11).
#pragma once

#include <optional>
#include <string>

#include "common/status.h"
#include "decoding/record.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"

namespace st::decoding {

// The name of the Kafka metadata column.
inline constexpr std::string_view kKafkaMetadataColumn = "_kafka";

// The value columns (the mapped JSON schema for kJson / kJsonSchemaGsr /
// kJsonSchemaConfluent; one optional `value` column, binary for kByteArray
// and string for kString) plus, when include_metadata, a trailing optional struct
// `_kafka` {partition int (required), offset long (required), timestamp
// timestamptz, key binary (string for KeyFormat::kString), headers
// map<string, binary>} with fresh ids above the value schema's highest id. A partition source (a
// top-level timestamptz value column) becomes required. Schema id 0. Errors: InvalidArgument when a
// JSON format has no value schema, a raw format has a partition source, the source is missing,
// nested or not a timestamptz, or the value schema already has a `_kafka` column.
Result<iceberg::Schema> ChannelTableSchema(ValueFormat format,
                                           const std::optional<iceberg::Schema>& value_schema,
                                           bool include_metadata,
                                           const std::optional<std::string>& partition_source,
                                           KeyFormat key_format = KeyFormat::kBytes);

// The `_kafka.key` member of `table`, or nullptr while it has none (a typed
// key before the first keyed record). Points into `table`. Errors:
// InvalidArgument when the table has no `_kafka` struct.
Result<const iceberg::NestedField*> KafkaKeyOf(const iceberg::Schema& table);

// `table` with `key` as its `_kafka.key` (replacing the member, or inserted
// before `headers`, where the other key converters have it), schema id + 1.
// Errors: as KafkaKeyOf.
Result<iceberg::Schema> WithKafkaKey(const iceberg::Schema& table, iceberg::NestedField key);

// Spec 0 with one field 1000: hour(source) named "<source>_hour" (day /
// "<source>_day" when daily); without a source, on `_kafka.timestamp`
// ("_kafka_timestamp_hour" / "_kafka_timestamp_day"). Errors: InvalidArgument
// when the source is not a timestamptz column of `table_schema`, or it is
// absent and the schema has no `_kafka.timestamp`.
Result<iceberg::PartitionSpec> ChannelPartitionSpec(
    const iceberg::Schema& table_schema, bool daily,
    const std::optional<std::string>& partition_source);

}  // namespace st::decoding
