// Decodes one Protobuf wire-format message straight into column buffers,
// following a compiled ProtoPlan (no message objects are built). Per message
// the bytes are scanned once into (field slot, value position) entries —
// fields may come in any order and repeat — and then each table child is
// written once: scalars last-wins, singular messages merged across their
// occurrences, repeated fields in order (packed or not), maps deduplicated
// by key (last wins), absent fields as their proto3 default or null.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/value.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/protobuf_decode_plan_internal.h"
#include "decoding/record.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {

// Messages (and unknown groups) nested deeper than this are NESTING_TOO_DEEP.
inline constexpr int kMaxProtobufNesting = 64;

class ProtobufShredder {
 public:
  // `plan` must outlive the shredder. `partition_slots` as for JsonShredder.
  ProtobufShredder(const ShredPlan& plan, int partition_slots);

  // Decodes `payload` (one message of the plan's root type) as one row of
  // the value columns into `out`. Same contract as JsonShredder::Shred.
  // Errors: MALFORMED_PROTOBUF (a truncated or overlong varint, a length past
  // the end, a wire type the field's type is not sent with, field number 0,
  // invalid UTF-8 in a string, a packed run of the wrong size; the message
  // names the byte offset and, where known, the field), NESTING_TOO_DEEP,
  // MISSING_REQUIRED_FIELD, MISSING_PARTITION_VALUE, TYPE_MISMATCH (a
  // Timestamp outside the µs range).
  bool Shred(const ProtoPlan& proto, std::string_view payload, ColumnBuffers& out,
             RecordError* error);

  // Decodes `payload` (one message of the plan's root type) into `node`, a
  // nested struct of the row being written (a typed `_kafka.key`, one level
  // down); partition values are left alone. Errors: as Shred.
  bool ShredInto(const ProtoPlan& proto, const ShredNode& node, std::string_view payload,
                 ColumnBuffers& out, RecordError* error);

  const std::vector<Value>& partition_values() const { return partition_values_; }

 private:
  class Walker;
  struct Entry {
    int32_t slot = 0;
    uint8_t wire = 0;
    uint64_t value = 0;             // Varint or fixed bits; LEN: the length.
    const uint8_t* data = nullptr;  // LEN: the bytes; else where the value starts.
  };
  // One map entry being decoded: where its key text is, its value's
  // occurrences in map_values_, whether a later entry has the same key.
  struct MapSlot {
    bool key_in_payload = false;  // Else in map_key_arena_.
    bool duplicate = false;
    size_t key_offset = 0;
    size_t key_len = 0;
    size_t value_begin = 0;
    size_t value_count = 0;
  };
  const ShredPlan& plan_;
  std::vector<Value> partition_values_;
  // Scratch reused across records (stacks: nested messages and maps push
  // above and pop back to where they started).
  std::vector<Entry> entries_;
  std::vector<MapSlot> map_slots_;
  std::vector<Entry> map_values_;
  std::string map_key_arena_;
};

}  // namespace st::decoding
