// Avro writer schemas → Iceberg: the table schema a channel creates from an
// Avro record schema, and the evolution of an existing table schema when a
// new writer schema version arrives (issue 14 items 3 and 4).
//
//   boolean / int / long / float / double / string / bytes   same-named type
//   int + date                       date
//   int + time-millis                time (µs; values × 1000)
//   long + time-micros               time
//   long + timestamp-millis/-micros  timestamptz, or timestamp when the node
//                                    carries "adjust-to-utc": false (Iceberg's
//                                    own Avro convention); values in µs
//   long + local-timestamp-millis/-micros   timestamp
//   string + uuid, fixed(16) + uuid  uuid
//   bytes / fixed + decimal(P,S)     decimal(P,S) (P ≤ 38)
//   fixed(n)                         fixed[n]
//   enum                             string (the symbol)
//   record                           struct (fields in order, doc kept)
//   array                            list (element optional iff items admit null)
//   map                              map<string, V> (value optional iff V admits null)
//   ["null", T] / [T, "null"] / [T]  T, optional when null is a branch
//   [A, B, ...] (several non-null)   struct with one optional member per branch,
//                                    named by the branch: its primitive type
//                                    name ("int", "string", ...) or the simple
//                                    name of a named type; exactly one member is
//                                    set per value (null → the struct is null)
// A record field is required unless its type admits null. Refused (with the
// field path): a top level that is not a record, the null type outside a
// union, recursive records, timestamp-nanos and other logical types Iceberg v2
// cannot hold are mapped by their underlying type, except those named here.
//
// Fresh ids are assigned as Iceberg Java does for a new table: the fields of
// each struct first, in order, then the nested types of each field.
#pragma once

#include <cstdint>
#include <set>

#include "avro/schema.h"
#include "common/status.h"
#include "decoding/writer_schema.h"
#include "iceberg/schema.h"

namespace st::decoding {

// The Avro schema of a registry writer schema, the named types of its
// Confluent references (WriterSchema::references, dependencies first)
// included. Errors: avro::Schema::Parse's.
Result<avro::Schema> ParseAvroWriterSchema(const WriterSchema& schema);

// Schema id 0, ids from 1. Errors: InvalidArgument naming the field path.
Result<iceberg::Schema> AvroToIcebergSchema(const avro::Schema& writer);

struct AvroEvolution {
  // The table schema itself when `changed` is false; otherwise the evolved
  // schema with id table.schema_id() + 1 (the caller's commit may renumber it).
  iceberg::Schema schema;
  bool changed = false;
};

// Evolves `table` so that records of `writer` can be written into it. Writer
// fields match table fields by name, or by one of the writer field's Avro
// "aliases" (a renamed field keeps its table column). Compatible changes:
// new fields (added optional, fresh ids above table.HighestFieldId()), new
// struct members at any depth (in list elements and map values too), int →
// long, float → double, decimal(P,S) → decimal(P',S) with P' > P, a required
// field whose writer type admits null becomes optional. Writer types that
// Avro resolution reads into the table's type (int → long/float/double, long →
// float/double, float → double, string ↔ bytes) leave the table unchanged.
// Table fields the writer lacks stay (their values are null) unless required.
// Top-level `_kafka` (channel metadata) is kept as is.
//
// `partition_source_ids`: table columns a partition field is sourced from;
// they keep their type and requiredness (any change is incompatible, a
// writer that admits null leaves them required: null values are then
// MISSING_PARTITION_VALUE records).
//
// Errors: FailedPrecondition "schema incompatible: ..." naming the field path
// and both types (table type, writer type) — the records of that writer
// version go to the DLQ with SCHEMA_INCOMPATIBLE; InvalidArgument when the
// writer schema cannot be mapped at all (see AvroToIcebergSchema).
Result<AvroEvolution> EvolveForAvro(const iceberg::Schema& table, const avro::Schema& writer,
                                    const std::set<int32_t>& partition_source_ids = {});

// Evolves the `_kafka.key` member of `table` (keyConverter AVRO_CONFLUENT) so
// that keys of `key_writer` can be written into it: any Avro schema (a record
// → struct, a primitive → its type, a union as above) maps by the same rules
// as a value field. The table has no `key` member until the first keyed
// record: it is added (optional, fresh ids); later versions evolve it like a
// nested field (new struct members, promotions, ...). `key` stays optional.
// Errors: FailedPrecondition "schema incompatible: field _kafka.key..." as
// EvolveForAvro; InvalidArgument when the key schema cannot be mapped or the
// table has no `_kafka` struct.
Result<AvroEvolution> EvolveKeyForAvro(const iceberg::Schema& table,
                                       const avro::Schema& key_writer);

// The Iceberg type of a non-union, non-record Avro node (after Resolve()):
// the primitive rows of the table above. Errors: InvalidArgument for null,
// timestamp-nanos and nested kinds (record, array, map, union).
Result<iceberg::TypePtr> AvroPrimitiveToIceberg(const avro::Node& node);

}  // namespace st::decoding
