#include "delivery/prefetch_sizes.h"

#include <algorithm>

namespace st::delivery {

int64_t PrefetchBoundFor(int64_t fair_share_bytes) {
  if (fair_share_bytes <= 0) return kMaxPrefetchBytes;
  return std::min(kMaxPrefetchBytes, fair_share_bytes / 4);
}

PrefetchSizes PrefetchSizesFor(int64_t max_prefetch_bytes) {
  PrefetchSizes out;
  // librdkafka refuses more than INT_MAX / 1024; a GiB is its own old default.
  out.queue_kbytes = std::clamp<int64_t>(max_prefetch_bytes / 1024, 1024, 1 << 20);
  out.fetch_max_bytes = std::clamp<int64_t>(max_prefetch_bytes / 32, 1 << 20, 4 << 20);
  out.partition_fetch_bytes = 1 << 20;
  return out;
}

}  // namespace st::delivery
