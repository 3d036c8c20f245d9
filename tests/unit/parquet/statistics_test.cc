#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "parquet/statistics_internal.h"

namespace st::parquet::internal {
namespace {

ColumnDescriptor Col(PhysicalType t, LogicalType lt = {}, int32_t len = 0) {
  ColumnDescriptor c;
  c.path = {"c"};
  c.physical_type = t;
  c.logical_type = lt;
  c.type_length = len;
  return c;
}

template <typename T>
T Decode(const std::string& s) {
  T v;
  EXPECT_EQ(s.size(), sizeof(T));
  std::memcpy(&v, s.data(), sizeof(T));
  return v;
}

TEST(StatisticsTest, SignedIntegers) {
  StatsAccumulator s(Col(PhysicalType::kInt32));
  for (int32_t v : {5, -7, std::numeric_limits<int32_t>::max(), 0}) s.Update(v);
  EXPECT_EQ(Decode<int32_t>(s.EncodedMin()), -7);
  EXPECT_EQ(Decode<int32_t>(s.EncodedMax()), std::numeric_limits<int32_t>::max());
}

TEST(StatisticsTest, FloatsSkipNanAndNormaliseZeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  StatsAccumulator s(Col(PhysicalType::kFloat));
  s.Update(nan);
  EXPECT_FALSE(s.has_min_max());
  s.Update(0.0f);
  s.Update(nan);
  s.Update(3.5f);
  EXPECT_TRUE(std::signbit(Decode<float>(s.EncodedMin())));  // min zero is written -0.0
  EXPECT_EQ(Decode<float>(s.EncodedMax()), 3.5f);

  StatsAccumulator d(Col(PhysicalType::kDouble));
  d.Update(-0.0);
  d.Update(-2.0);
  EXPECT_EQ(Decode<double>(d.EncodedMin()), -2.0);
  EXPECT_FALSE(std::signbit(Decode<double>(d.EncodedMax())));  // max zero is written +0.0
  d.Update(-std::numeric_limits<double>::infinity());
  EXPECT_EQ(Decode<double>(d.EncodedMin()), -std::numeric_limits<double>::infinity());
}

TEST(StatisticsTest, ByteArraysAreUnsignedLexicographic) {
  StatsAccumulator s(Col(PhysicalType::kByteArray, LogicalType::String()));
  for (const char* v : {"\x7F", "\x80", "a", "", "ab", "\xFF"}) s.UpdateBytes(v);
  EXPECT_EQ(s.EncodedMin(), "");
  EXPECT_EQ(s.EncodedMax(), "\xFF");
  StatsAccumulator u(Col(PhysicalType::kFixedLenByteArray, LogicalType::Uuid(), 2));
  u.UpdateBytes(std::string("\x80\x00", 2));
  u.UpdateBytes(std::string("\x7F\xFF", 2));
  EXPECT_EQ(u.EncodedMin(), std::string("\x7F\xFF", 2));
  EXPECT_EQ(u.EncodedMax(), std::string("\x80\x00", 2));
}

TEST(StatisticsTest, FixedDecimalsAreSignedBigEndian) {
  StatsAccumulator s(Col(PhysicalType::kFixedLenByteArray, LogicalType::Decimal(20, 0), 9));
  const std::string minus_one(9, '\xFF');
  const std::string one = std::string(8, '\0') + "\x01";
  const std::string most_negative = "\x80" + std::string(8, '\0');
  const std::string big = std::string("\x00\xFF", 2) + std::string(7, '\0');
  for (const auto& v : {one, minus_one, big, most_negative}) s.UpdateBytes(v);
  EXPECT_EQ(s.EncodedMin(), most_negative);
  EXPECT_EQ(s.EncodedMax(), big);
}

TEST(StatisticsTest, MergeAndBooleans) {
  StatsAccumulator a(Col(PhysicalType::kBoolean));
  StatsAccumulator b(Col(PhysicalType::kBoolean));
  a.Update(true);
  b.Update(false);
  a.Merge(b);
  EXPECT_EQ(a.EncodedMin(), std::string(1, '\0'));
  EXPECT_EQ(a.EncodedMax(), std::string(1, '\1'));
  StatsAccumulator empty(Col(PhysicalType::kBoolean));
  a.Merge(empty);
  EXPECT_EQ(a.EncodedMin(), std::string(1, '\0'));
}

}  // namespace
}  // namespace st::parquet::internal
