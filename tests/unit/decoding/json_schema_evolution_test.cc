// EvolveForJsonSchema: new optional fields (fresh ids, at every struct
// level), promotions and required → optional evolve the table; the same
// columns, fewer optional ones or narrower types leave it as is; anything
// else is refused naming the field.
#include "decoding/json_schema_evolution.h"

#include <gtest/gtest.h>

#include "decoding/channel_schema.h"

namespace st::decoding {
namespace {

using iceberg::NestedField;
using iceberg::Type;

iceberg::Schema MustSchema(std::vector<NestedField> fields) {
  auto schema = iceberg::Schema::Make(0, std::move(fields));
  EXPECT_TRUE(schema.has_value()) << (schema ? "" : schema.error().ToString());
  return *schema;
}

// id long required, name string, address {street string required}, _kafka-like tail.
iceberg::Schema Table() {
  return MustSchema({
      {1, "id", true, Type::Long(), ""},
      {2, "name", false, Type::String(), ""},
      {3, "address", false, Type::Struct({{5, "street", true, Type::String(), ""}}), ""},
      {4, "tags", false, Type::List(6, true, Type::String()), ""},
      {7, std::string(kKafkaMetadataColumn), false,
       Type::Struct({{8, "partition", true, Type::Int(), ""}}), ""},
  });
}

// What a version maps to: its own ids, and its own _kafka ids (not compared).
iceberg::Schema Version(std::vector<NestedField> extra_top, std::vector<NestedField> extra_address,
                        bool name_required = false) {
  std::vector<NestedField> address = {{15, "street", true, Type::String(), ""}};
  for (auto& f : extra_address) address.push_back(f);
  std::vector<NestedField> fields = {
      {11, "id", true, Type::Long(), ""},
      {12, "name", name_required, Type::String(), ""},
      {13, "address", false, Type::Struct(address), ""},
      {14, "tags", false, Type::List(16, true, Type::String()), ""},
  };
  for (auto& f : extra_top) fields.push_back(f);
  fields.push_back({90, std::string(kKafkaMetadataColumn), false,
                    Type::Struct({{91, "partition", true, Type::Int(), ""}}), ""});
  return MustSchema(std::move(fields));
}

TEST(JsonSchemaEvolutionTest, TheSameColumnsLeaveTheTable) {
  auto evolved = EvolveForJsonSchema(Table(), Version({}, {}));
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  EXPECT_FALSE(evolved->changed);
  EXPECT_TRUE(evolved->schema.SameStructure(Table()));
  // Fewer optional columns decode into the same table (they are null).
  auto fewer = EvolveForJsonSchema(
      Table(), MustSchema({{11, "id", true, Type::Long(), ""},
                           {13, "address", false,
                            Type::Struct({{15, "street", true, Type::String(), ""}}), ""}}));
  ASSERT_TRUE(fewer.has_value()) << fewer.error().ToString();
  EXPECT_FALSE(fewer->changed);
}

TEST(JsonSchemaEvolutionTest, NewOptionalFieldsGetFreshIdsAtEveryLevel) {
  auto evolved = EvolveForJsonSchema(
      Table(), Version({{20, "note", false, Type::String(), ""},
                        {21, "counts", false,
                         Type::Map(22, Type::String(), 23, false,
                                   Type::Struct({{24, "n", false, Type::Long(), ""}})),
                         ""}},
                       {{25, "zip", false, Type::Int(), ""}}));
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  EXPECT_TRUE(evolved->changed);
  const iceberg::Schema& s = evolved->schema;
  EXPECT_EQ(s.schema_id(), 1);
  // Existing ids are kept; new ones come above the table's highest (8).
  EXPECT_EQ(s.FindFieldByName("id")->id, 1);
  EXPECT_EQ(s.FindFieldByName("address.street")->id, 5);
  ASSERT_NE(s.FindFieldByName("address.zip"), nullptr);
  ASSERT_NE(s.FindFieldByName("note"), nullptr);
  ASSERT_NE(s.FindFieldByName("counts"), nullptr);
  // The nested struct's new member is numbered first (address comes first),
  // then the new top-level fields, then their nested types.
  EXPECT_EQ(s.FindFieldByName("address.zip")->id, 9);
  EXPECT_EQ(s.FindFieldByName("note")->id, 10);
  EXPECT_EQ(s.FindFieldByName("counts")->id, 11);
  EXPECT_EQ(s.FindFieldByName("counts")->type->key().id, 12);
  EXPECT_EQ(s.FindFieldByName("counts")->type->value().id, 13);
  EXPECT_EQ(s.FindFieldByName("counts")->type->value().type->fields()[0].id, 14);
  EXPECT_EQ(s.HighestFieldId(), 14);
  EXPECT_FALSE(s.FindFieldByName("note")->required);
  // _kafka stays last, with its ids.
  EXPECT_EQ(s.fields().back().name, kKafkaMetadataColumn);
  EXPECT_EQ(s.fields().back().id, 7);
}

TEST(JsonSchemaEvolutionTest, OtherChangesAreRefusedNamingTheField) {
  const std::pair<iceberg::Schema, std::string> cases[] = {
      {Version({{20, "note", true, Type::String(), ""}}, {}), "field note is new and required"},
      {Version({}, {{25, "zip", true, Type::Int(), ""}}), "field address.zip is new and required"},
      {MustSchema({{11, "id", true, Type::String(), ""}}),
       "field id is long in the table and string"},
      {MustSchema({{11, "id", true, Type::Double(), ""}}),
       "field id is long in the table and double"},
      {MustSchema({{12, "name", false, Type::String(), ""}}),
       "field id is required in the table and not in the version"},
      {MustSchema({{11, "id", true, Type::Long(), ""}, {13, "address", false, Type::String(), ""}}),
       "field address is struct"},
  };
  for (const auto& [version, message] : cases) {
    auto evolved = EvolveForJsonSchema(Table(), version);
    ASSERT_FALSE(evolved.has_value()) << message;
    EXPECT_EQ(evolved.error().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(evolved.error().message().find(message), std::string::npos)
        << evolved.error().message();
  }
}

TEST(JsonSchemaEvolutionTest, PromotionsAndRelaxedRequirednessEvolveTheTable) {
  const iceberg::Schema table = MustSchema({
      {1, "id", true, Type::Int(), ""},
      {2, "score", true, Type::Float(), ""},
      {3, "price", false, Type::Decimal(10, 2), ""},
      {4, "tags", false, Type::List(5, true, Type::String()), ""},
      {6, "counts", false, Type::Map(7, Type::String(), 8, true, Type::Int()), ""},
      {9, "name", false, Type::String(), ""},
  });
  const iceberg::Schema version = MustSchema({
      {11, "id", true, Type::Long(), ""},
      {12, "score", false, Type::Double(), ""},
      {13, "price", false, Type::Decimal(20, 2), ""},
      {14, "tags", false, Type::List(15, false, Type::String()), ""},
      {16, "counts", false, Type::Map(17, Type::String(), 18, false, Type::Long()), ""},
      {19, "name", true, Type::String(), ""},  // Required here: the column stays optional.
  });
  auto evolved = EvolveForJsonSchema(table, version);
  ASSERT_TRUE(evolved.has_value()) << evolved.error().ToString();
  ASSERT_TRUE(evolved->changed);
  const iceberg::Schema& s = evolved->schema;
  EXPECT_EQ(s.FindFieldByName("id")->type->id(), iceberg::TypeId::kLong);
  EXPECT_TRUE(s.FindFieldByName("id")->required);
  EXPECT_EQ(s.FindFieldByName("score")->type->id(), iceberg::TypeId::kDouble);
  EXPECT_FALSE(s.FindFieldByName("score")->required);
  EXPECT_EQ(s.FindFieldByName("price")->type->precision(), 20);
  EXPECT_FALSE(s.FindFieldByName("tags")->type->element().required);
  EXPECT_FALSE(s.FindFieldByName("counts")->type->value().required);
  EXPECT_EQ(s.FindFieldByName("counts")->type->value().type->id(), iceberg::TypeId::kLong);
  EXPECT_FALSE(s.FindFieldByName("name")->required);
  EXPECT_EQ(s.FindFieldByName("id")->id, 1);  // Ids are kept.
  EXPECT_EQ(s.HighestFieldId(), table.HighestFieldId());

  // The narrower first version fits the evolved table unchanged.
  auto again = EvolveForJsonSchema(s, table);
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_FALSE(again->changed);
  // A narrower decimal scale is another type.
  auto scale = EvolveForJsonSchema(s, MustSchema({{11, "id", true, Type::Long(), ""},
                                                  {13, "price", false, Type::Decimal(20, 3), ""}}));
  ASSERT_FALSE(scale.has_value());
  EXPECT_NE(scale.error().message().find("field price"), std::string::npos);
}

}  // namespace
}  // namespace st::decoding
