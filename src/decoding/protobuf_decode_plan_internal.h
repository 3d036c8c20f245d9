// A Protobuf message type resolved onto table columns, compiled once per
// (writer schema + message indexes, table schema): for each writer field
// number, which table node it fills and how, so the decoder looks fields up
// by number and never compares names or types while it walks the bytes.
// Table nodes are referenced by child index; writer fields by pointer into
// the ProtoSchema, which must outlive the plan.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "decoding/protobuf_descriptor_internal.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {

struct ProtoMessagePlan;

struct ProtoFieldPlan {
  const ProtoField* field = nullptr;
  int target = -1;  // The table struct's child; -1: read and dropped.
  // kMessage fields, repeated messages and map entries with message values.
  const ProtoMessagePlan* message = nullptr;
};

struct ProtoMessagePlan {
  // Sorted by field number (slot = index).
  std::vector<ProtoFieldPlan> fields;
  // Dense slot lookup for field numbers below its size (-1: not a field).
  std::vector<int16_t> slot_by_number;
  // Table children no writer field supplies (written as null).
  std::vector<int> missing;

  // The slot of `number`, or -1.
  int Slot(uint64_t number) const;
};

struct ProtoPlan {
  std::unique_ptr<ProtoSchema> schema;
  std::vector<std::unique_ptr<ProtoMessagePlan>> messages;  // [0] is the root.
  const ProtoMessagePlan& root() const { return *messages[0]; }
};

// Compiles `schema`'s root message onto the plan's value columns. Errors:
// FailedPrecondition "schema incompatible: ..." naming the field and both
// types (a table field the writer cannot fill, a required table field the
// writer lacks) — records of that version are then SCHEMA_INCOMPATIBLE.
Result<ProtoPlan> CompileProtoPlan(std::unique_ptr<ProtoSchema> schema, const ShredPlan& plan);

// Compiles `schema`'s root message onto one nested struct node, `target` (a
// typed `_kafka.key`). Errors: as CompileProtoPlan; FailedPrecondition when
// `target` is not a struct.
Result<ProtoPlan> CompileProtoPlanOnto(std::unique_ptr<ProtoSchema> schema,
                                       const ShredNode& target);

}  // namespace st::decoding
