#include "iceberg/parquet_schema.h"

#include <gtest/gtest.h>

namespace st::iceberg {
namespace {

TEST(ParquetSchemaTest, EveryElementCarriesItsFieldIdAndType) {
  auto point = Type::Struct({{6, "x", true, Type::Double()}, {7, "label", false, Type::String()}});
  auto schema =
      Schema::Make(0, {{1, "id", true, Type::Long()},
                       {2, "ts", false, Type::TimestampTz()},
                       {3, "ntz", false, Type::Timestamp()},
                       {4, "d9", false, Type::Decimal(9, 2)},
                       {5, "d38", false, Type::Decimal(38, 10)},
                       {8, "points", false, Type::List(9, false, point)},
                       {10, "attrs", false, Type::Map(11, Type::String(), 12, true, Type::Long())},
                       {13, "u", false, Type::Uuid()},
                       {14, "t", false, Type::Time()}});
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  auto ps = ToParquetSchema(*schema);
  ASSERT_TRUE(ps.has_value()) << ps.error().ToString();
  const auto& cols = ps->columns();
  ASSERT_EQ(cols.size(), 11u);
  EXPECT_EQ(cols[0].field_id, 1);
  EXPECT_EQ(cols[0].max_def_level, 0);
  EXPECT_EQ(cols[1].logical_type, parquet::LogicalType::Timestamp(true));
  EXPECT_EQ(cols[2].logical_type, parquet::LogicalType::Timestamp(false));
  EXPECT_EQ(cols[3].physical_type, parquet::PhysicalType::kInt32);
  EXPECT_EQ(cols[4].physical_type, parquet::PhysicalType::kFixedLenByteArray);
  EXPECT_EQ(cols[4].type_length, 16);
  EXPECT_EQ(cols[5].DottedPath(), "points.list.element.x");
  EXPECT_EQ(cols[5].field_id, 6);
  EXPECT_EQ(cols[5].max_rep_level, 1);
  EXPECT_EQ(cols[7].DottedPath(), "attrs.key_value.key");
  EXPECT_EQ(cols[7].field_id, 11);
  EXPECT_EQ(cols[8].field_id, 12);
  EXPECT_EQ(cols[9].logical_type, parquet::LogicalType::Uuid());
  EXPECT_EQ(cols[9].type_length, 16);
  EXPECT_EQ(cols[10].logical_type, parquet::LogicalType::Time());
  // Group nodes keep their ids too.
  const auto& points = ps->fields()[5];
  EXPECT_EQ(points.field_id(), 8);
  EXPECT_EQ(points.children()[0].children()[0].field_id(), 9);
}

}  // namespace
}  // namespace st::iceberg
