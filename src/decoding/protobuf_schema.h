// Protobuf writer schemas (Confluent framing) → Iceberg: the table schema a
// PROTOBUF_CONFLUENT channel creates from its first record's message type,
// and the evolution of that table when a new writer version arrives
// (issue 14 items 3 and 4). The message type is mapped onto an Avro record
// schema and then through AvroToIcebergSchema / EvolveForAvro, so Avro and
// Protobuf channels share one set of mapping and evolution rules:
//
//   int32, sint32, sfixed32                int
//   uint32, fixed32                        long (does not fit int)
//   int64, sint64, sfixed64                long
//   uint64, fixed64                        long; values ≥ 2^63 wrap to
//                                          negative (two's complement), no DLQ
//   float / double / bool / string         same-named type
//   bytes                                  binary
//   enum                                   string: the value's name; a number
//                                          the enum lacks → its decimal text
//   message                                optional struct (fields by name)
//   repeated T                             list<T> (required elements)
//   map<K, V>                              map<string, V>: integer and bool
//                                          keys as their decimal/true/false text
//   oneof members, proto3 `optional`,      optional fields (absent → null)
//   proto2 optional/required
//   proto3 scalars without presence        required; absent → the default
//                                          (0, "", false, the enum's 0 name)
//   google.protobuf.Timestamp              timestamptz (µs; nanos truncated)
//   google.protobuf.*Value wrappers        optional primitive, mapped as above
// Recursive messages and proto2 groups are refused (they cannot be columns).
#pragma once

#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "decoding/avro_schema_mapping.h"
#include "decoding/record.h"
#include "decoding/writer_schema.h"
#include "iceberg/schema.h"

namespace st::decoding {

// The Confluent Protobuf header of a record value: magic 0, 4-byte id, the
// message indexes ([0] when the list is empty). False with `error` set
// (WRONG_MAGIC_BYTE, TRUNCATED_PAYLOAD, MALFORMED_PROTOBUF) when it is not
// well formed; `header_bytes` is where the payload starts.
struct ConfluentProtobufHeader {
  int32_t schema_id = 0;
  std::vector<int32_t> message_indexes;
  size_t header_bytes = 0;
};
bool ReadConfluentProtobufHeader(std::string_view value, ConfluentProtobufHeader* header,
                                 RecordError* error);

// Schema id 0, ids from 1. Errors: InvalidArgument when the schema does not
// parse or cannot be mapped (naming the field); NotFound when the message
// indexes name no message.
Result<iceberg::Schema> ProtobufToIcebergSchema(const WriterSchema& writer,
                                                const std::vector<int32_t>& message_indexes);

// As EvolveForAvro, for the message type the indexes select (fields match
// by name). Errors: as EvolveForAvro (FailedPrecondition = SCHEMA_INCOMPATIBLE)
// and ProtobufToIcebergSchema.
Result<AvroEvolution> EvolveForProtobuf(const iceberg::Schema& table, const WriterSchema& writer,
                                        const std::vector<int32_t>& message_indexes,
                                        const std::set<int32_t>& partition_source_ids = {});

// As EvolveKeyForAvro, for a Protobuf key: the message type the indexes
// select becomes (or evolves) the struct `_kafka.key`. Errors: as
// EvolveKeyForAvro and ProtobufToIcebergSchema.
Result<AvroEvolution> EvolveKeyForProtobuf(const iceberg::Schema& table, const WriterSchema& writer,
                                           const std::vector<int32_t>& message_indexes);

}  // namespace st::decoding
