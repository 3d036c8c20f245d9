// How Avro unions and field names line up with Iceberg columns, shared by
// the schema mapping (avro_schema_mapping.cc) and the decode plan
// (avro_decode_plan.cc) so that both read a writer schema the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "avro/schema.h"
#include "iceberg/types.h"

namespace st::decoding {

struct AvroUnionShape {
  bool nullable = false;  // A null branch exists (or the node is null).
  int null_branch = -1;   // Its index in the union, if any.
  // The non-null branches, resolved; for a non-union node, the node itself.
  std::vector<const avro::Node*> branches;
};

// `node` must be resolved (Node::Resolve()).
AvroUnionShape ShapeOf(const avro::Node& node);

// The member name of a branch in a union of several non-null types: the
// primitive type name ("int", "string", "array", "map") or the simple name of
// a record, enum or fixed.
std::string AvroBranchName(const avro::Node& branch);

// Whether the field's "aliases" attribute lists `name` (namespaces ignored).
bool AvroFieldHasAlias(const avro::Field& field, std::string_view name);

// The writer field matching table field `table_name`: by name first, then by
// the writer field's aliases; -1 when none.
int FindWriterField(const avro::Node& record, std::string_view table_name);

// Whether Avro schema resolution reads a value of the writer's mapped type
// `w` as table type `t`: equal types, int → long/float/double, long →
// float/double, float → double, string ↔ binary, decimal(P,S) →
// decimal(P',S) with P' ≥ P.
bool AvroResolves(const iceberg::Type& w, const iceberg::Type& t);

}  // namespace st::decoding
