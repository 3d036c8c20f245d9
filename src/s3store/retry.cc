#include "s3store/retry.h"

#include <algorithm>

namespace st::s3store {

std::chrono::milliseconds BackoffDelay(const RetryPolicy& policy, int attempt, Random& random) {
  int64_t cap = policy.max_delay.count();
  int64_t ceiling = policy.base_delay.count();
  for (int i = 1; i < attempt && ceiling < cap; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, cap);
  if (ceiling <= 0) return std::chrono::milliseconds(0);
  return std::chrono::milliseconds(
      static_cast<int64_t>(random.Next64() % static_cast<uint64_t>(ceiling + 1)));
}

bool IsRetryableStatus(int status) {
  return status == 500 || status == 502 || status == 503 || status == 504 || status == 429;
}

}  // namespace st::s3store
