// Protobuf compatibility for the Confluent registry: can a reader that
// parses with schema R read every record written with schema W? BACKWARD =
// R is the new schema, FORWARD = R is the old one (the registry composes the
// levels; server/ adapts this to registry::confluent::SchemaCompatibilityChecker,
// since the registry sits below decoding and must not include it).
//
// Both files are parsed once each, as for decoding (protobuf_descriptor.cc,
// references and well-known types resolved), and compared by message name
// (relative to the package) and field number, since numbers are what the
// wire carries. Checked, each message naming Confluent's rule:
//  - PACKAGE_CHANGED: the files' packages differ.
//  - MESSAGE_REMOVED: a top-level message of W's file is missing from R
//    (records name it by its message index). A nested or imported message
//    that disappears is reported where a field of a common message used it.
//  - For each field number of a message both have:
//    FIELD_KIND_CHANGED (scalar vs enum vs message, or singular vs repeated
//    vs map); FIELD_SCALAR_KIND_CHANGED between wire-incompatible scalars
//    (compatible groups: int32/uint32/int64/uint64/bool; sint32/sint64;
//    fixed32/sfixed32; fixed64/sfixed64; string/bytes; float and double
//    alone); FIELD_NAMED_TYPE_CHANGED for a message or enum of another name
//    (map fields compare their entry messages, so key and value types);
//    FIELD_MOVED_TO_EXISTING_ONEOF (a field outside any oneof in W is in R's
//    oneof that W already had); MULTIPLE_FIELDS_MOVED_TO_ONEOF (two or more
//    of W's fields outside oneofs in one new oneof of R).
//  - REQUIRED_FIELD_ADDED (R requires a proto2 field W lacks or does not
//    require) and REQUIRED_FIELD_REMOVED (W's required field is gone from R).
// Compatible (not reported): adding or removing optional/repeated/map fields,
// renaming fields, adding messages, adding or removing enum values, moving
// a single field into a new oneof. Not checked: field options, enum value
// numbers, json_name, reserved ranges, services, syntax changes.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "decoding/writer_schema.h"

namespace st::decoding {

// Why `reader` cannot read what `writer` writes: empty when it can; at most
// 16 messages, each "<RULE> at <message>.<field> (<number>): why". Errors:
// InvalidArgument when either schema does not parse (with its references)
// or nests message declarations deeper than 64 levels.
Result<std::vector<std::string>> ProtobufReadIncompatibilities(const WriterSchema& reader,
                                                               const WriterSchema& writer);

// OK when `schema` parses with its references (as the checks above need).
Status ValidateProtobufSchema(const WriterSchema& schema);

}  // namespace st::decoding
