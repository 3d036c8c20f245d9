// JSON Schema (draft-04 / draft-07, as GSR stores it with DataFormat JSON) →
// Iceberg schema, per docs/msk-channel-api-notes.md §11.
//
//   string                                   string
//   string + format date-time / date / time  timestamptz / date / time
//   string + format uuid                     uuid
//   string + format byte | contentEncoding base64   binary
//   integer with both bounds inside 32 bits  int (maximum <= 2^31-1 or
//                                            exclusiveMaximum <= 2^31, and the
//                                            same for the lower bound), else long
//   number + multipleOf                      decimal(38, fractional digits of multipleOf)
//   number                                   double
//   boolean                                  boolean
//   object with properties                   struct (properties in document order)
//   object with only an additionalProperties schema   map<string, V>
//   array with an items schema               list<E>
//   enum (no type or type string)            string
//
// A property is required when its parent's "required" array names it and its
// type does not admit null; ["T","null"], and oneOf/anyOf of T and
// {"type":"null"}, make it optional. A list element or map value is required
// unless its schema admits null. "$ref" may point into the document
// ("#/definitions/x", "#/$defs/x", any local JSON pointer) or into one of the
// schema's Confluent references ("address.json", "address.json#/$defs/x":
// the part before '#' is the reference's name, or the name resolved against
// the document's "$id", json_ref_internal.h); local $refs inside a referenced
// schema point into that schema. "description" becomes the field's doc.
//
// Field ids start at 1: all top-level fields first in document order, then
// each nested type's fields in the same breadth-per-struct order Iceberg Java
// uses for fresh ids. Top-level fields are at depth 1 and every struct, list
// or map adds one level; a field deeper than 16 levels is refused, and so
// are oneOf/anyOf nested deeper than 16 (also what a $ref cycle through a
// union becomes) and schemas that map to more than 10,000 Iceberg fields
// (what a definition that uses its own $ref several times becomes). The
// document's JSON nesting is checked first (common/json_nesting.h).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "iceberg/schema.h"

namespace st::registry {

inline constexpr int kMaxJsonSchemaNesting = 16;
// Iceberg fields (struct fields, list elements, map keys and values) one
// JSON schema may map to. A definition is at most 170,000 bytes, so only
// repeated $refs can come near it.
inline constexpr int kMaxJsonSchemaFields = 10'000;

// Errors: InvalidArgument naming the JSON pointer of the offending schema
// node (e.g. "/properties/items/items") and what to change: not JSON, the
// root not an object with properties, an unsupported or missing type, a
// union of several non-null types, a $ref naming no reference or pointing to
// nothing, a reference that is not JSON, an object
// with neither properties nor an additionalProperties schema, an array
// without one items schema, multipleOf not > 0 or with more than 38
// fractional digits, nesting deeper than kMaxJsonSchemaNesting, more than
// kMaxJsonSchemaFields fields, JSON nested deeper than kMaxJsonNesting.
// (name, schema text) of the schema's references, resolved transitively
// (registry::confluent::RegisteredSchema::references).
using JsonSchemaReferences = std::vector<std::pair<std::string, std::string>>;

Result<iceberg::Schema> JsonSchemaToIceberg(std::string_view json_schema_document,
                                            const JsonSchemaReferences& references = {});

// A Kafka key's JSON Schema (keyConverter JSON_SCHEMA_CONFLUENT). An object
// root with properties maps as above (`schema` holds the key's fields,
// `wrapped` false). Any other root the mapping table covers — a string
// (with its formats), integer, number, boolean, enum, array or
// additionalProperties map — becomes `schema` with one field named "key" of
// that type (id 1, its nested ids after it), `wrapped` true. Errors as
// JsonSchemaToIceberg's.
struct JsonKeyMapping {
  iceberg::Schema schema;
  bool wrapped = false;
};
Result<JsonKeyMapping> JsonSchemaKeyToIceberg(std::string_view json_schema_document,
                                              const JsonSchemaReferences& references = {});

}  // namespace st::registry
