// JSON Schema compatibility: each rule in both directions as a table of (old
// schema, new schema, what BACKWARD reports = the new reads the old's data,
// what FORWARD reports = the old reads the new's), hostile schemas, and the
// registry composing levels with injected checkers.
#include "registry/confluent_json_compatibility.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "registry/confluent_registry.h"
#include "registry/json_ref_internal.h"
#include "sqlite/database.h"

namespace st::registry::confluent {
namespace {

RegisteredSchema JsonText(const std::string& text,
                          std::vector<std::pair<std::string, std::string>> references = {}) {
  return RegisteredSchema{"JSON", text, std::move(references)};
}

// "" when compatible; else all messages joined.
std::string JsonCheck(const RegisteredSchema& reader, const RegisteredSchema& writer) {
  Result<std::vector<std::string>> got = JsonSchemaReadIncompatibilities(reader, writer);
  if (!got.has_value()) return "error: " + got.error().message();
  std::string out;
  for (const std::string& m : *got) out += (out.empty() ? "" : " | ") + m;
  return out;
}

struct JsonCase {
  const char* name;
  std::string old_schema;
  std::string new_schema;
  std::string backward;  // Substring expected; "" = compatible.
  std::string forward;
};

void ExpectJsonCase(const JsonCase& c) {
  const std::string backward = JsonCheck(JsonText(c.new_schema), JsonText(c.old_schema));
  const std::string forward = JsonCheck(JsonText(c.old_schema), JsonText(c.new_schema));
  if (c.backward.empty()) {
    EXPECT_EQ(backward, "") << c.name << " (backward)";
  } else {
    EXPECT_NE(backward.find(c.backward), std::string::npos)
        << c.name << " (backward): " << backward;
  }
  if (c.forward.empty()) {
    EXPECT_EQ(forward, "") << c.name << " (forward)";
  } else {
    EXPECT_NE(forward.find(c.forward), std::string::npos) << c.name << " (forward): " << forward;
  }
}

std::string ObjectSchema(const std::string& properties, const std::string& extra = "") {
  return R"({"type":"object","properties":{)" + properties + "}" + extra + "}";
}

TEST(ConfluentJsonCompatibility, RulesInBothDirections) {
  const std::vector<JsonCase> cases = {
      {"identical", ObjectSchema(R"("a":{"type":"string"})"),
       ObjectSchema(R"("a":{"type":"string"})"), "", ""},
      {"integer widened to number", ObjectSchema(R"("a":{"type":"integer"})"),
       ObjectSchema(R"("a":{"type":"number"})"), "",
       "at #/properties/a: TYPE_CHANGED, the writer may write [number], the reader accepts "
       "[integer]"},
      {"string to integer", ObjectSchema(R"("a":{"type":"string"})"),
       ObjectSchema(R"("a":{"type":"integer"})"),
       "at #/properties/a: TYPE_CHANGED, the writer may write [string]",
       "at #/properties/a: TYPE_CHANGED, the writer may write [integer]"},
      {"made nullable", ObjectSchema(R"("a":{"type":"string"})"),
       ObjectSchema(R"("a":{"type":["string","null"]})"), "",
       "TYPE_CHANGED, the writer may write [null]"},
      {"type removed", ObjectSchema(R"("a":{"type":"string"})"), ObjectSchema(R"("a":{})"), "",
       "TYPE_NARROWED, the reader accepts only [string], the writer any type"},
      {"closed model: property added",
       ObjectSchema(R"("a":{"type":"string"})", R"(,"additionalProperties":false)"),
       ObjectSchema(R"("a":{"type":"string"},"b":{"type":"integer"})",
                    R"(,"additionalProperties":false)"),
       "",
       "at #/properties/b: PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL, the writer may write "
       "property b"},
      {"open model: property added", ObjectSchema(R"("a":{"type":"string"})"),
       ObjectSchema(R"("a":{"type":"string"},"b":{"type":"integer"})"),
       "at #/properties/b: PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, property b is new in the reader",
       ""},
      {"open model: unconstrained property added", ObjectSchema(R"("a":{"type":"string"})"),
       ObjectSchema(R"("a":{"type":"string"},"b":{"description":"anything"})"), "", ""},
      {"partially open model: property added",
       ObjectSchema(R"("a":{"type":"string"})", R"(,"additionalProperties":{"type":"integer"})"),
       ObjectSchema(R"("a":{"type":"string"},"b":{"type":"number"})",
                    R"(,"additionalProperties":{"type":"integer"})"),
       "", "at #/properties/b: TYPE_CHANGED, the writer may write [number]"},
      {"additionalProperties closed", ObjectSchema(R"("a":{"type":"string"})"),
       ObjectSchema(R"("a":{"type":"string"})", R"(,"additionalProperties":false)"),
       "at #: ADDITIONAL_PROPERTIES_NARROWED", ""},
      {"additionalProperties schema changed",
       ObjectSchema(R"("a":{"type":"string"})", R"(,"additionalProperties":{"type":"string"})"),
       ObjectSchema(R"("a":{"type":"string"})", R"(,"additionalProperties":{"type":"integer"})"),
       "at #/additionalProperties: TYPE_CHANGED", "at #/additionalProperties: TYPE_CHANGED"},
      {"required grows",
       ObjectSchema(R"("a":{"type":"string"},"b":{"type":"string"})", R"(,"required":["a"])"),
       ObjectSchema(R"("a":{"type":"string"},"b":{"type":"string"})", R"(,"required":["a","b"])"),
       "at #: REQUIRED_ATTRIBUTE_ADDED, property b is required by the reader", ""},
      {"enum widened", R"({"enum":["x","y"]})", R"({"enum":["x","y","z"]})", "",
       R"(at #: ENUM_ARRAY_NARROWED, the writer may write "z")"},
      {"enum added", R"({"type":"string"})", R"({"type":"string","enum":["x"]})",
       "ENUM_ARRAY_NARROWED, the reader allows only the values of its enum/const", ""},
      {"const kept in enum", R"({"const":"x"})", R"({"enum":["x","y"]})", "",
       "ENUM_ARRAY_NARROWED"},
      {"maxLength tightened", R"({"type":"string","maxLength":10})",
       R"({"type":"string","maxLength":5})", "at #: MAX_LENGTH_DECREASED, the reader's maxLength 5",
       ""},
      {"minLength added", R"({"type":"string"})", R"({"type":"string","minLength":1})",
       "MIN_LENGTH_INCREASED", ""},
      {"pattern changed", R"({"type":"string","pattern":"^a"})",
       R"({"type":"string","pattern":"^b"})", "PATTERN_CHANGED", "PATTERN_CHANGED"},
      {"minimum raised", R"({"type":"integer","minimum":0})", R"({"type":"integer","minimum":1})",
       "at #: MINIMUM_INCREASED, the reader's bound 1", ""},
      {"maximum made exclusive (draft 6)", R"({"type":"number","maximum":10})",
       R"({"type":"number","exclusiveMaximum":10})", "MAXIMUM_DECREASED", ""},
      {"maximum made exclusive (draft 4)", R"({"type":"number","maximum":10})",
       R"({"type":"number","maximum":10,"exclusiveMaximum":true})", "MAXIMUM_DECREASED", ""},
      {"multipleOf", R"({"type":"integer","multipleOf":4})", R"({"type":"integer","multipleOf":2})",
       "", "MULTIPLE_OF_CHANGED"},
      {"items type", R"({"type":"array","items":{"type":"integer"}})",
       R"({"type":"array","items":{"type":"string"}})", "at #/items: TYPE_CHANGED",
       "at #/items: TYPE_CHANGED"},
      {"maxItems added", R"({"type":"array"})", R"({"type":"array","maxItems":3})",
       "MAX_ITEMS_DECREASED", ""},
      {"nested object", ObjectSchema(R"("addr":)" + ObjectSchema(R"("zip":{"type":"string"})")),
       ObjectSchema(R"("addr":)" + ObjectSchema(R"("zip":{"type":"integer"})")),
       "at #/properties/addr/properties/zip: TYPE_CHANGED",
       "at #/properties/addr/properties/zip: TYPE_CHANGED"},
      {"$ref within the document",
       R"({"$defs":{"A":{"type":"string"}},"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}})",
       R"({"$defs":{"A":{"type":"integer"}},"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}})",
       "at #/properties/a: TYPE_CHANGED", "at #/properties/a: TYPE_CHANGED"},
      {"recursive $ref",
       R"({"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#"}}}})",
       R"({"type":"object","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$ref":"#"}}}})",
       "", "at #/properties/v: TYPE_CHANGED"},
      {"dangling $ref", R"({"$ref":"#/nope"})", R"({"$ref":"#/nope"})",
       "NOT_COMPARED, $ref #/nope does not resolve", "NOT_COMPARED"},
      {"writer anyOf", R"({"anyOf":[{"type":"string"},{"type":"integer"}]})",
       R"({"type":"string"})", "at #/anyOf/1: TYPE_CHANGED", ""},
      {"reader oneOf", R"({"type":"string"})", R"({"oneOf":[{"type":"string"},{"type":"null"}]})",
       "", "at #/oneOf/1: TYPE_CHANGED, the writer may write [null]"},
      {"reader anyOf without a matching branch", R"({"type":"boolean"})",
       R"({"anyOf":[{"type":"string"},{"type":"null"}]})",
       "COMBINED_TYPE_SUBSCHEMAS_CHANGED, no branch of the reader's anyOf",
       "at #/anyOf/0: TYPE_CHANGED, the writer may write [string]"},
      {"not modelled: not", R"({"type":"string"})", R"({"type":"string","not":{"const":"x"}})",
       "NOT_COMPARED, the reader's not differs", ""},
      {"patternProperties", ObjectSchema(R"("a":{})"),
       ObjectSchema(R"("a":{})", R"(,"patternProperties":{"^x":{"type":"string"}})"),
       "NOT_COMPARED, patternProperties differ", "NOT_COMPARED, patternProperties differ"},
      {"annotations ignored", R"({"type":"string","title":"a","description":"b"})",
       R"({"type":"string","title":"c","default":"x","x-extension":1})", "", ""},
      {"boolean schemas", "true", "false", "TYPE_NARROWED, the reader accepts nothing", ""},
  };
  for (const JsonCase& c : cases) ExpectJsonCase(c);
}

TEST(ConfluentJsonCompatibility, ReferencesResolveByName) {
  const std::string main =
      R"({"type":"object","properties":{"a":{"$ref":"other.json#/definitions/A"}}})";
  const std::string v1 = R"({"definitions":{"A":{"type":"integer"}}})";
  const std::string v2 = R"({"definitions":{"A":{"type":"boolean"}}})";
  EXPECT_EQ(JsonCheck(JsonText(main, {{"other.json", v1}}), JsonText(main, {{"other.json", v1}})),
            "");
  EXPECT_NE(JsonCheck(JsonText(main, {{"other.json", v2}}), JsonText(main, {{"other.json", v1}}))
                .find("at #/properties/a: TYPE_CHANGED"),
            std::string::npos);
  EXPECT_NE(JsonCheck(JsonText(main), JsonText(main)).find("names neither this schema"),
            std::string::npos);
}

TEST(ConfluentJsonCompatibility, ReferencesResolveAgainstTheId) {
  const std::string main = R"({"$id":"https://example.com/s/order.json","type":"object",
      "properties":{"a":{"$ref":"other.json#/definitions/A"}}})";
  const std::string v1 = R"({"definitions":{"A":{"type":"integer"}}})";
  const std::string v2 = R"({"definitions":{"A":{"type":"boolean"}}})";
  const std::string name = "https://example.com/s/other.json";
  EXPECT_EQ(JsonCheck(JsonText(main, {{name, v1}}), JsonText(main, {{name, v1}})), "");
  EXPECT_NE(
      JsonCheck(JsonText(main, {{name, v2}}), JsonText(main, {{name, v1}})).find("TYPE_CHANGED"),
      std::string::npos);
}

TEST(JsonRefCandidateNames, RelativeNamesResolveAgainstAnAbsoluteId) {
  using V = std::vector<std::string>;
  EXPECT_EQ(JsonRefCandidateNames("a.json", ""), V{"a.json"});
  EXPECT_EQ(JsonRefCandidateNames("a.json", "order.json"), V{"a.json"});
  EXPECT_EQ(JsonRefCandidateNames("a.json", "https://h.example/s/order.json#x"),
            (V{"a.json", "https://h.example/s/a.json"}));
  EXPECT_EQ(JsonRefCandidateNames("/t/a.json", "https://h.example/s/order.json"),
            (V{"/t/a.json", "https://h.example/t/a.json"}));
  EXPECT_EQ(JsonRefCandidateNames("//o.example/a.json", "https://h.example/s/o.json"),
            (V{"//o.example/a.json", "https://o.example/a.json"}));
  EXPECT_EQ(JsonRefCandidateNames("a.json", "https://h.example"),
            (V{"a.json", "https://h.example/a.json"}));
  EXPECT_EQ(JsonRefCandidateNames("b", "urn:a"), (V{"b", "urn:b"}));
  EXPECT_EQ(JsonRefCandidateNames("https://x.example/a.json", "https://h.example/s/o.json"),
            V{"https://x.example/a.json"});
}

TEST(ConfluentJsonCompatibility, HostileSchemasAreBounded) {
  EXPECT_NE(JsonCheck(JsonText("{"), JsonText("{}")).find("error: "), std::string::npos);
  EXPECT_NE(JsonCheck(JsonText("42"), JsonText("{}")).find("error: "), std::string::npos);
  EXPECT_FALSE(ValidateJsonSchemaDocument(JsonText("[1]")).ok());
  EXPECT_TRUE(ValidateJsonSchemaDocument(JsonText("{}")).ok());
  // Nesting beyond the JSON text bound is refused before parsing.
  std::string too_deep(600, '[');
  too_deep += std::string(600, ']');
  EXPECT_NE(JsonCheck(JsonText(R"({"enum":)" + too_deep + "}"), JsonText("{}")).find("error: "),
            std::string::npos);
  // 100 schema levels: compared to 64, then reported, not recursed into.
  std::string deep = R"({"type":"string"})";
  for (int i = 0; i < 100; ++i) deep = R"({"type":"array","items":)" + deep + "}";
  EXPECT_NE(JsonCheck(JsonText(deep), JsonText(deep))
                .find("NOT_COMPARED, the schemas nest deeper than 64"),
            std::string::npos);
  // A $ref loop ends.
  EXPECT_NE(
      JsonCheck(
          JsonText(
              R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})"),
          JsonText("{}"))
          .find("NOT_COMPARED, $ref chains longer than 32"),
      std::string::npos);
  // Combinators branching at every level stay within the work bound.
  std::string wide = R"({"type":"string"})";
  for (int i = 0; i < 14; ++i) {
    wide = R"({"anyOf":[)" + wide + "," + wide + R"(,{"type":"integer"}]})";
  }
  if (wide.size() < (1u << 20)) {
    const std::string got = JsonCheck(JsonText(R"({"type":"boolean"})"), JsonText(wide));
    EXPECT_FALSE(got.empty());
  }
}

class FixedTestClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(1700000000000));
  }
};

// A PROTOBUF stand-in: incompatible when the texts differ in their first
// character, invalid when the text is "bad".
class FakeChecker final : public SchemaCompatibilityChecker {
 public:
  Result<std::vector<std::string>> ReadIncompatibilities(
      const RegisteredSchema& reader, const RegisteredSchema& writer) const override {
    if (reader.schema[0] == writer.schema[0]) return std::vector<std::string>{};
    return std::vector<std::string>{"FAKE " + writer.schema + " -> " + reader.schema};
  }
  Status Validate(const RegisteredSchema& schema) const override {
    return schema.schema == "bad" ? InvalidArgument("bad schema") : Status::OK();
  }
};

std::unique_ptr<ConfluentRegistry> Registry(const Clock& clock, CompatibilityCheckers checkers) {
  sqlite::OpenOptions options;
  options.path = ":memory:";
  auto db = sqlite::Database::Open(options);
  EXPECT_TRUE(db.has_value());
  if (!db.has_value()) return nullptr;
  auto registry = OpenConfluentRegistry(std::move(*db), clock, std::move(checkers));
  EXPECT_TRUE(registry.has_value());
  return registry.has_value() ? std::move(*registry) : nullptr;
}

TEST(ConfluentRegistryLevels, JsonAndInjectedCheckersAtEachLevel) {
  FixedTestClock clock;
  auto registry = Registry(clock, CompatibilityCheckers{MakeJsonSchemaCompatibilityChecker(),
                                                        std::make_shared<FakeChecker>()});
  ASSERT_NE(registry, nullptr);
  ConfluentRegistry& r = *registry;
  const std::string a = "111111111111";
  const SchemaText v1{"JSON", ObjectSchema(R"("a":{"type":"integer"})"), {}};
  const SchemaText narrowed{"JSON", ObjectSchema(R"("a":{"type":"integer","maximum":5})"), {}};
  const SchemaText widened{"JSON", ObjectSchema(R"("a":{"type":"number"})"), {}};
  ASSERT_TRUE(r.Register(a, "j", v1).has_value());
  // BACKWARD (the default): the new schema must read the old one's data.
  auto refused = r.Register(a, "j", narrowed);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().error_code, kIncompatible);
  EXPECT_NE(refused.error().message.find(
                "Schema being registered is incompatible with an earlier schema for subject \"j\""),
            std::string::npos);
  EXPECT_NE(refused.error().message.find("new schema cannot read data written with the old one "
                                         "(version 1), at #/properties/a: MAXIMUM_DECREASED"),
            std::string::npos)
      << refused.error().message;
  auto tested = r.TestCompatibility(a, "j", std::nullopt, narrowed);
  ASSERT_TRUE(tested.has_value());
  EXPECT_FALSE(tested->is_compatible);
  EXPECT_EQ(tested->messages.size(), 1u);
  EXPECT_TRUE(r.TestCompatibility(a, "j", 1, widened)->is_compatible);
  ASSERT_TRUE(r.Register(a, "j", widened).has_value());  // Version 2.
  // FORWARD: the old schema must read the new one's data.
  ASSERT_TRUE(r.SetCompatibility(a, "j", "FORWARD").has_value());
  auto forward = r.TestCompatibility(a, "j", std::nullopt, v1);
  ASSERT_TRUE(forward.has_value());
  EXPECT_TRUE(forward->is_compatible);  // Integers are numbers.
  EXPECT_TRUE(r.TestCompatibility(a, "j", std::nullopt, narrowed)->is_compatible);
  // FULL: both ways; narrowed is backward-incompatible with version 2.
  ASSERT_TRUE(r.SetCompatibility(a, "j", "FULL").has_value());
  EXPECT_FALSE(r.TestCompatibility(a, "j", std::nullopt, narrowed)->is_compatible);
  // Transitive levels compare every live version; non-transitive the latest.
  ASSERT_TRUE(r.SetCompatibility(a, "j", "FORWARD_TRANSITIVE").has_value());
  const SchemaText text{"JSON", ObjectSchema(R"("a":{"type":"string"})"), {}};
  auto transitive = r.TestCompatibility(a, "j", std::nullopt, text);
  ASSERT_TRUE(transitive.has_value());
  EXPECT_EQ(transitive->messages.size(), 2u);
  // NONE: anything.
  ASSERT_TRUE(r.SetCompatibility(a, "j", "NONE").has_value());
  EXPECT_TRUE(r.Register(a, "j", text).has_value());

  // PROTOBUF through the injected checker; an unreadable candidate is 42201.
  ASSERT_TRUE(r.Register(a, "p", {"PROTOBUF", "x1", {}}).has_value());
  EXPECT_TRUE(r.Register(a, "p", {"PROTOBUF", "x2", {}}).has_value());
  auto proto_refused = r.Register(a, "p", {"PROTOBUF", "y", {}});
  ASSERT_FALSE(proto_refused.has_value());
  EXPECT_EQ(proto_refused.error().error_code, kIncompatible);
  EXPECT_NE(proto_refused.error().message.find("FAKE x2 -> y"), std::string::npos);
  EXPECT_EQ(r.Register(a, "p", {"PROTOBUF", "bad", {}}).error().error_code, kInvalidSchema);
  // A reference that does not resolve cannot be compared: 42201.
  auto dangling = r.Register(a, "p", {"PROTOBUF", "x3", {Reference{"d.proto", "nosuch", 1}}});
  ASSERT_FALSE(dangling.has_value());
  EXPECT_EQ(dangling.error().error_code, kInvalidSchema);
  // The first version of a subject is not compared with anything.
  EXPECT_TRUE(r.Register(a, "q", {"PROTOBUF", "bad", {}}).has_value());
}

TEST(ConfluentRegistryLevels, TypesWithoutACheckerAreNotCompared) {
  FixedTestClock clock;
  auto registry = Registry(clock, {});
  ASSERT_NE(registry, nullptr);
  ConfluentRegistry& r = *registry;
  ASSERT_TRUE(r.Register("111111111111", "j", {"JSON", R"({"type":"string"})", {}}).has_value());
  EXPECT_TRUE(r.Register("111111111111", "j", {"JSON", R"({"type":"integer"})", {}}).has_value());
}

}  // namespace
}  // namespace st::registry::confluent
