// Injectable time. Production code takes a Clock& so tests of retention,
// expiration and freshness can drive time by hand.
#pragma once

#include <chrono>
#include <cstdint>

#include "common/mutex.h"

namespace st {

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time (for metadata timestamps).
  virtual std::chrono::system_clock::time_point Now() const = 0;
  // Milliseconds since the Unix epoch, as Iceberg metadata spells time.
  int64_t NowMillis() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Now().time_since_epoch()).count();
  }
};

// The real wall clock. Thread-safe.
class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override {
    return std::chrono::system_clock::now();
  }
  // A process-wide instance, for composition roots.
  static SystemClock& Default();
};

// Another clock shifted by a fixed offset: the server's test-only clock
// offset (--test-only-clock-offset-hours) makes maintenance see day-long
// rules expire without waiting, through the same code production runs with
// offset zero. Thread-safe when `base` is; `base` must outlive it.
class OffsetClock final : public Clock {
 public:
  OffsetClock(const Clock& base, std::chrono::system_clock::duration offset)
      : base_(base), offset_(offset) {}
  std::chrono::system_clock::time_point Now() const override { return base_.Now() + offset_; }

 private:
  const Clock& base_;
  const std::chrono::system_clock::duration offset_;
};

// A clock that moves only when told. Thread-safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::chrono::system_clock::time_point start) : now_(start) {}
  std::chrono::system_clock::time_point Now() const override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    return now_;
  }
  void Advance(std::chrono::system_clock::duration d) EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    now_ += d;
  }
  void Set(std::chrono::system_clock::time_point t) EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    now_ = t;
  }

 private:
  mutable common::Mutex mu_;
  std::chrono::system_clock::time_point now_ GUARDED_BY(mu_);
};

}  // namespace st
