// The haswell build of the JSON walk: <simdjson.h> (whose On-Demand layer is
// compiled for SIMDJSON_BUILTIN_IMPLEMENTATION only, outside its own target
// regions) and our walk (json_shredder_walk_internal.h) compiled inside one
// target region for AVX2, BMI1, PCLMULQDQ and LZCNT, while this file, like
// every other, is compiled for baseline x86-64. Every other header is
// included before the region, so the inline functions it emits from them
// (std::, ours) are baseline code and harmless whichever translation unit's
// copy the linker keeps. What the region emits out of line must have internal
// linkage or a haswell name (simdjson::haswell::, MakeHaswellJsonKernel):
// tools/check_simd_isolation.py checks the object (ctest decoding_simd_isolation).
// Compiled -O2 in every build type and never in a unity batch (CMakeLists.txt).
// Off x86-64 there is no haswell kernel (JsonKernelSupported is false).
#if defined(__x86_64__)
#include <cpuid.h>
#include <strings.h>
#include <x86intrin.h>

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cinttypes>
#include <climits>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <ostream>
#include <ranges>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "decoding/json_shredder_internal.h"
#include "decoding/typed_values_internal.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi,pclmul,lzcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi,pclmul,lzcnt")
#endif

// Not always_inline: simdjson's always_inline functions defined in the region
// could not be called from the baseline std:: templates instantiated over
// them (std::pair<raw_json_string, value> in ondemand::field).
#define simdjson_inline inline
// ... so the walk's hot functions inline everything they call instead (not
// under a sanitizer, where flattening costs many minutes of compile time;
// -O2's own inlining then keeps simdjson's templates inside them, which ctest
// decoding_simd_isolation checks).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ST_JSON_WALK_SANITIZED
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ST_JSON_WALK_SANITIZED
#endif
#endif
#if !defined(ST_JSON_WALK_SANITIZED)
#define ST_JSON_WALK_HOT [[gnu::flatten]]
#endif
#define SIMDJSON_BUILTIN_IMPLEMENTATION haswell
#include <simdjson.h>

#include "decoding/json_shredder_walk_internal.h"

namespace st::decoding {

namespace {

ST_JSON_ONDEMAND_TYPES(HaswellOndemand, haswell);

}  // namespace

std::unique_ptr<JsonShredKernel> MakeHaswellJsonKernel(const ShredPlan& plan,
                                                       std::vector<Value>* partition_values) {
  return std::make_unique<JsonKernelImpl<HaswellOndemand>>(plan, partition_values);
}

}  // namespace st::decoding

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else  // !defined(__x86_64__)

#include "decoding/json_shredder_internal.h"

namespace st::decoding {

std::unique_ptr<JsonShredKernel> MakeHaswellJsonKernel(const ShredPlan& plan,
                                                       std::vector<Value>* partition_values) {
  return MakeFallbackJsonKernel(plan, partition_values);
}

}  // namespace st::decoding

#endif  // defined(__x86_64__)
