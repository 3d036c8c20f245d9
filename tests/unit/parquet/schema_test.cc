#include "parquet/schema.h"

#include <gtest/gtest.h>

namespace st::parquet {
namespace {

using R = Repetition;

TEST(SchemaTest, DecimalFixedLengthIsMinimal) {
  EXPECT_EQ(DecimalFixedLength(1), 1);
  EXPECT_EQ(DecimalFixedLength(2), 1);
  EXPECT_EQ(DecimalFixedLength(3), 2);
  EXPECT_EQ(DecimalFixedLength(9), 4);
  EXPECT_EQ(DecimalFixedLength(10), 5);
  EXPECT_EQ(DecimalFixedLength(18), 8);
  EXPECT_EQ(DecimalFixedLength(19), 9);
  EXPECT_EQ(DecimalFixedLength(38), 16);
}

TEST(SchemaTest, DecimalPhysicalTypeFollowsPrecision) {
  EXPECT_EQ(Node::Decimal("d", R::kOptional, 1, 9, 2).physical_type(), PhysicalType::kInt32);
  EXPECT_EQ(Node::Decimal("d", R::kOptional, 1, 10, 2).physical_type(), PhysicalType::kInt64);
  EXPECT_EQ(Node::Decimal("d", R::kOptional, 1, 18, 2).physical_type(), PhysicalType::kInt64);
  const Node wide = Node::Decimal("d", R::kOptional, 1, 19, 2);
  EXPECT_EQ(wide.physical_type(), PhysicalType::kFixedLenByteArray);
  EXPECT_EQ(wide.type_length(), 9);
}

TEST(SchemaTest, LevelsAndPathsOfNestedShapes) {
  auto schema = Schema::Make({
      Node::Int64("id", R::kRequired, 1),
      Node::List("tags", R::kOptional, 2, Node::String("x", R::kOptional, 3)),
      Node::Map("attrs", R::kRequired, 4, Node::String("k", R::kOptional, 5),
                Node::List("v", R::kOptional, 6, Node::Int32("e", R::kRequired, 7))),
      Node::Struct("s", R::kOptional, 8, {Node::Double("d", R::kOptional, 9)}),
  });
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  const auto& cols = schema->columns();
  ASSERT_EQ(cols.size(), 5u);
  EXPECT_EQ(cols[0].DottedPath(), "id");
  EXPECT_EQ(cols[0].max_def_level, 0);
  EXPECT_EQ(cols[1].DottedPath(), "tags.list.element");
  EXPECT_EQ(cols[1].max_def_level, 3);
  EXPECT_EQ(cols[1].max_rep_level, 1);
  EXPECT_EQ(cols[1].field_id, 3);
  EXPECT_EQ(cols[2].DottedPath(), "attrs.key_value.key");
  EXPECT_EQ(cols[2].max_def_level, 1);  // Map key forced required.
  EXPECT_EQ(cols[3].DottedPath(), "attrs.key_value.value.list.element");
  EXPECT_EQ(cols[3].max_def_level, 3);
  EXPECT_EQ(cols[3].max_rep_level, 2);
  EXPECT_EQ(cols[4].DottedPath(), "s.d");
  EXPECT_EQ(cols[4].max_def_level, 2);
}

TEST(SchemaTest, RejectsBadShapes) {
  auto repeated = Schema::Make({Node::Int32("r", R::kRepeated, 1)});
  ASSERT_FALSE(repeated.has_value());
  EXPECT_EQ(repeated.error().code(), StatusCode::kUnsupported);

  auto bad_decimal = Schema::Make(
      {Node::Leaf("d", R::kOptional, PhysicalType::kInt32, LogicalType::Decimal(10, 2), 1)});
  ASSERT_FALSE(bad_decimal.has_value());
  EXPECT_NE(bad_decimal.error().message().find("'d'"), std::string::npos);

  EXPECT_FALSE(Schema::Make({Node::Decimal("d", R::kOptional, 1, 39, 0)}).has_value());
  EXPECT_FALSE(Schema::Make({Node::Fixed("f", R::kOptional, 1, 0)}).has_value());
  EXPECT_FALSE(Schema::Make({Node::Struct("s", R::kOptional, 1, {})}).has_value());
  EXPECT_FALSE(
      Schema::Make({Node::Leaf("s", R::kOptional, PhysicalType::kInt32, LogicalType::String())})
          .has_value());
  EXPECT_FALSE(Schema::Make({Node::Group("l", R::kOptional, {Node::Int32("x", R::kOptional, 1)}, 1,
                                         LogicalType::List())})
                   .has_value());
  EXPECT_FALSE(Schema::Make({}).has_value());
}

}  // namespace
}  // namespace st::parquet
