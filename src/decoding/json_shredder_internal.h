// Decodes one JSON object (simdjson On-Demand) straight into column buffers
// following a ShredPlan's value columns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/value.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/record.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {

// Objects and arrays nested deeper than this (the top-level object is 1) are
// NESTING_TOO_DEEP (docs/msk-channel-api-notes.md §11).
inline constexpr int kMaxJsonNesting = 16;

class JsonShredder {
 public:
  // `plan` must outlive the shredder. `partition_slots` is the number of
  // partition fields whose sources are value columns' slots.
  JsonShredder(const ShredPlan& plan, int partition_slots);
  ~JsonShredder();

  // Decodes `json` as one row of the value columns into `out` (which must
  // hold no partial row). On success returns true, the row's levels and
  // values are in `out` (not yet counted: the caller adds _kafka and calls
  // AddRow) and partition_values()[slot] holds each partition source's
  // value. On failure returns false with `error` set; `out` then holds
  // garbage and must be cleared.
  bool Shred(std::string_view json, ColumnBuffers& out, RecordError* error);

  const std::vector<Value>& partition_values() const { return partition_values_; }

 private:
  class Walker;
  const ShredPlan& plan_;
  std::vector<Value> partition_values_;
  std::string padded_;
  struct ParserHolder;
  std::unique_ptr<ParserHolder> parser_;
};

}  // namespace st::decoding
