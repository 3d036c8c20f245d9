// A new JSON Schema version onto an existing table (JSON_SCHEMA_CONFLUENT,
// JSON_SCHEMA_GSR): the one change the JSON path evolves a table for is new
// optional fields. The JSON shredder reads values by column name, so a
// version whose columns are the table's, or the table's minus optional ones,
// or the table's plus optional ones, decodes into the same rows; anything
// else (a type or requiredness change, a new required field, a required
// column the version lacks) cannot evolve the table (delivery makes it
// SCHEMA_MISMATCH on JSON_SCHEMA_CONFLUENT, SCHEMA_INCOMPATIBLE on
// JSON_SCHEMA_GSR).
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
// column is the channel's and is not compared. A matched field must have the
// same requiredness and type (primitives equal; structs, lists and maps
// matched member by member under these rules). New fields must be optional;
// they are added at the end of their struct (at the top level before
// `_kafka`) with fresh ids above table.HighestFieldId(), assigned as Iceberg
// does (a struct's fields first, then their nested types). The result's
// schema id is table's + 1 (as EvolveForAvro's).
// Errors: FailedPrecondition naming the field path and what differs.
Result<JsonSchemaEvolution> EvolveForJsonSchema(const iceberg::Schema& table,
                                                const iceberg::Schema& version);

}  // namespace st::decoding
