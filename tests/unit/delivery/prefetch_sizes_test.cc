#include "delivery/prefetch_sizes.h"

#include <gtest/gtest.h>

namespace st::delivery {
namespace {

TEST(PrefetchSizesTest, TheDefaultChannelQueuesAQuarterOfItsBuffer) {
  // --delivery-buffer-mb 48: the worker gives its consumer a quarter, 12 MiB.
  PrefetchSizes s = PrefetchSizesFor(12 << 20);
  EXPECT_EQ(s.queue_kbytes, 12 * 1024);
  EXPECT_EQ(s.fetch_max_bytes, 12 << 20);
  EXPECT_EQ(s.partition_fetch_bytes, 4 << 20);
}

TEST(PrefetchSizesTest, TinyOrNonsensicalBoundsStillMakeAWorkingConsumer) {
  for (int64_t bound : {int64_t{0}, int64_t{-5}, int64_t{1000}}) {
    PrefetchSizes s = PrefetchSizesFor(bound);
    EXPECT_EQ(s.queue_kbytes, 1024);
    EXPECT_EQ(s.fetch_max_bytes, 8 << 20);
    EXPECT_EQ(s.partition_fetch_bytes, 4 << 20);
  }
}

TEST(PrefetchSizesTest, HugeBoundsStayInLibrdkafkasRange) {
  PrefetchSizes s = PrefetchSizesFor(int64_t{4} << 30);
  EXPECT_EQ(s.queue_kbytes, 1 << 20);  // librdkafka's range ends at INT_MAX / 1024.
  EXPECT_EQ(s.fetch_max_bytes, int64_t{1} << 30);
}

}  // namespace
}  // namespace st::delivery
