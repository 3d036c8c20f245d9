#include "delivery/prefetch_sizes.h"

#include <algorithm>

namespace st::delivery {

PrefetchSizes PrefetchSizesFor(int64_t max_prefetch_bytes) {
  PrefetchSizes out;
  // librdkafka refuses more than INT_MAX / 1024; a GiB is its own old default.
  out.queue_kbytes = std::clamp<int64_t>(max_prefetch_bytes / 1024, 1024, 1 << 20);
  out.partition_fetch_bytes = 4 << 20;
  out.fetch_max_bytes = std::max<int64_t>(8 << 20, out.queue_kbytes * 1024);
  return out;
}

}  // namespace st::delivery
