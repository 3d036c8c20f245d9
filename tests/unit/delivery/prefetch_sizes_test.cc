#include "delivery/prefetch_sizes.h"

#include <gtest/gtest.h>

namespace st::delivery {
namespace {

TEST(PrefetchSizesTest, AChannelAsksForAQuarterOfItsFairShareUpToTheMaximum) {
  // The default 512 MB budget: a lone channel gets the maximum, 32 MiB.
  EXPECT_EQ(PrefetchBoundFor(int64_t{512} << 20), kMaxPrefetchBytes);
  EXPECT_EQ(PrefetchBoundFor(int64_t{4} << 30), kMaxPrefetchBytes);
  // 20 channels share it: 25.6 MB each, 6.4 MB of prefetch.
  EXPECT_EQ(PrefetchBoundFor(int64_t{128} << 20), int64_t{32} << 20);
  EXPECT_EQ(PrefetchBoundFor(int64_t{256} << 20), kMaxPrefetchBytes);
  EXPECT_EQ(PrefetchBoundFor((int64_t{512} << 20) / 20), ((int64_t{512} << 20) / 20) / 4);
  // No server-wide budget (FairShare 0): the maximum.
  EXPECT_EQ(PrefetchBoundFor(0), kMaxPrefetchBytes);
}

TEST(PrefetchSizesTest, ALoneChannelQueuesTheMaximumInOneMiBResponses) {
  PrefetchSizes s = PrefetchSizesFor(kMaxPrefetchBytes);
  EXPECT_EQ(s.queue_kbytes, 32 * 1024);
  EXPECT_EQ(s.fetch_max_bytes, 1 << 20);
  EXPECT_EQ(s.partition_fetch_bytes, 1 << 20);
}

TEST(PrefetchSizesTest, ManyChannelsQueueTheirShareInOneMiBResponses) {
  PrefetchSizes s = PrefetchSizesFor(PrefetchBoundFor((int64_t{512} << 20) / 20));
  EXPECT_EQ(s.queue_kbytes, ((int64_t{512} << 20) / 20) / 4 / 1024);
  EXPECT_EQ(s.fetch_max_bytes, 1 << 20);
  EXPECT_EQ(s.partition_fetch_bytes, 1 << 20);
}

TEST(PrefetchSizesTest, TinyOrNonsensicalBoundsStillMakeAWorkingConsumer) {
  for (int64_t bound : {int64_t{0}, int64_t{-5}, int64_t{1000}}) {
    PrefetchSizes s = PrefetchSizesFor(bound);
    EXPECT_EQ(s.queue_kbytes, 1024);
    EXPECT_EQ(s.fetch_max_bytes, 1 << 20);  // librdkafka wants >= message.max.bytes.
    EXPECT_EQ(s.partition_fetch_bytes, 1 << 20);
  }
}

TEST(PrefetchSizesTest, HugeBoundsStayInLibrdkafkasRange) {
  PrefetchSizes s = PrefetchSizesFor(int64_t{4} << 30);
  EXPECT_EQ(s.queue_kbytes, 1 << 20);  // librdkafka's range ends at INT_MAX / 1024.
  EXPECT_EQ(s.fetch_max_bytes, 4 << 20);
}

TEST(PrefetchSizesTest, AResponseIsAtMostAThirtySecondOfALargeQueue) {
  // A response is decompressed whole into the queue after the bound was
  // checked: at 10:1 compression a thirty-second keeps the overshoot near a
  // third of the bound.
  for (int64_t bound : {int64_t{32} << 20, int64_t{64} << 20, kMaxPrefetchBytes}) {
    PrefetchSizes s = PrefetchSizesFor(bound);
    EXPECT_LE(s.fetch_max_bytes * 32, bound);
    EXPECT_GE(s.fetch_max_bytes, s.partition_fetch_bytes);
  }
}

}  // namespace
}  // namespace st::delivery
