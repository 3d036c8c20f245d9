// Retry with capped exponential backoff and full jitter ("sleep a random
// time in [0, min(cap, base * 2^attempt)]"), so replicas that fail together
// do not retry in lockstep. Time and randomness are injected.
#pragma once

#include <chrono>
#include <functional>

#include "common/random.h"

namespace st::s3store {

struct RetryPolicy {
  int max_attempts = 5;  // Including the first.
  std::chrono::milliseconds base_delay{50};
  std::chrono::milliseconds max_delay{2000};
};

// The delay before attempt `attempt + 1`, after `attempt` (>= 1) failed ones.
std::chrono::milliseconds BackoffDelay(const RetryPolicy& policy, int attempt, Random& random);

// How the store waits between attempts (std::this_thread::sleep_for in
// production; a recorder in tests).
using Sleeper = std::function<void(std::chrono::milliseconds)>;

// HTTP statuses worth another attempt: 500, 502, 503 (SlowDown included),
// 504 and 429.
bool IsRetryableStatus(int status);

}  // namespace st::s3store
