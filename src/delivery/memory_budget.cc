#include "delivery/memory_budget.h"

#include <algorithm>

namespace st::delivery {

DeliveryMemoryBudget::Share::Share(DeliveryMemoryBudget& budget) : budget_(budget) {
  budget_.members_.fetch_add(1, std::memory_order_relaxed);
}

DeliveryMemoryBudget::Share::~Share() {
  budget_.held_.fetch_sub(held_, std::memory_order_relaxed);
  budget_.members_.fetch_sub(1, std::memory_order_relaxed);
}

void DeliveryMemoryBudget::Share::Report(int64_t held_bytes) {
  held_bytes = std::max<int64_t>(held_bytes, 0);
  budget_.held_.fetch_add(held_bytes - held_, std::memory_order_relaxed);
  held_ = held_bytes;
}

bool DeliveryMemoryBudget::Share::OverShare() const {
  if (budget_.total_ <= 0 || held_ == 0) return false;
  return budget_.held_bytes() >= budget_.total_ && held_ >= budget_.FairShare();
}

int64_t DeliveryMemoryBudget::FairShare() const {
  if (total_ <= 0) return 0;
  return total_ / std::max<int64_t>(1, members_.load(std::memory_order_relaxed));
}

}  // namespace st::delivery
