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
    ASSERT_TRUE(at_limit.has_value()) << at_limit.error().ToString();
    EXPECT_EQ(*at_limit, NestedArrays(kMaxJsonNesting));
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

}  // namespace
}  // namespace st::registry::internal
