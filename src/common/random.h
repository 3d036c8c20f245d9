// Injectable randomness: ids (UUIDs, snapshot ids) come from a Random so that
// tests can make them deterministic.
#pragma once

#include <cstdint>
#include <mutex>
#include <random>

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
  uint64_t Next64() override {
    std::lock_guard<std::mutex> lock(mu_);
    return engine_();
  }
  // A process-wide instance, for composition roots.
  static DefaultRandom& Default();

 private:
  std::mutex mu_;
  std::mt19937_64 engine_;
};

}  // namespace st
