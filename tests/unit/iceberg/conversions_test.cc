#include "iceberg/conversions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace st::iceberg {
namespace {

struct BytesCase {
  TypePtr type;
  Value value;
  std::string bytes;
};

// Spec Appendix D encodings.
TEST(ConversionsTest, SingleValueBytesTable) {
  const BytesCase kCases[] = {
      {Type::Boolean(), Value::Bool(true), std::string("\x01", 1)},
      {Type::Int(), Value::Int32(-2), std::string("\xfe\xff\xff\xff", 4)},
      {Type::Date(), Value::Int32(17486), std::string("\x4e\x44\x00\x00", 4)},
      {Type::Long(), Value::Int64(1), std::string("\x01\0\0\0\0\0\0\0", 8)},
      {Type::Float(), Value::Float(1.0f), std::string("\x00\x00\x80\x3f", 4)},
      {Type::Double(), Value::Double(-2.0), std::string("\0\0\0\0\0\0\x00\xc0", 8)},
      {Type::Decimal(9, 2), Value::Decimal(1420), std::string("\x05\x8c", 2)},
      {Type::Decimal(9, 2), Value::Decimal(0), std::string("\x00", 1)},
      {Type::Decimal(9, 2), Value::Decimal(-1), std::string("\xff", 1)},
      {Type::Decimal(9, 2), Value::Decimal(128), std::string("\x00\x80", 2)},
      {Type::Decimal(9, 2), Value::Decimal(-128), std::string("\x80", 1)},
      {Type::Decimal(9, 2), Value::Decimal(-129), std::string("\xff\x7f", 2)},
      {Type::String(), Value::String("iceberg"), "iceberg"},
      {Type::Fixed(2), Value::Binary("ab"), "ab"},
      {Type::Binary(), Value::Binary(""), ""},
  };
  for (const auto& c : kCases) {
    auto bytes = ToSingleValueBytes(*c.type, c.value);
    ASSERT_TRUE(bytes.has_value()) << c.type->ToString();
    EXPECT_EQ(*bytes, c.bytes) << c.type->ToString();
    auto back = FromSingleValueBytes(*c.type, c.bytes);
    ASSERT_TRUE(back.has_value()) << c.type->ToString();
    EXPECT_EQ(*back, c.value) << c.type->ToString();
  }
  const Int128 max38 = [] {
    Int128 v = 1;
    for (int i = 0; i < 38; ++i) v *= 10;
    return v - 1;
  }();
  for (Int128 v : {max38, -max38}) {
    auto bytes = ToSingleValueBytes(*Type::Decimal(38, 0), Value::Decimal(v));
    ASSERT_TRUE(bytes.has_value());
    EXPECT_EQ(bytes->size(), 16u);
    EXPECT_EQ(FromSingleValueBytes(*Type::Decimal(38, 0), *bytes)->decimal_value(), v);
  }
}

TEST(ConversionsTest, Errors) {
  EXPECT_EQ(ToSingleValueBytes(*Type::Int(), Value::Null()).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ToSingleValueBytes(*Type::Int(), Value::Int64(1)).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(ToSingleValueBytes(*Type::List(1, false, Type::Int()), Value::MakeList({})));
  EXPECT_EQ(FromSingleValueBytes(*Type::Int(), "abc").error().code(), StatusCode::kCorruption);
  EXPECT_EQ(FromSingleValueBytes(*Type::Uuid(), "abc").error().code(), StatusCode::kCorruption);
  EXPECT_EQ(FromSingleValueBytes(*Type::Decimal(9, 2), "").error().code(), StatusCode::kCorruption);
  // Promoted columns keep their narrower bounds.
  EXPECT_EQ(FromSingleValueBytes(*Type::Long(), std::string("\xff\xff\xff\xff", 4))->int64_value(),
            -1);
  EXPECT_EQ(
      FromSingleValueBytes(*Type::Double(), std::string("\x00\x00\x80\x3f", 4))->double_value(),
      1.0);
}

TEST(ConversionsTest, CompareValues) {
  EXPECT_LT(CompareValues(*Type::Int(), Value::Int32(-1), Value::Int32(1)), 0);
  EXPECT_GT(CompareValues(*Type::Decimal(9, 2), Value::Decimal(5), Value::Decimal(-5)), 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_GT(CompareValues(*Type::Double(), Value::Double(nan), Value::Double(INFINITY)), 0);
  EXPECT_LT(CompareValues(*Type::Double(), Value::Double(-0.0), Value::Double(0.0)), 0);
  EXPECT_EQ(CompareValues(*Type::Double(), Value::Double(nan), Value::Double(nan)), 0);
  // Unsigned bytes: "é" (0xC3 0xA9) sorts after "z".
  EXPECT_GT(CompareValues(*Type::String(), Value::String("\xC3\xA9"), Value::String("z")), 0);
  EXPECT_LT(CompareValues(*Type::Binary(), Value::Binary("ab"), Value::Binary("abc")), 0);
  EXPECT_EQ(CompareValues(*Type::Boolean(), Value::Bool(true), Value::Bool(true)), 0);
}

}  // namespace
}  // namespace st::iceberg
