#include "cli/row_json.h"

#include <gtest/gtest.h>

#include <cmath>

namespace st::cli {
namespace {

using iceberg::Type;

TEST(DecimalToStringTest, Scales) {
  EXPECT_EQ(DecimalToString(12345, 2), "123.45");
  EXPECT_EQ(DecimalToString(-5, 3), "-0.005");
  EXPECT_EQ(DecimalToString(0, 0), "0");
  Int128 max38 = 1;
  for (int i = 0; i < 38; ++i) max38 *= 10;
  EXPECT_EQ(DecimalToString(-(max38 - 1), 10), "-9999999999999999999999999999.9999999999");
}

TEST(RowToJsonLineTest, LosslessEncoding) {
  auto schema = *iceberg::Schema::Make(
      0, {{1, "f", false, Type::Float()},
          {2, "d", false, Type::Double()},
          {3, "u", false, Type::Uuid()},
          {4, "b", false, Type::Binary()},
          {5, "m", false, Type::Map(6, Type::String(), 7, false, Type::Long())},
          {8, "l", false, Type::List(9, false, Type::Int())},
          {10, "dec", false, Type::Decimal(9, 2)},
          {11, "n", false, Type::String()}});
  Value row = Value::MakeStruct(
      {Value::Float(NAN), Value::Double(-0.0), Value::Binary(std::string(16, '\x01')),
       Value::Binary(std::string("\xFF\x00"
                                 "a",
                                 3)),
       Value::MakeMap({{Value::String("k"), Value::Null()}}),
       Value::MakeList({Value::Int32(1), Value::Null()}), Value::Decimal(-150), Value::Null()});
  auto line = RowToJsonLine(schema, row);
  ASSERT_TRUE(line.has_value()) << line.error().ToString();
  EXPECT_EQ(*line, R"({"f":"NaN","d":-0.0,"u":"01010101-0101-0101-0101-010101010101","b":"/wBh",)"
                   R"("m":[["k",null]],"l":[1,null],"dec":"-1.50","n":null})");
  EXPECT_FALSE(RowToJsonLine(schema, Value::MakeStruct({Value::Int32(1)})).has_value());
}

}  // namespace
}  // namespace st::cli
