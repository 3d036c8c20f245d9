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
#include <string>
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

// The Glue Schema Registry Protobuf framing (PROTOBUF_GSR): the GSR header
// (0x03, compression 0x00 or 0x05 = zlib, the 16-byte schema version UUID),
// then the payload (inflated when zlib): the message index as an unsigned
// varint (uint32), then the message. False with `error` set
// (MISSING_GSR_HEADER; TRUNCATED_PAYLOAD when the payload ends inside the
// index; MALFORMED_PROTOBUF for an index over 5 bytes or above 2^32 - 1, or
// a corrupt zlib stream). Only the index's bytes are inflated.
struct GsrProtobufHeader {
  std::string schema_version_id;  // Lower-case UUID text.
  uint32_t message_index = 0;
};
bool ReadGsrProtobufHeader(std::string_view value, GsrProtobufHeader* header, RecordError* error);

// The message a GSR message index names, as the Confluent-style path the
// functions below take (top-level index, then nested-type indexes). AWS's
// serializer numbers every message type of the file — top-level ones and
// all nested ones, the synthetic map-entry types (`XxxEntry`) included, as
// Java's Descriptor.getNestedTypes() lists them — in the order of their
// full (package-qualified) names, byte for byte (Java compares UTF-16 code
// units; Protobuf names are ASCII, so the orders agree). E.g. `message B {
// message C {} message A { message D {} } }`: B = 0, B.A = 1, B.A.D = 2,
// B.C = 3. Errors: InvalidArgument when the schema does not parse; NotFound
// when the index is not below the number of message types.
Result<std::vector<int32_t>> GsrProtobufMessagePath(const WriterSchema& writer,
                                                    uint32_t message_index);

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
