#include "common/json_nesting.h"

#include <gtest/gtest.h>

#include <string>

namespace st {
namespace {

std::string Nested(int depth, char open, char close) {
  return std::string(static_cast<size_t>(depth), open) +
         std::string(static_cast<size_t>(depth), close);
}

TEST(JsonNestingTest, AcceptsTheLimitAndRefusesOneMore) {
  EXPECT_TRUE(CheckJsonNesting(Nested(kMaxJsonNesting, '[', ']'), "body").ok());
  Status too_deep = CheckJsonNesting(Nested(kMaxJsonNesting + 1, '[', ']'), "request body");
  EXPECT_EQ(too_deep.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(too_deep.message().find("request body nests JSON arrays/objects deeper than 512"),
            std::string::npos)
      << too_deep.message();
}

TEST(JsonNestingTest, CountsObjectsAndArraysTogether) {
  std::string text;
  for (int i = 0; i < 3; ++i) text += "{\"a\":[";
  text += "1";
  for (int i = 0; i < 3; ++i) text += "]}";
  EXPECT_TRUE(CheckJsonNesting(text, "x", 6).ok());
  EXPECT_FALSE(CheckJsonNesting(text, "x", 5).ok());
}

TEST(JsonNestingTest, IgnoresBracketsInsideStringsAndEscapedQuotes) {
  EXPECT_TRUE(CheckJsonNesting(R"({"a":"[[[[{{{{"})", "x", 1).ok());
  EXPECT_TRUE(CheckJsonNesting(R"({"a":"\"[[[["})", "x", 1).ok());
  EXPECT_TRUE(CheckJsonNesting(R"({"a":"\\"})", "x", 1).ok());
  // After an escaped backslash the quote ends the string: the bracket counts.
  EXPECT_FALSE(CheckJsonNesting(R"({"a":"\\",[1]})", "x", 1).ok());
}

TEST(JsonNestingTest, SiblingsDoNotAddUp) {
  std::string text = "[";
  for (int i = 0; i < 10000; ++i) text += "[],";
  text += "[]]";
  EXPECT_TRUE(CheckJsonNesting(text, "x", 2).ok());
}

TEST(JsonNestingTest, StrayClosersDoNotHideDepth) {
  EXPECT_FALSE(CheckJsonNesting("]]]]" + Nested(3, '[', ']'), "x", 2).ok());
}

}  // namespace
}  // namespace st
