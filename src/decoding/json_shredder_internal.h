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

// Which build of the On-Demand walk a shredder runs. simdjson 3.0.1 compiles
// On-Demand into the caller with one kernel fixed at compile time; ours is
// compiled twice (json_shredder.cc for any x86-64, json_shredder_haswell.cc
// with AVX2/BMI/PCLMUL/LZCNT in target regions only) and chosen at run time.
enum class JsonKernel { kFallback, kHaswell };

// "fallback" | "haswell".
std::string_view JsonKernelName(JsonKernel kernel);

// Whether this CPU can run `kernel` (simdjson's own CPU detection).
bool JsonKernelSupported(JsonKernel kernel);

// The kernel new shredders use, decided once per process: the best one this
// CPU supports, unless the environment variable ST_SIMD_KERNEL names one
// ("fallback" or "haswell"; anything else, or a kernel the CPU lacks, is
// ignored with one line on stderr). Forcing a kernel also makes it simdjson's
// active implementation, so stage 1 (structural indexing) and string
// unescaping, which the shared library dispatches at run time, use it too:
// ST_SIMD_KERNEL=fallback runs the JSON path as on a CPU without SIMD.
// Thread-safe.
JsonKernel ProcessJsonKernel();

// One kernel's walk (json_shredder_walk_internal.h); see JsonShredder::Shred.
class JsonShredKernel {
 public:
  virtual ~JsonShredKernel() = default;
  virtual bool Shred(std::string_view json, ColumnBuffers& out, RecordError* error) = 0;
};

class JsonShredder {
 public:
  // `plan` must outlive the shredder. `partition_slots` is the number of
  // partition fields whose sources are value columns' slots.
  JsonShredder(const ShredPlan& plan, int partition_slots);
  // Runs `kernel`, which must be supported (JsonKernelSupported): tests
  // compare the kernels on one CPU.
  JsonShredder(const ShredPlan& plan, int partition_slots, JsonKernel kernel);
  ~JsonShredder();

  // Decodes `json` as one row of the value columns into `out` (which must
  // hold no partial row). On success returns true, the row's levels and
  // values are in `out` (not yet counted: the caller adds _kafka and calls
  // AddRow) and partition_values()[slot] holds each partition source's
  // value. On failure returns false with `error` set; `out` then holds
  // garbage and must be cleared. Every kernel gives the same result.
  bool Shred(std::string_view json, ColumnBuffers& out, RecordError* error);

  const std::vector<Value>& partition_values() const { return partition_values_; }
  JsonKernel kernel() const { return kernel_; }

 private:
  std::vector<Value> partition_values_;
  JsonKernel kernel_;
  std::unique_ptr<JsonShredKernel> impl_;
};

// The kernels' factories (json_shredder.cc, json_shredder_haswell.cc).
// `partition_values` must outlive the kernel; MakeHaswellJsonKernel's kernel
// executes AVX2 code, so it is only called when JsonKernelSupported(kHaswell).
std::unique_ptr<JsonShredKernel> MakeFallbackJsonKernel(const ShredPlan& plan,
                                                        std::vector<Value>* partition_values);
std::unique_ptr<JsonShredKernel> MakeHaswellJsonKernel(const ShredPlan& plan,
                                                       std::vector<Value>* partition_values);

// Kernel-independent token checks shared by both builds (json_shredder.cc).
// JSON number grammar (RFC 8259 §6) over the whole token.
bool IsJsonNumber(std::string_view token);
// `text` without trailing JSON whitespace.
std::string_view TrimJsonWhitespaceRight(std::string_view text);

}  // namespace st::decoding
