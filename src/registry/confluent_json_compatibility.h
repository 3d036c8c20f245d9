// JSON Schema compatibility for the Confluent registry: can a reader that
// validates with schema R accept every document valid under the writer's
// schema W (W ⊆ R)? BACKWARD = R is the new schema, FORWARD = R is the old
// one (the registry composes the levels, confluent_registry.h).
//
// A sound subset: "compatible" is only answered when the keywords below
// prove W ⊆ R; a validation keyword we do not model makes the answer
// "incompatible" unless the reader's value equals the writer's. Checked
// (each message starts with Confluent's name for the rule):
//  - type (string or array; absent = any): every type the writer may write
//    must be accepted by the reader; integer is read as number (widening),
//    not the other way (TYPE_CHANGED / TYPE_NARROWED). An enum/const without
//    a type writes the JSON types of its values.
//  - enum and const: a reader enum/const must hold every value the writer's
//    enum/const allows, and a writer without one is refused by a reader
//    with one (ENUM_ARRAY_NARROWED). Widening an enum is compatible.
//  - numbers: minimum/maximum with exclusiveMinimum/exclusiveMaximum (draft 4
//    booleans and draft 6+ numbers), multipleOf: the reader's bounds no
//    tighter than the writer's (MINIMUM_INCREASED, MAXIMUM_DECREASED,
//    MULTIPLE_OF_CHANGED: the writer's must be a multiple of the reader's).
//  - strings: maxLength/minLength (MAX_LENGTH_DECREASED, MIN_LENGTH_INCREASED),
//    pattern and format (a reader's must equal the writer's: PATTERN_CHANGED,
//    FORMAT_CHANGED; regular expressions are not compared for inclusion).
//  - arrays: items as one schema (recursively), maxItems/minItems
//    (MAX_ITEMS_DECREASED, MIN_ITEMS_INCREASED), uniqueItems
//    (UNIQUE_ITEMS_ADDED); tuple `items` arrays must be equal.
//  - objects: properties recursively; a property only the writer declares
//    is refused by a closed reader (additionalProperties false:
//    PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL) or checked against the
//    reader's additionalProperties schema; a property only the reader
//    declares must accept whatever the writer's content model allows there
//    (open writer: anything, PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL; closed:
//    nothing to check; additionalProperties schema: checked against it);
//    additionalProperties itself (closed reader, open writer:
//    ADDITIONAL_PROPERTIES_NARROWED); `required` names the writer does not
//    require (REQUIRED_ATTRIBUTE_ADDED); maxProperties/minProperties.
//  - anyOf/oneOf: each writer branch must be accepted by the reader (or the
//    writer's schema without them is); a reader anyOf/oneOf needs one branch
//    accepting the writer's schema (oneOf's exclusivity is not checked, as
//    in Confluent's registry). allOf: the reader's parts are each checked;
//    a writer allOf is accepted when its schema without allOf, or one part,
//    is.
//  - $ref: "#", "#/json/pointer" within the document, and "<reference
//    name>[#pointer]" into a schema reference; keywords beside a $ref are
//    ignored (draft 7). Recursive references end: a (reader, writer) pair
//    of schema nodes is compared once.
// Not modelled, compared for equality only (a reader value that differs
// from the writer's is reported): not, if/then/else, patternProperties
// (either side), dependencies, dependentRequired, dependentSchemas,
// propertyNames, contains, minContains, maxContains, additionalItems,
// prefixItems, unevaluatedProperties, unevaluatedItems. Annotations (title,
// description, default, examples, readOnly, ...) and unknown keywords are
// ignored. Bounds (hostile schemas): the text nests at most kMaxJsonNesting
// levels (common/json_nesting.h), comparison recurses at most 64 schema
// levels and visits at most 100000 (reader, writer) node pairs; beyond them
// the answer is "incompatible" with a message saying so.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "registry/confluent_registry.h"

namespace st::registry::confluent {

// Why `reader` cannot accept every document valid under `writer` (each
// message "at <JSON pointer>: <RULE>, <why>"); empty when it can. At most 16
// messages. Errors: InvalidArgument when a schema or one of its references
// is not a JSON Schema document (not JSON, nested too deeply, not an object
// or boolean).
Result<std::vector<std::string>> JsonSchemaReadIncompatibilities(const RegisteredSchema& reader,
                                                                 const RegisteredSchema& writer);

// OK when `schema` and its references parse as JSON Schema documents.
Status ValidateJsonSchemaDocument(const RegisteredSchema& schema);

// The registry's checker for schema type JSON (stateless).
std::shared_ptr<const SchemaCompatibilityChecker> MakeJsonSchemaCompatibilityChecker();

}  // namespace st::registry::confluent
