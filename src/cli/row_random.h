// The deterministic pseudo-random source behind the generated test tables.
//
// SplitMix64 rather than <random> distributions: the standard leaves the
// distributions' algorithms to the library, and `dev write-table --seed S`
// must produce the same rows wherever it is built. Not thread-safe.
#pragma once

#include <cstdint>

namespace st::cli {

class RowRandom {
 public:
  explicit RowRandom(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi]; precondition lo <= hi.
  int64_t Uniform(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    if (span == 0) return static_cast<int64_t>(Next());  // The full 64-bit range.
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + Next() % span);
  }
  // Uniform in [0, 1).
  double UnitDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // True with probability 1/n.
  bool OneIn(int n) { return Uniform(0, n - 1) == 0; }

 private:
  uint64_t state_;
};

}  // namespace st::cli
