#include "common/status.h"

#include <gtest/gtest.h>

namespace st {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Err(InvalidArgument("odd: " + std::to_string(x)));
  return x / 2;
}

Result<int> Quarter(int x) {
  ST_ASSIGN_OR_RETURN(int h, Half(x));
  ST_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

Status CheckEven(int x) {
  ST_TRY(Half(x));
  return Status::OK();
}

TEST(StatusTest, PropagatesFirstError) {
  EXPECT_EQ(Quarter(8).value(), 2);
  auto r = Quarter(6);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.error().message(), "odd: 3");
  EXPECT_TRUE(CheckEven(4).ok());
  EXPECT_EQ(CheckEven(5).ToString(), "invalid_argument: odd: 5");
}

TEST(StatusTest, WithContextKeepsCode) {
  Status s = NotFound("table t").WithContext("load");
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "load: table t");
  EXPECT_TRUE(Status::OK().WithContext("x").ok());
}

}  // namespace
}  // namespace st
