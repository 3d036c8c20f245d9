#include "cli/partition_expression.h"

#include <gtest/gtest.h>

namespace st::cli {
namespace {

using iceberg::Transform;
using iceberg::Type;

iceberg::Schema TestSchema() {
  return *iceberg::Schema::Make(
      0, {{1, "id", true, Type::Long()},
          {2, "ts", false, Type::TimestampTz()},
          {3, "s", false, Type::String()},
          {4, "geo", false, Type::Struct({{5, "city", false, Type::String()}})}});
}

TEST(PartitionExpressionTest, ParsesTransformsWithJavaNames) {
  auto fields = ParsePartitionExpression(
      TestSchema(), " day(ts), bucket(16, id),truncate(4, s), identity(s), geo.city, hour(ts)");
  ASSERT_TRUE(fields.has_value()) << fields.error().ToString();
  ASSERT_EQ(fields->size(), 6u);
  EXPECT_EQ((*fields)[0].name, "ts_day");
  EXPECT_EQ((*fields)[0].transform, Transform::Day());
  EXPECT_EQ((*fields)[0].field_id, 1000);
  EXPECT_EQ((*fields)[1].name, "id_bucket");
  EXPECT_EQ((*fields)[1].transform, Transform::Bucket(16));
  EXPECT_EQ((*fields)[2].name, "s_trunc");
  EXPECT_EQ((*fields)[2].transform, Transform::Truncate(4));
  EXPECT_EQ((*fields)[3].name, "s");
  EXPECT_EQ((*fields)[4].source_id, 5);
  EXPECT_EQ((*fields)[5].field_id, 1005);
  EXPECT_TRUE(ParsePartitionExpression(TestSchema(), "  ")->empty());
}

TEST(PartitionExpressionTest, RejectsBadTerms) {
  for (const char* bad : {"day(nope)", "bucket(0, id)", "bucket(x, id)", "bucket(id)", "day(ts",
                          "day(ts))", "weekday(ts)", "day(ts),,s", "day(ts, s)"}) {
    auto r = ParsePartitionExpression(TestSchema(), bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument) << bad;
  }
}

}  // namespace
}  // namespace st::cli
