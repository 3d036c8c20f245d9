// Injectable randomness: ids (UUIDs, snapshot ids) come from a Random so that
// tests can make them deterministic.
#pragma once

#include <cstdint>
#include <random>

#include "common/mutex.h"

namespace st {

class Random {
 public:
  virtual ~Random() = default;
  virtual uint64_t Next64() = 0;
};

// Seeded from std::random_device unless a seed is given. Thread-safe.
class DefaultRandom final : public Random {
 public:
  DefaultRandom();
  explicit DefaultRandom(uint64_t seed) : engine_(seed) {}
  uint64_t Next64() override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    return engine_();
  }
  // A process-wide instance, for composition roots.
  static DefaultRandom& Default();

 private:
  common::Mutex mu_;
  std::mt19937_64 engine_ GUARDED_BY(mu_);
};

}  // namespace st
