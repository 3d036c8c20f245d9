// EvolveForJsonSchema: new optional fields evolve the table (fresh ids, at
// every struct level); the same columns, or fewer optional ones, leave it
// as is; anything else is refused naming the field.
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
      {Version({}, {}, true), "field name is optional in the table, required in the version"},
      {MustSchema({{11, "id", true, Type::Int(), ""}}), "field id is long in the table and int"},
      {MustSchema({{12, "name", false, Type::String(), ""}}),
       "field id is required in the table and not in the version"},
      {MustSchema({{11, "id", true, Type::Long(), ""},
                   {14, "tags", false, Type::List(16, false, Type::String()), ""}}),
       "field tags has elements of another requiredness"},
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

}  // namespace
}  // namespace st::decoding
