// Avro schema resolution compiled once per (writer schema, table schema):
// a tree of steps that says, for every value of the writer schema, which
// table node it lands in and how it is converted, so the decoder walks the
// bytes without comparing names or types again.
//
// Steps refer to table nodes by child index (not by pointer), so a plan
// depends only on the two schemas. Writer nodes are referenced by pointer:
// the avro::Schema must outlive the plan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "avro/schema.h"
#include "common/status.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {

enum class AvroOp : uint8_t {
  kSkip,         // A writer value the table has no column for: read and drop.
  kNull,         // The null type (or union branch): the target is null.
  kMismatch,     // A union branch the target cannot hold: the record is TYPE_MISMATCH.
  kRecord,       // Record → struct.
  kArray,        // Array → list.
  kMap,          // Map → map<string, V>.
  kUnion,        // Union onto one target: each branch resolves onto it.
  kUnionStruct,  // Union of several non-null types → struct, one member per branch.
  kBool,
  kIntToInt,  // int (and date) → int32 column.
  kIntToLong,
  kIntToFloat,
  kIntToDouble,
  kTimeMillis,  // int time-millis → time µs.
  kLong,        // long (time-micros, timestamp(tz)-micros too) → int64 column.
  kLongToFloat,
  kLongToDouble,
  kMillisToMicros,  // long timestamp-millis → timestamp(tz) µs.
  kFloat,
  kFloatToDouble,
  kDouble,
  kString,         // string → string (UTF-8 checked).
  kBytesToString,  // bytes → string (UTF-8 checked).
  kBytes,          // bytes or string → binary.
  kStringUuid,     // string uuid (canonical text) → uuid.
  kFixed,          // fixed → fixed / uuid (same size).
  kDecimalBytes,   // bytes decimal → decimal column.
  kDecimalFixed,   // fixed decimal → decimal column.
  kEnum,           // enum → string (the symbol).
};

struct AvroStep {
  AvroOp op = AvroOp::kSkip;
  // kRecord children: the index of the target struct's child this writer
  // field fills (unused for kSkip). kUnionStruct children: the member index.
  int target = -1;
  const avro::Node* writer = nullptr;  // Resolved writer node.
  // kRecord: one per writer field, in writer order; kArray {items};
  // kMap {values}; kUnion / kUnionStruct: one per branch.
  std::vector<AvroStep> children;
  // kRecord: target children no writer field supplies (written as null).
  std::vector<int> missing;
  std::string mismatch;  // kMismatch: why.
};

// Compiles the resolution of `writer` (a record) onto the plan's value
// columns (ShredPlan::root). Errors: FailedPrecondition "schema
// incompatible: ..." naming the field path and both types (a required table
// field the writer lacks, a type Avro resolution cannot convert, a union none
// of whose branches fits) — records of that writer schema are then
// SCHEMA_INCOMPATIBLE.
Result<AvroStep> CompileAvroPlan(const avro::Schema& writer, const ShredPlan& plan);

// Compiles the resolution of `writer` (any Avro schema) onto one nested
// table node, `target` (a typed `_kafka.key`: a record key onto a struct, a
// primitive onto its column). Errors: as CompileAvroPlan.
Result<AvroStep> CompileAvroPlanOnto(const avro::Schema& writer, const ShredNode& target);

}  // namespace st::decoding
