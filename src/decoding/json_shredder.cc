// The shredder, its kernel choice and the baseline (fallback) build of the
// walk, which runs on any x86-64 CPU. Not part of a unity batch: it sets
// simdjson's builtin kernel before including <simdjson.h>.
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "decoding/json_shredder_internal.h"
#include "decoding/typed_values_internal.h"

#define SIMDJSON_BUILTIN_IMPLEMENTATION fallback
#include <simdjson.h>

#include "decoding/json_shredder_walk_internal.h"

namespace st::decoding {

namespace {

ST_JSON_ONDEMAND_TYPES(FallbackOndemand, fallback);

const simdjson::implementation* SimdjsonImplementation(JsonKernel kernel) {
  return simdjson::get_available_implementations()[std::string(JsonKernelName(kernel))];
}

JsonKernel ChooseProcessJsonKernel() {
  const char* forced = getenv("ST_SIMD_KERNEL");
  if (forced != nullptr && *forced != '\0') {
    for (JsonKernel k : {JsonKernel::kFallback, JsonKernel::kHaswell}) {
      if (JsonKernelName(k) != forced) continue;
      if (!JsonKernelSupported(k)) break;
      simdjson::get_active_implementation() = SimdjsonImplementation(k);
      return k;
    }
    std::fprintf(stderr,
                 "ST_SIMD_KERNEL=%s ignored: not \"fallback\" or a kernel this CPU supports "
                 "(\"haswell\" needs AVX2, BMI1, PCLMULQDQ and LZCNT)\n",
                 forced);
  }
  // simdjson's active implementation (its own SIMDJSON_FORCE_IMPLEMENTATION
  // included): icelake CPUs run the haswell build.
  const std::string active = simdjson::get_active_implementation()->name();
  if ((active == "haswell" || active == "icelake") && JsonKernelSupported(JsonKernel::kHaswell)) {
    return JsonKernel::kHaswell;
  }
  return JsonKernel::kFallback;
}

}  // namespace

std::string_view JsonKernelName(JsonKernel kernel) {
  return kernel == JsonKernel::kHaswell ? "haswell" : "fallback";
}

bool JsonKernelSupported(JsonKernel kernel) {
  const simdjson::implementation* impl = SimdjsonImplementation(kernel);
  return impl != nullptr && impl->supported_by_runtime_system();
}

JsonKernel ProcessJsonKernel() {
  static const JsonKernel kKernel = ChooseProcessJsonKernel();
  return kKernel;
}

std::string_view TrimJsonWhitespaceRight(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool IsJsonNumber(std::string_view token) {
  size_t i = 0;
  auto digits = [&]() {
    const size_t start = i;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i;
    return i > start;
  };
  if (i < token.size() && token[i] == '-') ++i;
  if (i < token.size() && token[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < token.size() && token[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == token.size();
}

std::unique_ptr<JsonShredKernel> MakeFallbackJsonKernel(const ShredPlan& plan,
                                                        std::vector<Value>* partition_values) {
  return std::make_unique<JsonKernelImpl<FallbackOndemand>>(plan, partition_values);
}

JsonShredder::JsonShredder(const ShredPlan& plan, int partition_slots)
    : JsonShredder(plan, partition_slots, ProcessJsonKernel()) {}

JsonShredder::JsonShredder(const ShredPlan& plan, int partition_slots, JsonKernel kernel)
    : partition_values_(partition_slots),
      kernel_(kernel),
      impl_(kernel == JsonKernel::kHaswell ? MakeHaswellJsonKernel(plan, &partition_values_)
                                           : MakeFallbackJsonKernel(plan, &partition_values_)) {}

JsonShredder::~JsonShredder() = default;

bool JsonShredder::Shred(std::string_view json, ColumnBuffers& out, RecordError* error) {
  std::fill(partition_values_.begin(), partition_values_.end(), Value());
  return impl_->Shred(json, out, error);
}

}  // namespace st::decoding
