#include "iceberg/transform.h"

#include <gtest/gtest.h>

#include "common/uuid.h"
#include "iceberg/calendar_internal.h"

namespace st::iceberg {
namespace {

using internal::DaysFromCivil;

int64_t Micros(int64_t y, int mo, int d, int h, int mi, int s, int64_t us = 0) {
  return DaysFromCivil(y, mo, d) * internal::kMicrosPerDay +
         ((h * 60 + mi) * 60 + s) * internal::kMicrosPerSecond + us;
}

std::string UuidBytes(const char* text) {
  auto u = Uuid::Parse(text).value();
  return std::string(u.bytes.begin(), u.bytes.end());
}

struct HashVector {
  const char* name;
  TypePtr type;
  Value value;
  int32_t hash;
};

// Spec Appendix B, "Hash results for sample values".
TEST(BucketHashTest, SpecVectors) {
  const HashVector kVectors[] = {
      {"int 34", Type::Int(), Value::Int32(34), 2017239379},
      {"long 34", Type::Long(), Value::Int64(34), 2017239379},
      {"decimal 14.20", Type::Decimal(9, 2), Value::Decimal(1420), -500754589},
      {"date 2017-11-16", Type::Date(), Value::Int32(DaysFromCivil(2017, 11, 16)), -653330422},
      {"time 22:31:08", Type::Time(), Value::Int64(((22 * 60 + 31) * 60 + 8) * 1'000'000LL),
       -662762989},
      {"timestamp 2017-11-16T22:31:08", Type::Timestamp(),
       Value::Int64(Micros(2017, 11, 16, 22, 31, 8)), -2047944441},
      {"timestamptz 2017-11-16T14:31:08-08:00", Type::TimestampTz(),
       Value::Int64(Micros(2017, 11, 16, 14 + 8, 31, 8)), -2047944441},
      {"string iceberg", Type::String(), Value::String("iceberg"), 1210000089},
      {"uuid", Type::Uuid(), Value::Binary(UuidBytes("f79c3e09-677c-4bbd-a479-3f349cb785e7")),
       1488055340},
      {"fixed 00010203", Type::Fixed(4), Value::Binary(std::string("\x00\x01\x02\x03", 4)),
       -188683207},
      {"binary 00010203", Type::Binary(), Value::Binary(std::string("\x00\x01\x02\x03", 4)),
       -188683207},
  };
  for (const auto& v : kVectors) {
    auto hash = BucketHash(*v.type, v.value);
    ASSERT_TRUE(hash.has_value()) << v.name;
    EXPECT_EQ(*hash, v.hash) << v.name;
  }
}

TEST(BucketHashTest, Murmur3TailLengths) {
  // Empty input hashes to 0 with seed 0; the tails exercise 1..3 trailing bytes.
  EXPECT_EQ(Murmur3Hash32("", 0), 0);
  EXPECT_NE(Murmur3Hash32("a", 1), Murmur3Hash32("ab", 2));
  EXPECT_NE(Murmur3Hash32("abc", 3), Murmur3Hash32("ab", 2));
}

TEST(TransformTest, ParseAndToString) {
  for (const char* text :
       {"identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour", "void"}) {
    auto t = Transform::Parse(text);
    ASSERT_TRUE(t.has_value()) << text;
    EXPECT_EQ(t->ToString(), text);
  }
  EXPECT_EQ(Transform::Parse("bucket[16]")->param(), 16);
  for (const char* bad : {"bucket[0]", "bucket[-1]", "bucket[]", "bucket[x]", "truncate", "days",
                          "bucket[99999999999]", "Identity"}) {
    auto t = Transform::Parse(bad);
    ASSERT_FALSE(t.has_value()) << bad;
    EXPECT_EQ(t.error().code(), StatusCode::kInvalidArgument);
  }
}

TEST(TransformTest, CanTransformAndResultType) {
  EXPECT_TRUE(Transform::Bucket(4).CanTransform(*Type::Uuid()));
  EXPECT_FALSE(Transform::Bucket(4).CanTransform(*Type::Double()));
  EXPECT_FALSE(Transform::Bucket(4).CanTransform(*Type::Boolean()));
  EXPECT_TRUE(Transform::Truncate(4).CanTransform(*Type::Decimal(9, 2)));
  EXPECT_FALSE(Transform::Truncate(4).CanTransform(*Type::Uuid()));
  EXPECT_FALSE(Transform::Truncate(4).CanTransform(*Type::Fixed(3)));
  EXPECT_TRUE(Transform::Day().CanTransform(*Type::Date()));
  EXPECT_FALSE(Transform::Hour().CanTransform(*Type::Date()));
  EXPECT_FALSE(Transform::Year().CanTransform(*Type::Time()));
  EXPECT_FALSE(Transform::Identity().CanTransform(*Type::List(2, false, Type::Int())));
  EXPECT_TRUE(Transform::Void().CanTransform(*Type::List(2, false, Type::Int())));
  EXPECT_EQ(Transform::Day().ResultType(Type::TimestampTz())->id(), TypeId::kDate);
  EXPECT_EQ(Transform::Hour().ResultType(Type::Timestamp())->id(), TypeId::kInt);
  EXPECT_EQ(Transform::Bucket(3).ResultType(Type::String())->id(), TypeId::kInt);
  EXPECT_EQ(Transform::Truncate(3).ResultType(Type::String())->id(), TypeId::kString);
}

struct ApplyCase {
  Transform transform;
  TypePtr type;
  Value input;
  Value output;
  const char* human;
};

TEST(TransformTest, ApplyTable) {
  const int64_t ts = Micros(2017, 11, 16, 22, 31, 8);
  const int64_t pre_epoch = Micros(1969, 12, 31, 23, 59, 59, 999999);
  const ApplyCase kCases[] = {
      {Transform::Identity(), Type::Long(), Value::Int64(-5), Value::Int64(-5), "-5"},
      {Transform::Bucket(100), Type::Int(), Value::Int32(34), Value::Int32(79), "79"},
      {Transform::Truncate(10), Type::Int(), Value::Int32(1), Value::Int32(0), "0"},
      {Transform::Truncate(10), Type::Int(), Value::Int32(-1), Value::Int32(-10), "-10"},
      {Transform::Truncate(10), Type::Long(), Value::Int64(-10), Value::Int64(-10), "-10"},
      {Transform::Truncate(50), Type::Decimal(9, 2), Value::Decimal(1065), Value::Decimal(1050),
       "10.50"},
      {Transform::Truncate(10), Type::Decimal(9, 2), Value::Decimal(-5), Value::Decimal(-10),
       "-0.10"},
      {Transform::Truncate(3), Type::String(), Value::String("iceberg"), Value::String("ice"),
       "ice"},
      // U+1F600 is one code point (4 UTF-8 bytes); "é" is two bytes.
      {Transform::Truncate(2), Type::String(), Value::String("\xF0\x9F\x98\x80\xC3\xA9z"),
       Value::String("\xF0\x9F\x98\x80\xC3\xA9"), "\xF0\x9F\x98\x80\xC3\xA9"},
      {Transform::Truncate(2), Type::Binary(), Value::Binary("abc"), Value::Binary("ab"), "YWI="},
      {Transform::Year(), Type::Timestamp(), Value::Int64(ts), Value::Int32(47), "2017"},
      {Transform::Month(), Type::Timestamp(), Value::Int64(ts), Value::Int32(574), "2017-11"},
      {Transform::Day(), Type::TimestampTz(), Value::Int64(ts), Value::Int32(17486), "2017-11-16"},
      {Transform::Hour(), Type::TimestampTz(), Value::Int64(ts), Value::Int32(419686),
       "2017-11-16-22"},
      {Transform::Year(), Type::Date(), Value::Int32(-1), Value::Int32(-1), "1969"},
      {Transform::Month(), Type::Date(), Value::Int32(-1), Value::Int32(-1), "1969-12"},
      {Transform::Day(), Type::Timestamp(), Value::Int64(pre_epoch), Value::Int32(-1),
       "1969-12-31"},
      {Transform::Hour(), Type::Timestamp(), Value::Int64(pre_epoch), Value::Int32(-1),
       "1969-12-31-23"},
      {Transform::Year(), Type::Date(), Value::Int32(DaysFromCivil(-4, 6, 1)), Value::Int32(-1974),
       "-004"},
      {Transform::Void(), Type::Int(), Value::Int32(3), Value::Null(), "null"},
      {Transform::Bucket(4), Type::String(), Value::Null(), Value::Null(), "null"},
  };
  for (const auto& c : kCases) {
    const std::string what = c.transform.ToString() + " of " + c.type->ToString();
    auto out = c.transform.Apply(*c.type, c.input);
    ASSERT_TRUE(out.has_value()) << what << ": " << out.error().ToString();
    EXPECT_EQ(*out, c.output) << what;
    EXPECT_EQ(c.transform.ToHumanString(*c.transform.ResultType(c.type), *out), c.human) << what;
  }
}

TEST(TransformTest, ApplyRejectsMismatchedValues) {
  auto r = Transform::Bucket(4).Apply(*Type::Long(), Value::Int32(1));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(Transform::Day().Apply(*Type::Date(), Value::Int64(1)).has_value());
  EXPECT_FALSE(Transform::Hour().Apply(*Type::Date(), Value::Int32(1)).has_value());
  EXPECT_FALSE(Transform::Bucket(4).Apply(*Type::Uuid(), Value::Binary("short")).has_value());
}

TEST(TransformTest, IdentityHumanStrings) {
  auto human = [](TypePtr type, Value v) { return Transform::Identity().ToHumanString(*type, v); };
  EXPECT_EQ(human(Type::Boolean(), Value::Bool(true)), "true");
  EXPECT_EQ(human(Type::Date(), Value::Int32(17486)), "2017-11-16");
  EXPECT_EQ(human(Type::Time(), Value::Int64(81068000001)), "22:31:08.000001");
  EXPECT_EQ(human(Type::Timestamp(), Value::Int64(Micros(2017, 11, 16, 22, 31, 8))),
            "2017-11-16T22:31:08");
  EXPECT_EQ(human(Type::TimestampTz(), Value::Int64(Micros(1969, 12, 31, 23, 0, 0, 5))),
            "1969-12-31T23:00:00.000005+00:00");
  EXPECT_EQ(human(Type::Decimal(38, 10), Value::Decimal(1)), "1E-10");
  EXPECT_EQ(human(Type::Decimal(9, 2), Value::Decimal(-1420)), "-14.20");
  EXPECT_EQ(human(Type::Decimal(9, 0), Value::Decimal(7)), "7");
  EXPECT_EQ(human(Type::Double(), Value::Double(1.0)), "1.0");
  EXPECT_EQ(human(Type::Double(), Value::Double(1e-5)), "1e-05");
  EXPECT_EQ(human(Type::Double(), Value::Double(1.5e20)), "1.5e+20");
  EXPECT_EQ(human(Type::Double(), Value::Double(0.25)), "0.25");
  EXPECT_EQ(human(Type::Uuid(), Value::Binary(UuidBytes("f79c3e09-677c-4bbd-a479-3f349cb785e7"))),
            "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(human(Type::Binary(), Value::Binary("\x01\x02\x03\x04")), "AQIDBA==");
}

}  // namespace
}  // namespace st::iceberg
