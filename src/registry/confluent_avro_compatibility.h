// Avro schema-resolution compatibility (the Avro specification's "Schema
// Resolution"): can a reader with schema R decode data written with schema W?
// Confluent's levels are built from it: BACKWARD = the new schema reads the
// old one's data, FORWARD = the old reads the new, FULL = both.
//
// Checked: matching named types by full name (or the reader's aliases, or
// the unqualified name), record fields by name or reader alias, a reader
// field missing from the writer needs a default, enum symbols the writer may
// produce (unless the reader has a default symbol), fixed sizes, array items,
// map values, unions (every writer branch must be readable), and the
// promotions int->long/float/double, long->float/double, float->double,
// string<->bytes. Logical types are not compared (resolution works on the
// underlying types). Recursive named types are handled: a pair of types
// already under comparison is assumed compatible, and each pair is decided
// once, so the work is bounded by |W| x |R| nodes.
#pragma once

#include <string>
#include <vector>

#include "avro/schema.h"

namespace st::registry::confluent {

// Why `reader` cannot read `writer`'s data; empty when it can. At most a
// handful of messages, each naming the path of the first difference.
std::vector<std::string> AvroReadIncompatibilities(const avro::Schema& reader,
                                                   const avro::Schema& writer);

// The messages for checking `candidate` (the schema being registered) against
// `existing` at a Confluent level without _TRANSITIVE (BACKWARD, FORWARD,
// FULL, NONE); empty when compatible.
std::vector<std::string> AvroLevelIncompatibilities(const std::string& level,
                                                    const avro::Schema& candidate,
                                                    const avro::Schema& existing);

}  // namespace st::registry::confluent
