#include "delivery/offset_tracker.h"

#include <gtest/gtest.h>

namespace st::delivery {
namespace {

using catalog::OffsetRange;
using catalog::OffsetRanges;

TEST(OffsetTrackerTest, RangesStartAtTheCatalogOffsetAndEndPastTheLastRecord) {
  OffsetTracker tracker;
  tracker.Start(0, 100);
  tracker.Start(1, 7);
  EXPECT_FALSE(tracker.HasPending());
  EXPECT_TRUE(tracker.Accept(0, 100));
  EXPECT_TRUE(tracker.Accept(0, 101));
  // A gap (compaction, transaction marker) is fine: the range covers it.
  EXPECT_TRUE(tracker.Accept(0, 105));
  EXPECT_TRUE(tracker.HasPending());
  EXPECT_EQ(tracker.Pending(), (OffsetRanges{{0, OffsetRange{100, 106}}}));
  EXPECT_EQ(tracker.Next(), (catalog::NextOffsets{{0, 106}, {1, 7}}));
}

TEST(OffsetTrackerTest, RecordsBeforeTheRangeEndAndUnknownPartitionsAreDropped) {
  OffsetTracker tracker;
  tracker.Start(0, 10);
  EXPECT_FALSE(tracker.Accept(0, 9));   // Fetched before a seek.
  EXPECT_FALSE(tracker.Accept(3, 10));  // Not assigned.
  EXPECT_TRUE(tracker.Accept(0, 10));
  EXPECT_FALSE(tracker.Accept(0, 10));  // Duplicate delivery.
  EXPECT_EQ(tracker.Pending(), (OffsetRanges{{0, OffsetRange{10, 11}}}));
}

TEST(OffsetTrackerTest, CommittedMovesFromAndStartForgetsUncommittedWork) {
  OffsetTracker tracker;
  tracker.Start(0, 0);
  tracker.Start(1, 0);
  tracker.Accept(0, 0);
  tracker.Accept(0, 1);
  tracker.Accept(1, 0);
  OffsetRanges batch = tracker.Pending();
  tracker.Accept(0, 2);  // Arrives while the batch commits.
  tracker.Committed(batch);
  EXPECT_EQ(tracker.Pending(), (OffsetRanges{{0, OffsetRange{2, 3}}}));
  // A commit of a range that no longer starts where we are is ignored.
  tracker.Committed({{0, OffsetRange{0, 3}}});
  EXPECT_EQ(tracker.Pending(), (OffsetRanges{{0, OffsetRange{2, 3}}}));
  // A zombie rewinds: the catalog says partition 0 continues at 2.
  tracker.Start(0, 2);
  EXPECT_FALSE(tracker.HasPending());
  tracker.Remove(1);
  EXPECT_EQ(tracker.Next(), (catalog::NextOffsets{{0, 2}}));
}

}  // namespace
}  // namespace st::delivery
