#include "common/json_fields.h"

#include <gtest/gtest.h>

namespace st::json_fields {
namespace {

// Spells out every part of the problem, so the tests see what the accessors report.
std::string Spell(const FieldProblem& problem, std::string_view context) {
  const char* kind = problem.kind == FieldProblem::Kind::kMissing     ? "missing"
                     : problem.kind == FieldProblem::Kind::kWrongType ? "wrong"
                                                                      : "range";
  return std::string(context) + "|" + kind + "|" + problem.member + "|" +
         std::to_string(static_cast<int>(problem.expected)) + "|" +
         (problem.found == nullptr ? "-" : problem.found->dump());
}

constexpr FieldWording kSpell{&Spell, "ctx"};

const nlohmann::json kDoc = nlohmann::json::parse(R"({
  "s": "x", "empty": "", "n": null, "i": 7, "big": 9223372036854775808, "neg": -5,
  "f": 1.5, "b": true, "o": {"k": "v"}, "bad_map": {"k": 1}, "a": ["p", "q"], "bad_a": ["p", 2]
})");

std::string ErrorOf(const Status& status) { return status.message(); }

TEST(JsonFieldsTest, Strings) {
  EXPECT_EQ(*RequiredString(kDoc, "s", kSpell), "x");
  EXPECT_EQ(ErrorOf(RequiredString(kDoc, "n", kSpell).error()), "ctx|missing|n|0|-");
  EXPECT_EQ(ErrorOf(RequiredString(kDoc, "i", kSpell).error()), "ctx|wrong|i|0|7");
  EXPECT_FALSE(OptionalString(kDoc, "absent", kSpell)->has_value());
  EXPECT_EQ(ErrorOf(RequiredNonEmptyString(kDoc, "empty", kSpell).error()),
            "ctx|wrong|empty|1|\"\"");
  EXPECT_FALSE(OptionalString(nlohmann::json::array(), "s", kSpell)->has_value());
}

TEST(JsonFieldsTest, IntegersAndBooleans) {
  EXPECT_EQ(**OptionalInt(kDoc, "i", kSpell, 0, 10), 7);
  EXPECT_EQ(ErrorOf(OptionalInt(kDoc, "i", kSpell, 0, 5).error()), "ctx|range|i|3|7");
  EXPECT_EQ(ErrorOf(OptionalInt(kDoc, "neg", kSpell, 0, 5).error()), "ctx|range|neg|3|-5");
  EXPECT_EQ(ErrorOf(OptionalInt(kDoc, "big", kSpell).error()),
            "ctx|range|big|3|9223372036854775808");
  EXPECT_EQ(ErrorOf(OptionalInt(kDoc, "f", kSpell).error()), "ctx|wrong|f|3|1.5");
  EXPECT_EQ(**OptionalBool(kDoc, "b", kSpell), true);
  EXPECT_EQ(ErrorOf(OptionalBool(kDoc, "s", kSpell).error()), "ctx|wrong|s|2|\"x\"");
}

TEST(JsonFieldsTest, ObjectsArraysAndMaps) {
  EXPECT_EQ((*OptionalObject(kDoc, "o", kSpell))->at("k"), "v");
  EXPECT_EQ(*OptionalObject(kDoc, "absent", kSpell), nullptr);
  EXPECT_EQ(ErrorOf(OptionalObject(kDoc, "a", kSpell).error()), "ctx|wrong|a|4|[\"p\",\"q\"]");
  EXPECT_EQ(ErrorOf(OptionalArray(kDoc, "o", kSpell).error()), "ctx|wrong|o|5|{\"k\":\"v\"}");
  EXPECT_EQ(OptionalStringMap(kDoc, "o", kSpell)->at("k"), "v");
  EXPECT_EQ(ErrorOf(OptionalStringMap(kDoc, "bad_map", kSpell).error()), "ctx|wrong|bad_map.k|0|1");
  EXPECT_EQ(ErrorOf(OptionalStringMap(kDoc, "s", kSpell).error()), "ctx|wrong|s|6|\"x\"");
  EXPECT_EQ(*RequiredStringArray(kDoc, "a", kSpell), (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(ErrorOf(RequiredStringArray(kDoc, "bad_a", kSpell).error()), "ctx|wrong|bad_a|7|2");
  EXPECT_EQ(ErrorOf(RequiredStringArray(kDoc, "absent", kSpell).error()), "ctx|missing|absent|7|-");
}

TEST(JsonFieldsTest, TypeNames) {
  EXPECT_STREQ(JsonTypeName(kDoc["s"]), "a string");
  EXPECT_STREQ(JsonTypeName(kDoc["big"]), "an integer");
  EXPECT_STREQ(JsonTypeName(kDoc["f"]), "a number");
  EXPECT_STREQ(JsonTypeName(kDoc["a"]), "a list");
  EXPECT_STREQ(JsonTypeName(kDoc["n"]), "null");
}

TEST(JsonFieldsTest, AwsJsonBodies) {
  Result<nlohmann::json> empty = ParseAwsJsonBody("");
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->is_object() && empty->empty());
  Result<nlohmann::json> body = ParseAwsJsonBody(R"({"KeyId": "k"})");
  ASSERT_TRUE(body.has_value());
  EXPECT_EQ((*body)["KeyId"], "k");
  for (const char* bad : {"[1]", "\"s\"", "{", "{\"a\": 1} trailing"}) {
    Result<nlohmann::json> parsed = ParseAwsJsonBody(bad);
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_EQ(parsed.error().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(parsed.error().message(), "the request body is not a JSON object") << bad;
  }
  Result<nlohmann::json> deep = ParseAwsJsonBody(std::string(1000, '[') + std::string(1000, ']'));
  ASSERT_FALSE(deep.has_value());
  EXPECT_EQ(deep.error().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace st::json_fields
