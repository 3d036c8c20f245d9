#include <gtest/gtest.h>

#include "api/s3/object_headers_internal.h"

namespace st::api::s3 {
namespace {

TEST(ObjectHeadersTest, Ranges) {
  auto range = [](const char* header, int64_t size) { return ResolveRange(header, size); };
  EXPECT_EQ(range("bytes=0-0", 5)->value().length, 1);
  EXPECT_EQ(range("bytes=4-", 5)->value().first, 4);
  EXPECT_EQ(range("bytes=-2", 5)->value().first, 3);
  EXPECT_EQ(range(" bytes=1-9 ", 5)->value().length, 4);
  EXPECT_FALSE(ResolveRange(std::nullopt, 5)->has_value());
  EXPECT_FALSE(range("bytes=", 5)->has_value());
  EXPECT_FALSE(range("bytes=-", 5)->has_value());
  EXPECT_FALSE(range("bytes=99999999999999999999-", 5)->has_value());
  EXPECT_EQ(range("bytes=5-", 5).error().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(range("bytes=0-", 0).error().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(range("bytes=-1", 0).error().code(), StatusCode::kFailedPrecondition);
}

TEST(ObjectHeadersTest, Dates) {
  auto t = std::chrono::system_clock::from_time_t(1445412480) + std::chrono::milliseconds(7);
  EXPECT_EQ(HttpDate(t), "Wed, 21 Oct 2015 07:28:00 GMT");
  EXPECT_EQ(ParseHttpDate("Wed, 21 Oct 2015 07:28:00 GMT"),
            std::chrono::system_clock::from_time_t(1445412480));
  EXPECT_FALSE(ParseHttpDate("yesterday").has_value());
}

// Found by tests/fuzz (s3_range): a year the nanosecond clock cannot hold
// overflowed from_time_t (UBSan: signed integer overflow).
TEST(ObjectHeadersTest, DatesOutsideTheClockRangeAreNotDates) {
  EXPECT_FALSE(ParseHttpDate("Thu, 29 Feb 202  23:59:59 GMT").has_value());
  EXPECT_FALSE(ParseHttpDate("Fri, 31 Dec 9999 23:59:59 GMT").has_value());
  EXPECT_EQ(ParseHttpDate("Sat, 01 Jan 2261 00:00:00 GMT"),
            std::chrono::system_clock::from_time_t(9183110400));
}

}  // namespace
}  // namespace st::api::s3
