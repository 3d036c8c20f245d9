#include <gtest/gtest.h>

#include <string>

#include "common/json_nesting.h"
#include "registry/definition_key_internal.h"

namespace st::registry::internal {
namespace {

std::string NestedArrays(int depth) {
  return std::string(static_cast<size_t>(depth), '[') +
         std::string(static_cast<size_t>(depth), ']');
}

TEST(DefinitionKeyTest, JsonNestedToTheLimitIsKeyedAndOneMoreIsRefused) {
  for (const char* format : {"JSON", "AVRO"}) {
    auto at_limit = DefinitionKey(format, NestedArrays(kMaxJsonNesting));
    if (std::string(format) == "JSON") {
      ASSERT_TRUE(at_limit.has_value()) << at_limit.error().ToString();
      EXPECT_EQ(*at_limit, NestedArrays(kMaxJsonNesting));
    } else {
      // Nested unions are no Avro schema: parsed, then refused as such.
      ASSERT_FALSE(at_limit.has_value());
      EXPECT_NE(at_limit.error().message().find("AVRO data format is invalid"), std::string::npos);
    }
    auto deeper = DefinitionKey(format, NestedArrays(kMaxJsonNesting + 1));
    ASSERT_FALSE(deeper.has_value());
    EXPECT_EQ(deeper.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(deeper.error().message().find(std::string("Schema definition of ") + format +
                                            " data format nests JSON arrays/objects deeper "
                                            "than 512"),
              std::string::npos)
        << deeper.error().message();
  }
  // PROTOBUF definitions are text, never parsed.
  EXPECT_TRUE(DefinitionKey("PROTOBUF", NestedArrays(100000)).has_value());
}

TEST(DefinitionKeyTest, AvroDefinitionsAreParsedAsAvroSchemas) {
  auto record =
      DefinitionKey("AVRO", R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"}]})");
  ASSERT_TRUE(record.has_value()) << record.error().ToString();
  EXPECT_TRUE(DefinitionKey("AVRO", R"("string")").has_value());
  for (const char* bad : {R"({"type":"record","name":"r"})", R"({"type":"nosuchtype"})",
                          R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"},)"
                          R"({"name":"a","type":"long"}]})"}) {
    auto refused = DefinitionKey("AVRO", bad);
    ASSERT_FALSE(refused.has_value()) << bad;
    EXPECT_EQ(refused.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(refused.error().message().find("Schema definition of AVRO data format is invalid: "),
              std::string::npos)
        << refused.error().message();
  }
  // The same text under JSON is only keyed.
  EXPECT_TRUE(DefinitionKey("JSON", R"({"type":"nosuchtype"})").has_value());
}

}  // namespace
}  // namespace st::registry::internal
