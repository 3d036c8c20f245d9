#include "iceberg/partition_spec.h"

#include <gtest/gtest.h>

namespace st::iceberg {
namespace {

Schema TestSchema() {
  auto point = Type::Struct(
      {{4, "city", false, Type::String(), ""}, {5, "ts", false, Type::Timestamp(), ""}});
  return Schema::Make(0, {{1, "id", true, Type::Long(), ""},
                          {2, "name", false, Type::String(), ""},
                          {3, "loc", false, point, ""},
                          {6, "tags", false, Type::List(7, false, Type::String()), ""}})
      .value();
}

TEST(PartitionSpecTest, MakeValidates) {
  const Schema schema = TestSchema();
  struct Bad {
    std::vector<PartitionField> fields;
    const char* message_part;
  };
  const Bad kBad[] = {
      {{{9, 1000, "x", Transform::Identity()}}, "source id 9"},
      {{{1, 999, "x", Transform::Bucket(2)}}, "start at 1000"},
      {{{1, 1000, "a", Transform::Bucket(2)}, {2, 1000, "b", Transform::Bucket(2)}}, "reuses"},
      {{{1, 1000, "a", Transform::Bucket(2)}, {2, 1001, "a", Transform::Bucket(2)}}, "duplicate"},
      {{{1, 1000, "", Transform::Bucket(2)}}, "empty name"},
      {{{1, 1000, "id_day", Transform::Day()}}, "cannot be applied"},
      {{{3, 1000, "loc", Transform::Identity()}}, "cannot be applied"},
      {{{7, 1000, "tag", Transform::Identity()}}, "inside a list or map"},
      {{{1, 1000, "name", Transform::Bucket(4)}}, "name of schema column"},
      {{{1, 1000, "a", Transform::Bucket(4)}, {1, 1001, "b", Transform::Bucket(4)}}, "repeats"},
  };
  for (const auto& b : kBad) {
    auto spec = PartitionSpec::Make(schema, 0, b.fields);
    ASSERT_FALSE(spec.has_value()) << b.message_part;
    EXPECT_EQ(spec.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(spec.error().message().find(b.message_part), std::string::npos)
        << spec.error().message();
  }
  EXPECT_TRUE(PartitionSpec::Make(schema, 0, {{2, 1000, "name", Transform::Identity()}}));
  EXPECT_EQ(PartitionSpec::Unpartitioned().LastFieldId(), 999);
}

TEST(PartitionSpecTest, PartitionTypeTupleAndPath) {
  const Schema schema = TestSchema();
  auto spec = PartitionSpec::Make(schema, 1,
                                  {{5, 1000, "ts_hour", Transform::Hour()},
                                   {4, 1001, "city", Transform::Identity()},
                                   {1, 1002, "id_bucket", Transform::Bucket(16)},
                                   {2, 1003, "name_trunc", Transform::Truncate(3)}});
  ASSERT_TRUE(spec.has_value()) << spec.error().ToString();
  EXPECT_EQ(spec->LastFieldId(), 1003);
  auto type = spec->PartitionType(schema);
  ASSERT_TRUE(type.has_value());
  EXPECT_EQ((*type)->ToString(),
            "struct<ts_hour: int, city: string, id_bucket: int, name_trunc: string>");
  EXPECT_EQ((*type)->fields()[1].id, 1001);
  EXPECT_FALSE((*type)->fields()[1].required);

  // 2025-01-01T05:30:00 = 1735709400 s.
  const Value row = Value::MakeStruct(
      {Value::Int64(34), Value::String("a b/c"),
       Value::MakeStruct({Value::String("S\xC3\xA3o Paulo"), Value::Int64(1735709400000000)}),
       Value::Null()});
  auto tuple = spec->PartitionOf(schema, row);
  ASSERT_TRUE(tuple.has_value()) << tuple.error().ToString();
  EXPECT_EQ(tuple->struct_value()[0], Value::Int32(482141));
  EXPECT_EQ(tuple->struct_value()[2], Value::Int32(2017239379 % 16));
  EXPECT_EQ(tuple->struct_value()[3], Value::String("a b"));
  auto path = spec->PartitionPath(schema, *tuple);
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(*path, "ts_hour=2025-01-01-05/city=S%C3%A3o+Paulo/id_bucket=3/name_trunc=a+b");

  // A null parent struct makes nested sources null.
  const Value no_loc =
      Value::MakeStruct({Value::Int64(1), Value::Null(), Value::Null(), Value::Null()});
  auto nulls = spec->PartitionOf(schema, no_loc);
  ASSERT_TRUE(nulls.has_value());
  EXPECT_TRUE(nulls->struct_value()[0].is_null());
  EXPECT_EQ(spec->PartitionPath(schema, *nulls).value(),
            "ts_hour=null/city=null/id_bucket=" +
                std::to_string(
                    (Transform::Bucket(16).Apply(*Type::Long(), Value::Int64(1)))->int32_value()) +
                "/name_trunc=null");

  EXPECT_FALSE(spec->PartitionOf(schema, Value::Int32(1)).has_value());
  EXPECT_FALSE(spec->PartitionPath(schema, Value::MakeStruct({Value::Int32(1)})).has_value());
  EXPECT_FALSE(spec->PartitionPath(schema, Value::MakeStruct({Value::String("x"), Value::Null(),
                                                              Value::Null(), Value::Null()}))
                   .has_value());
  EXPECT_EQ(PartitionSpec::Unpartitioned().PartitionPath(schema, Value::MakeStruct({})).value(),
            "");
}

}  // namespace
}  // namespace st::iceberg
