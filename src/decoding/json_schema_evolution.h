// A new JSON Schema version onto an existing table (JSON_SCHEMA_CONFLUENT,
// JSON_SCHEMA_GSR), by the rules Avro versions evolve by (issue 14 item 4):
// new optional fields (at any struct level, list elements and map values
// included), int → long, float → double, decimal(P,S) → decimal(P',S) with
// P' > P, required → optional (columns, list elements, map values). The JSON
// shredder reads values by column name into the table's types, so a version
// that is narrower (int where the table has long, a required field where the
// table's is optional, fewer optional fields) decodes into the same rows and
// leaves the table as is; anything else (another type, a new required field,
// a required column the version lacks, another map key type) cannot evolve
// the table (delivery makes it SCHEMA_MISMATCH on JSON_SCHEMA_CONFLUENT,
// SCHEMA_INCOMPATIBLE on JSON_SCHEMA_GSR).
#pragma once

#include <set>

#include "common/status.h"
#include "iceberg/schema.h"

namespace st::decoding {

struct JsonSchemaEvolution {
  iceberg::Schema schema;  // The table schema, with the new fields when `changed`.
  bool changed = false;
};

// `table`: the channel's current table schema; `version`: the table schema
// the version alone would create (ChannelTableSchema of its mapping, so the
// partition source is already required). Fields match by name at every
// struct level (list elements and map values included); the top-level `_kafka`
// column is the channel's and is not compared. A matched field's type must
// be the same, a promotion of the table's (the column widens) or one the
// table's promotes (unchanged); structs, lists and maps match member by
// member under these rules. Required becomes optional where the version
// says so. New fields must be optional;
// they are added at the end of their struct (at the top level before
// `_kafka`) with fresh ids above table.HighestFieldId(), assigned as Iceberg
// does (a struct's fields first, then their nested types). The result's
// schema id is table's + 1 (as EvolveForAvro's).
// Errors: FailedPrecondition naming the field path and what differs.
Result<JsonSchemaEvolution> EvolveForJsonSchema(const iceberg::Schema& table,
                                                const iceberg::Schema& version);

// The same rules for a typed JSON key (keyConverter JSON_SCHEMA_CONFLUENT):
// `key_version` is the mapping of the key's JSON Schema
// (registry::JsonSchemaKeyToIceberg): an object's fields, or, `wrapped`, one
// field "key" holding a string, number, array, map, ... The table has no
// `_kafka.key` until the first keyed record: it is added as an optional
// struct of the version's fields, or as the wrapped type (fresh ids); later
// versions merge into it as above (paths "_kafka.key.<field>", or
// "_kafka.key" for a wrapped type, which promotes int→long, float→double and
// widens decimals). A wrapped version against a struct key, or an object
// against a wrapped one, is a type change. Errors: FailedPrecondition naming
// the field; InvalidArgument when the table has no `_kafka` struct.
Result<JsonSchemaEvolution> EvolveKeyForJsonSchema(const iceberg::Schema& table,
                                                   const iceberg::Schema& key_version,
                                                   bool wrapped = false);

}  // namespace st::decoding
