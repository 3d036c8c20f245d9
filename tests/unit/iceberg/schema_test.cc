#include "iceberg/schema.h"

#include <gtest/gtest.h>

#include "iceberg/type_nesting.h"

namespace st::iceberg {
namespace {

TEST(SchemaTest, IndexesNestedFieldsAndRejectsDuplicateIds) {
  auto point =
      Type::Struct({{3, "x", true, Type::Double(), ""}, {4, "y", true, Type::Double(), ""}});
  auto schema = Schema::Make(0,
                             {{1, "id", true, Type::Long(), ""},
                              {2, "pt", false, point, ""},
                              {5, "tags", false, Type::List(6, false, Type::String()), ""}},
                             {1});
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  EXPECT_EQ(schema->HighestFieldId(), 6);
  EXPECT_EQ(schema->FindField(4)->name, "y");
  EXPECT_EQ(schema->FieldPath(4), "pt.y");
  EXPECT_EQ(schema->FieldPath(6), "tags.element");
  EXPECT_EQ(schema->FindFieldByName("pt.x")->id, 3);

  auto dup = Schema::Make(0, {{1, "a", true, Type::Long(), ""},
                              {2, "b", false, point, ""},
                              {3, "c", false, Type::Int(), ""}});
  ASSERT_FALSE(dup.has_value());
  EXPECT_NE(dup.error().message().find("duplicate field id 3"), std::string::npos);
  EXPECT_FALSE(Schema::Make(0, {{1, "a", true, Type::Long(), ""}}, {9}).has_value());
}

TEST(TypeTest, ParsesPrimitiveStrings) {
  EXPECT_EQ(Type::ParsePrimitive("decimal(38, 10)").value()->ToString(), "decimal(38,10)");
  EXPECT_EQ(Type::ParsePrimitive("fixed[16]").value()->fixed_length(), 16);
  EXPECT_EQ(Type::ParsePrimitive("timestamptz").value()->id(), TypeId::kTimestampTz);
  EXPECT_FALSE(Type::ParsePrimitive("decimal(39,1)").has_value());
  EXPECT_FALSE(Type::ParsePrimitive("varchar").has_value());
}

// A top-level field whose type nests `levels` structs (level 1 = its own type).
Result<Schema> NestedStructs(int levels) {
  int32_t id = levels + 1;
  TypePtr type = Type::Struct({{id, "leaf", false, Type::Int(), ""}});
  for (int level = levels; level > 1; --level) {
    type = Type::Struct({{--id, "s", false, type, ""}});
  }
  return Schema::Make(0, {{--id, "top", false, type, ""}});
}

TEST(SchemaTest, NestingUpToTheLimitIsAcceptedAndOneMoreRefused) {
  auto at_limit = NestedStructs(kMaxTypeNesting);
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().ToString();
  EXPECT_EQ(at_limit->HighestFieldId(), kMaxTypeNesting + 1);
  auto deeper = NestedStructs(kMaxTypeNesting + 1);
  ASSERT_FALSE(deeper.has_value());
  EXPECT_EQ(deeper.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(deeper.error().message().find("deeper than 100 levels"), std::string::npos)
      << deeper.error().message();
}

TEST(SchemaTest, ListsAndMapsCountAsLevels) {
  TypePtr type = Type::Int();
  int32_t id = 1000;
  for (int level = 0; level < kMaxTypeNesting; ++level) {
    if (level % 2 == 0) {
      type = Type::List(++id, false, type);
    } else {
      const int32_t key_id = ++id;
      const int32_t value_id = ++id;
      type = Type::Map(key_id, Type::String(), value_id, false, type);
    }
  }
  EXPECT_TRUE(Schema::Make(0, {{1, "x", false, type, ""}}).has_value());
  type = Type::List(++id, false, type);
  EXPECT_FALSE(Schema::Make(0, {{1, "x", false, type, ""}}).has_value());
}

}  // namespace
}  // namespace st::iceberg
