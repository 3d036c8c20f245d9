#include "common/utc_time.h"

#include <gtest/gtest.h>

namespace st {
namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

TEST(UtcTimeTest, Iso8601WithMilliseconds) {
  EXPECT_EQ(FormatUtcMillis(system_clock::time_point(milliseconds(0))), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatUtcMillis(system_clock::time_point(milliseconds(1733254888681))),
            "2024-12-03T19:41:28.681Z");
  EXPECT_EQ(FormatUtcMillis(system_clock::from_time_t(1445412480) + milliseconds(7)),
            "2015-10-21T07:28:00.007Z");
}

TEST(UtcTimeTest, DropsSubMillisecondsTowardThePast) {
  EXPECT_EQ(FormatUtcMillis(system_clock::time_point(milliseconds(-1))),
            "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatUtcMillis(system_clock::time_point(std::chrono::microseconds(-1))),
            "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatUtcMillis(system_clock::time_point(std::chrono::microseconds(1999))),
            "1970-01-01T00:00:00.001Z");
}

}  // namespace
}  // namespace st
