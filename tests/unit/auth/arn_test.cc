#include "auth/arn.h"

#include <gtest/gtest.h>

namespace st::auth {
namespace {

TEST(ArnTest, ParsesTheSixFieldsAndKeepsTheResourceWhole) {
  auto arn = ParseArn("arn:aws-cn:kafka:eu-west-1:111122223333:topic/c/u:1/t");
  ASSERT_TRUE(arn.has_value()) << arn.error().ToString();
  EXPECT_EQ(arn->partition, "aws-cn");
  EXPECT_EQ(arn->service, "kafka");
  EXPECT_EQ(arn->region, "eu-west-1");
  EXPECT_EQ(arn->account_id, "111122223333");
  EXPECT_EQ(arn->resource, "topic/c/u:1/t");
  EXPECT_TRUE(arn->HasAwsPartition());
  EXPECT_EQ(arn->ToString(), "arn:aws-cn:kafka:eu-west-1:111122223333:topic/c/u:1/t");
}

TEST(ArnTest, EmptyRegionAndAccountAreFields) {
  auto arn = ParseArn("arn:aws:s3:::bucket");
  ASSERT_TRUE(arn.has_value());
  EXPECT_EQ(arn->region, "");
  EXPECT_EQ(arn->account_id, "");
  EXPECT_EQ(arn->resource, "bucket");
}

TEST(ArnTest, RefusesWhatIsNotAnArn) {
  for (const char* text : {"", "arn:aws:iam::1", "urn:aws:iam::1:root", "111122223333"}) {
    auto arn = ParseArn(text);
    ASSERT_FALSE(arn.has_value()) << text;
    EXPECT_EQ(arn.error().code(), StatusCode::kInvalidArgument);
  }
}

TEST(ArnTest, AccountOrEmpty) {
  EXPECT_EQ(ArnAccount("arn:aws:iam::111122223333:role/r"), "111122223333");
  EXPECT_EQ(ArnAccount("arn:aws:sts::111122223333:assumed-role/r/s"), "111122223333");
  EXPECT_EQ(ArnAccount("x:aws:iam::111122223333:role/r"), "");
  EXPECT_EQ(ArnAccount("arn:aws:iam::111122223333"), "");
}

TEST(ArnTest, SplitFieldsDoesNotCheckThem) {
  auto fields = SplitArnFields("*:*:s3tables:*:*:bucket/*");
  ASSERT_TRUE(fields.has_value());
  EXPECT_EQ((*fields)[0], "*");
  EXPECT_EQ((*fields)[5], "bucket/*");
  EXPECT_FALSE(SplitArnFields("arn:aws:s3").has_value());
}

TEST(ArnTest, SplitResourceKeepsTheRestInTheLastPart) {
  auto parts = SplitArnResource("schema/reg/name/extra", '/', 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], "schema");
  EXPECT_EQ(parts[1], "reg");
  EXPECT_EQ(parts[2], "name/extra");
  EXPECT_EQ(SplitArnResource("bucket", '/', 4).size(), 1u);
}

}  // namespace
}  // namespace st::auth
