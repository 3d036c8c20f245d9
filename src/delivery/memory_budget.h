// One bound on what every channel worker of a server holds before it commits
// (decoded rows in column buffers plus failed records), on top of each
// worker's own --delivery-buffer-mb. Work-conserving and fair: a busy channel
// may hold more than its share while the others are idle; once the total
// reaches the bound, every worker at or above the fair share (bound / number
// of workers) commits early, and the ones below it keep filling. A commit
// frees what the worker held, so the total falls back under the bound
// without any worker waiting on another.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace st::delivery {

class DeliveryMemoryBudget {
 public:
  // `total_bytes` 0: no server-wide bound (only the per-worker ones).
  explicit DeliveryMemoryBudget(int64_t total_bytes) : total_(total_bytes) {}
  DeliveryMemoryBudget(const DeliveryMemoryBudget&) = delete;
  DeliveryMemoryBudget& operator=(const DeliveryMemoryBudget&) = delete;

  // One worker's part. Not thread-safe itself (its worker's thread uses it);
  // the budget it reports to is.
  class Share {
   public:
    explicit Share(DeliveryMemoryBudget& budget);
    ~Share();  // Gives back what was last reported.
    Share(const Share&) = delete;
    Share& operator=(const Share&) = delete;

    // What the worker holds now.
    void Report(int64_t held_bytes);
    // Whether the worker should commit now to bring the total under the bound.
    bool OverShare() const;

   private:
    DeliveryMemoryBudget& budget_;
    int64_t held_ = 0;
  };

  std::unique_ptr<Share> Join() { return std::make_unique<Share>(*this); }

  int64_t total_bytes() const { return total_; }
  // The bound divided among the workers now joined (total_bytes() if none; 0
  // when unbounded).
  int64_t FairShare() const;
  int64_t held_bytes() const { return held_.load(std::memory_order_relaxed); }

 private:
  const int64_t total_;
  std::atomic<int64_t> held_{0};
  std::atomic<int64_t> members_{0};
};

}  // namespace st::delivery
