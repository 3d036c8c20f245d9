#include "decoding/channel_schema.h"

#include <gtest/gtest.h>

namespace st::decoding {
namespace {

using iceberg::NestedField;
using iceberg::Type;

iceberg::Schema ValueSchema() {
  return *iceberg::Schema::Make(
      0, {{1, "event_time", false, Type::TimestampTz(), ""},
          {2, "user", false, Type::Struct({{3, "id", true, Type::Long(), ""}}), ""},
          {4, "n", false, Type::Int(), ""}});
}

TEST(ChannelSchemaTest, JsonSchemaGetsKafkaMetadataAndRequiredSource) {
  auto schema = ChannelTableSchema(ValueFormat::kJson, ValueSchema(), true, "event_time");
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  ASSERT_EQ(schema->fields().size(), 4u);
  EXPECT_TRUE(schema->fields()[0].required);  // Partition source becomes required.
  const auto& kafka = schema->fields()[3];
  EXPECT_EQ(kafka.name, "_kafka");
  EXPECT_EQ(kafka.id, 5);
  EXPECT_FALSE(kafka.required);
  ASSERT_EQ(kafka.type->fields().size(), 5u);
  EXPECT_EQ(schema->FindFieldByName("_kafka.partition")->id, 6);
  EXPECT_EQ(schema->FindFieldByName("_kafka.offset")->type->id(), iceberg::TypeId::kLong);
  EXPECT_EQ(schema->FindFieldByName("_kafka.timestamp")->type->id(), iceberg::TypeId::kTimestampTz);
  EXPECT_EQ(schema->FindFieldByName("_kafka.key")->type->id(), iceberg::TypeId::kBinary);
  const auto* headers = schema->FindFieldByName("_kafka.headers");
  EXPECT_EQ(headers->type->ToString(), "map<string, binary>");
  EXPECT_EQ(schema->HighestFieldId(), 12);

  auto spec = ChannelPartitionSpec(*schema, false, "event_time");
  ASSERT_TRUE(spec.has_value()) << spec.error().ToString();
  ASSERT_EQ(spec->fields().size(), 1u);
  EXPECT_EQ(spec->fields()[0].name, "event_time_hour");
  EXPECT_EQ(spec->fields()[0].source_id, 1);
  EXPECT_EQ(spec->fields()[0].field_id, 1000);
  EXPECT_EQ(spec->fields()[0].transform, iceberg::Transform::Hour());
  auto daily = ChannelPartitionSpec(*schema, true, std::nullopt);
  ASSERT_TRUE(daily.has_value());
  EXPECT_EQ(daily->fields()[0].name, "_kafka_timestamp_day");
  EXPECT_EQ(daily->fields()[0].source_id, 8);
  EXPECT_EQ(daily->fields()[0].transform, iceberg::Transform::Day());
}

TEST(ChannelSchemaTest, RawFormatsHaveOneValueColumn) {
  auto bytes = ChannelTableSchema(ValueFormat::kByteArray, std::nullopt, false, std::nullopt);
  ASSERT_TRUE(bytes.has_value());
  ASSERT_EQ(bytes->fields().size(), 1u);
  EXPECT_EQ(bytes->fields()[0].name, "value");
  EXPECT_EQ(bytes->fields()[0].type->id(), iceberg::TypeId::kBinary);
  auto text = ChannelTableSchema(ValueFormat::kString, std::nullopt, true, std::nullopt);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->fields()[0].type->id(), iceberg::TypeId::kString);
  EXPECT_EQ(text->fields()[1].name, "_kafka");
  EXPECT_EQ(text->fields()[1].id, 2);
}

TEST(ChannelSchemaTest, Errors) {
  auto e = ChannelTableSchema(ValueFormat::kJson, std::nullopt, true, std::nullopt);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message().find("needs the value schema"), std::string::npos);
  e = ChannelTableSchema(ValueFormat::kJson, ValueSchema(), true, "missing");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message().find("'missing' is not a top-level property"), std::string::npos);
  e = ChannelTableSchema(ValueFormat::kJson, ValueSchema(), true, "n");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message().find("'n' is int; it must be a string with format date-time"),
            std::string::npos);
  e = ChannelTableSchema(ValueFormat::kString, std::nullopt, true, "event_time");
  ASSERT_FALSE(e.has_value());
  auto reserved = *iceberg::Schema::Make(0, {{1, "_kafka", false, Type::String(), ""}});
  e = ChannelTableSchema(ValueFormat::kJson, reserved, true, std::nullopt);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message().find("reserved"), std::string::npos);

  auto no_meta = ChannelTableSchema(ValueFormat::kJson, ValueSchema(), false, std::nullopt);
  ASSERT_TRUE(no_meta.has_value());
  auto spec = ChannelPartitionSpec(*no_meta, false, std::nullopt);
  ASSERT_FALSE(spec.has_value());
  EXPECT_NE(spec.error().message().find("includeKafkaMetadata"), std::string::npos);
  spec = ChannelPartitionSpec(*no_meta, false, "n");
  ASSERT_FALSE(spec.has_value());
  EXPECT_NE(spec.error().message().find("must be timestamptz"), std::string::npos);
}

}  // namespace
}  // namespace st::decoding
