// Decodes one Avro binary value straight into column buffers, following a
// compiled AvroStep plan (writer schema resolved onto the table's columns).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/value.h"
#include "decoding/avro_decode_plan_internal.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/record.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {

// Records, arrays and maps nested deeper than this (the top-level record is
// 1) are NESTING_TOO_DEEP: recursive writer schemas nest as deep as their
// data, and the decoder recurses once per level.
inline constexpr int kMaxAvroNesting = 64;
// Items that take no input bytes (arrays of null, empty records) one record
// may hold; each still costs a level in the column buffers.
inline constexpr int64_t kMaxAvroZeroWidthItems = int64_t{1} << 20;

class AvroShredder {
 public:
  // `plan` must outlive the shredder. `partition_slots` as for JsonShredder.
  AvroShredder(const ShredPlan& plan, int partition_slots);

  // Decodes `payload` (exactly one value of the step's writer record) as
  // one row of the value columns into `out`. Same contract as
  // JsonShredder::Shred. Errors: TRUNCATED_PAYLOAD, MALFORMED_AVRO,
  // NESTING_TOO_DEEP, MISSING_REQUIRED_FIELD, MISSING_PARTITION_VALUE,
  // TYPE_MISMATCH (a union branch the table cannot hold, a decimal beyond the
  // table's precision, a timestamp-millis beyond the µs range).
  bool Shred(const AvroStep& root, std::string_view payload, ColumnBuffers& out,
             RecordError* error);

  // Decodes `payload` (exactly one value of `step`'s writer schema) into
  // `node`, one nested member of the row being written (a typed
  // `_kafka.key`, one level down); partition values are left alone. Errors:
  // as Shred.
  bool ShredInto(const AvroStep& step, const ShredNode& node, std::string_view payload,
                 ColumnBuffers& out, RecordError* error);

  const std::vector<Value>& partition_values() const { return partition_values_; }

 private:
  class Walker;
  const ShredPlan& plan_;
  std::vector<Value> partition_values_;
};

}  // namespace st::decoding
