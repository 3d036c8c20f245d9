#include "registry/json_schema_mapping.h"

#include <gtest/gtest.h>

#include <string>

namespace st::registry {
namespace {

// Maps {"type":"object","properties":{"f": <property>}} and returns f's type.
std::string MapOne(const std::string& property) {
  auto schema = JsonSchemaToIceberg(R"({"type":"object","properties":{"f":)" + property + "}}");
  if (!schema.has_value()) return "error: " + schema.error().message();
  return schema->fields().at(0).type->ToString();
}

Status MapError(const std::string& document) {
  auto schema = JsonSchemaToIceberg(document);
  EXPECT_FALSE(schema.has_value()) << document;
  return schema.has_value() ? Status::OK() : schema.error();
}

struct Row {
  const char* property;
  const char* iceberg_type;
};

TEST(JsonSchemaMapping, EveryRowOfTheMappingTable) {
  const Row rows[] = {
      {R"({"type":"string"})", "string"},
      {R"({"type":"string","format":"date-time"})", "timestamptz"},
      {R"({"type":"string","format":"date"})", "date"},
      {R"({"type":"string","format":"time"})", "time"},
      {R"({"type":"string","format":"uuid"})", "uuid"},
      {R"({"type":"string","format":"byte"})", "binary"},
      {R"({"type":"string","contentEncoding":"base64"})", "binary"},
      {R"({"type":"string","format":"email"})", "string"},
      {R"({"type":"integer","minimum":0,"maximum":2147483647})", "int"},
      {R"({"type":"integer","minimum":-2147483648,"maximum":100})", "int"},
      {R"({"type":"integer","exclusiveMinimum":-2147483649,"exclusiveMaximum":2147483648})", "int"},
      {R"({"type":"integer","minimum":0,"maximum":2147483648})", "long"},
      {R"({"type":"integer","minimum":-2147483649,"maximum":0})", "long"},
      {R"({"type":"integer","maximum":10})", "long"},
      {R"({"type":"integer"})", "long"},
      {R"({"type":"number","multipleOf":0.001})", "decimal(38,3)"},
      {R"({"type":"number","multipleOf":0.01})", "decimal(38,2)"},
      {R"({"type":"number","multipleOf":0.5})", "decimal(38,1)"},
      {R"({"type":"number","multipleOf":1})", "decimal(38,0)"},
      {R"({"type":"number"})", "double"},
      {R"({"type":"boolean"})", "boolean"},
      {R"({"enum":["a","b"]})", "string"},
      {R"({"type":"string","enum":["a","b"]})", "string"},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(MapOne(row.property), row.iceberg_type) << row.property;
  }
}

TEST(JsonSchemaMapping, ObjectArrayAndMapWithJavaFreshIdOrder) {
  auto schema = JsonSchemaToIceberg(R"({
    "type": "object",
    "properties": {
      "a": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}},
            "required": ["y"]},
      "b": {"type": "array", "items": {"type": "object", "properties": {"z": {"type": "boolean"}}}},
      "c": {"type": "object", "additionalProperties": {"type": ["number", "null"]}},
      "d": {"type": "array", "items": {"type": "string"}}
    }
  })");
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  const auto& fields = schema->fields();
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields[0].id, 1);
  EXPECT_EQ(fields[0].name, "a");
  EXPECT_EQ(fields[1].id, 2);
  EXPECT_EQ(fields[2].id, 3);
  EXPECT_EQ(fields[3].id, 4);
  // a's struct fields come next, then b's element (and its struct), then c's key/value.
  const auto& a = fields[0].type;
  ASSERT_EQ(a->id(), iceberg::TypeId::kStruct);
  EXPECT_EQ(a->fields()[0].id, 5);
  EXPECT_FALSE(a->fields()[0].required);
  EXPECT_EQ(a->fields()[1].id, 6);
  EXPECT_TRUE(a->fields()[1].required);
  const auto& b = fields[1].type;
  ASSERT_EQ(b->id(), iceberg::TypeId::kList);
  EXPECT_EQ(b->element().id, 7);
  EXPECT_TRUE(b->element().required);
  EXPECT_EQ(b->element().type->fields()[0].id, 8);
  EXPECT_EQ(b->element().type->fields()[0].name, "z");
  const auto& c = fields[2].type;
  ASSERT_EQ(c->id(), iceberg::TypeId::kMap);
  EXPECT_EQ(c->key().id, 9);
  EXPECT_EQ(c->key().type->id(), iceberg::TypeId::kString);
  EXPECT_EQ(c->value().id, 10);
  EXPECT_FALSE(c->value().required);
  EXPECT_EQ(c->value().type->id(), iceberg::TypeId::kDouble);
  EXPECT_EQ(fields[3].type->element().id, 11);
  EXPECT_EQ(schema->HighestFieldId(), 11);
}

TEST(JsonSchemaMapping, RequiredAndOptional) {
  auto schema = JsonSchemaToIceberg(R"({
    "type": "object",
    "properties": {
      "req": {"type": "string"},
      "opt": {"type": "string"},
      "nullable_req": {"type": ["string", "null"]},
      "one_of_null": {"oneOf": [{"type": "null"}, {"type": "integer"}]},
      "any_of": {"anyOf": [{"type": "boolean"}]}
    },
    "required": ["req", "nullable_req", "one_of_null", "any_of", "not_a_property"]
  })");
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  const auto& f = schema->fields();
  EXPECT_TRUE(f[0].required);
  EXPECT_FALSE(f[1].required);
  EXPECT_FALSE(f[2].required);
  EXPECT_EQ(f[2].type->id(), iceberg::TypeId::kString);
  EXPECT_FALSE(f[3].required);
  EXPECT_EQ(f[3].type->id(), iceberg::TypeId::kLong);
  EXPECT_TRUE(f[4].required);
  EXPECT_EQ(f[4].type->id(), iceberg::TypeId::kBoolean);
}

TEST(JsonSchemaMapping, DescriptionBecomesDoc) {
  auto schema = JsonSchemaToIceberg(
      R"({"type":"object","properties":{"f":{"type":"string","description":"the f"}}})");
  ASSERT_TRUE(schema.has_value());
  EXPECT_EQ(schema->fields()[0].doc, "the f");
}

TEST(JsonSchemaMapping, DraftFourBooleanExclusiveMaximum) {
  EXPECT_EQ(MapOne(R"({"type":"integer","minimum":0,"maximum":2147483647,
                       "exclusiveMaximum":true})"),
            "int");
}

TEST(JsonSchemaMapping, LocalRefsToDefinitionsAndDefs) {
  auto schema = JsonSchemaToIceberg(R"({
    "$schema": "http://json-schema.org/draft-07/schema#",
    "definitions": {"money": {"type": "number", "multipleOf": 0.01},
                    "alias": {"$ref": "#/definitions/money"}},
    "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}},
                        "required": ["x"]}},
    "type": "object",
    "properties": {
      "price": {"$ref": "#/definitions/alias"},
      "where": {"$ref": "#/$defs/point"}
    },
    "required": ["price"]
  })");
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  EXPECT_EQ(schema->fields()[0].type->ToString(), "decimal(38,2)");
  EXPECT_TRUE(schema->fields()[0].required);
  ASSERT_EQ(schema->fields()[1].type->id(), iceberg::TypeId::kStruct);
  EXPECT_TRUE(schema->fields()[1].type->fields()[0].required);
}

TEST(JsonSchemaMapping, RefsIntoConfluentReferences) {
  // A whole referenced schema, a definition inside one, and a local $ref
  // inside the referenced schema (it points into that schema, not the root).
  const std::string address = R"({
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"$ref": "#/$defs/zip"}},
    "required": ["city"],
    "$defs": {"zip": {"type": "integer", "minimum": 0, "maximum": 99999}}
  })";
  const std::string money =
      R"({"definitions": {"amount": {"type": "number", "multipleOf": 0.01}}})";
  auto schema = JsonSchemaToIceberg(R"({
    "type": "object",
    "properties": {
      "ship_to": {"$ref": "address.json"},
      "total": {"$ref": "money.json#/definitions/amount"},
      "zips": {"type": "array", "items": {"$ref": "address.json#/$defs/zip"}}
    },
    "required": ["total"]
  })",
                                    {{"address.json", address}, {"money.json", money}});
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  EXPECT_EQ(schema->fields()[0].type->ToString(), "struct<city: string, zip: int>");
  EXPECT_TRUE(schema->fields()[0].type->fields()[0].required);  // address.json's "required"
  EXPECT_FALSE(schema->fields()[0].type->fields()[1].required);
  EXPECT_EQ(schema->fields()[1].type->ToString(), "decimal(38,2)");
  EXPECT_TRUE(schema->fields()[1].required);
  EXPECT_EQ(schema->fields()[2].type->ToString(), "list<int>");

  // The reference is not there: the message names the $ref and the name to register.
  auto missing = JsonSchemaToIceberg(
      R"({"type":"object","properties":{"a":{"$ref":"address.json"}}})", {{"other.json", money}});
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("'/properties/a': $ref 'address.json' names neither"),
            std::string::npos)
      << missing.error().message();
  // A pointer to nothing in the referenced schema names it.
  auto dangling = JsonSchemaToIceberg(
      R"({"type":"object","properties":{"a":{"$ref":"money.json#/definitions/none"}}})",
      {{"money.json", money}});
  ASSERT_FALSE(dangling.has_value());
  EXPECT_NE(dangling.error().message().find("points to nothing in the referenced schema"),
            std::string::npos);
  // An error inside a referenced schema names the reference in its path.
  auto bad = JsonSchemaToIceberg(R"({"type":"object","properties":{"a":{"$ref":"b.json"}}})",
                                 {{"b.json", R"({"type":"object","properties":{"x":{}}})"}});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("'b.json#/properties/x'"), std::string::npos)
      << bad.error().message();
  auto not_json = JsonSchemaToIceberg(R"({"type":"object","properties":{"a":{"type":"string"}}})",
                                      {{"b.json", "{nope"}});
  ASSERT_FALSE(not_json.has_value());
  EXPECT_NE(not_json.error().message().find("reference 'b.json' is not a JSON document"),
            std::string::npos);
}

TEST(JsonSchemaMapping, RefsResolveAgainstTheDocumentsId) {
  // confluent-kafka's serializer resolves "address.json" against the root's
  // $id, so the reference is registered under the resolved URL.
  const std::string address = R"({"$id": "https://example.com/schemas/address.json",
    "type": "object", "properties": {"city": {"$ref": "city.json"}}})";
  const std::string city = R"({"type": "string"})";
  auto schema = JsonSchemaToIceberg(R"({"$id": "https://example.com/schemas/order.json",
    "type": "object", "properties": {"ship_to": {"$ref": "address.json"}}})",
                                    {{"https://example.com/schemas/address.json", address},
                                     {"https://example.com/schemas/city.json", city}});
  ASSERT_TRUE(schema.has_value()) << schema.error().message();
  EXPECT_EQ(schema->fields()[0].type->ToString(), "struct<city: string>");
}

TEST(JsonSchemaMapping, KeysThatAreNotObjectsAreOneWrappedField) {
  auto object =
      JsonSchemaKeyToIceberg(R"({"type":"object","properties":{"id":{"type":"integer"}}})");
  ASSERT_TRUE(object.has_value()) << object.error().message();
  EXPECT_FALSE(object->wrapped);
  EXPECT_EQ(object->schema.fields()[0].name, "id");
  const Row rows[] = {
      {R"({"type":"string"})", "string"},
      {R"({"type":"string","format":"uuid"})", "uuid"},
      {R"({"type":"integer","minimum":0,"maximum":100})", "int"},
      {R"({"type":"integer"})", "long"},
      {R"({"type":"number"})", "double"},
      {R"({"type":"boolean"})", "boolean"},
      {R"({"enum":["a","b"]})", "string"},
      {R"({"type":"array","items":{"type":"string"}})", "list<string>"},
      {R"({"type":"object","additionalProperties":{"type":"integer"}})", "map<string, long>"},
  };
  for (const Row& row : rows) {
    auto key = JsonSchemaKeyToIceberg(row.property);
    ASSERT_TRUE(key.has_value()) << row.property << ": " << key.error().message();
    EXPECT_TRUE(key->wrapped) << row.property;
    ASSERT_EQ(key->schema.fields().size(), 1u);
    EXPECT_EQ(key->schema.fields()[0].name, "key");
    EXPECT_EQ(key->schema.fields()[0].type->ToString(), row.iceberg_type) << row.property;
  }
  auto nullable = JsonSchemaKeyToIceberg(R"({"type":["string","null"]})");
  ASSERT_TRUE(nullable.has_value());
  EXPECT_FALSE(nullable->schema.fields()[0].required);
  EXPECT_FALSE(JsonSchemaKeyToIceberg(R"({"type":"null"})").has_value());
  EXPECT_FALSE(JsonSchemaKeyToIceberg(R"({"type":"object"})").has_value());
  EXPECT_FALSE(JsonSchemaKeyToIceberg("{}").has_value());
}

// `levels` nested objects; the innermost holds one string field at depth `levels`.
std::string Nested(int levels) {
  std::string inner = R"({"type":"string"})";
  for (int i = 1; i < levels; ++i) {
    inner = R"({"type":"object","properties":{"n":)" + inner + "}}";
  }
  return R"({"type":"object","properties":{"n":)" + inner + "}}";
}

TEST(JsonSchemaMapping, NestingLimitSixteenLevels) {
  auto sixteen = JsonSchemaToIceberg(Nested(16));
  ASSERT_TRUE(sixteen.has_value()) << sixteen.error().message();
  EXPECT_NE(sixteen->FindFieldByName("n.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n"), nullptr);
  auto seventeen = JsonSchemaToIceberg(Nested(17));
  ASSERT_FALSE(seventeen.has_value());
  EXPECT_EQ(seventeen.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(seventeen.error().message().find("deeper than 16"), std::string::npos);
  EXPECT_NE(seventeen.error().message().find("/properties/n/properties/n"), std::string::npos);

  // Lists count as a level too: 15 objects + a list of strings is 16 deep.
  std::string list_leaf = R"({"type":"array","items":{"type":"string"}})";
  std::string doc = list_leaf;
  for (int i = 1; i < 15; ++i) doc = R"({"type":"object","properties":{"n":)" + doc + "}}";
  doc = R"({"type":"object","properties":{"n":)" + doc + "}}";
  EXPECT_TRUE(JsonSchemaToIceberg(doc).has_value());
  doc = R"({"type":"object","properties":{"n":)" + doc + "}}";
  EXPECT_FALSE(JsonSchemaToIceberg(doc).has_value());
}

TEST(JsonSchemaMapping, RecursiveRefStopsAtTheNestingLimit) {
  Status error = MapError(R"({"definitions":{"node":{"type":"object","properties":{
      "next":{"$ref":"#/definitions/node"},"v":{"type":"string"}}}},
      "$ref":"#/definitions/node"})");
  EXPECT_NE(error.message().find("deeper than 16"), std::string::npos) << error.message();
}

TEST(JsonSchemaMapping, RefCycleThroughAUnionStops) {
  // Before the union bound this recursed until the stack ran out.
  Status error = MapError(R"({"type":"object","properties":{"a":{"$ref":"#/definitions/u"}},
      "definitions":{"u":{"oneOf":[{"type":"null"},{"$ref":"#/definitions/u"}]}}})");
  EXPECT_EQ(error.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(error.message().find("oneOf nests deeper than 16 levels or forms a $ref cycle"),
            std::string::npos)
      << error.message();
}

TEST(JsonSchemaMapping, UnionNestingAtTheLimitAndOneMore) {
  auto unions = [](int levels) {
    std::string inner = R"({"type":"string"})";
    for (int i = 0; i < levels; ++i) inner = R"({"anyOf":[{"type":"null"},)" + inner + "]}";
    return R"({"type":"object","properties":{"f":)" + inner + "}}";
  };
  auto at_limit = JsonSchemaToIceberg(unions(kMaxJsonSchemaNesting));
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().message();
  EXPECT_FALSE(at_limit->fields().at(0).required);
  Status deeper = MapError(unions(kMaxJsonSchemaNesting + 1));
  EXPECT_NE(deeper.message().find("anyOf nests deeper"), std::string::npos) << deeper.message();
}

TEST(JsonSchemaMapping, RefsThatMultiplyFieldsStopAtTheFieldLimit) {
  // Each level refers to the next one 8 times: 8^6 fields without the bound.
  std::string doc = R"({"$ref":"#/definitions/d0","definitions":{)";
  for (int level = 0; level < 6; ++level) {
    doc += "\"d" + std::to_string(level) + R"(":{"type":"object","properties":{)";
    for (int i = 0; i < 8; ++i) {
      doc += (i ? "," : "") + std::string("\"p") + std::to_string(i) +
             R"(":{"$ref":"#/definitions/d)" + std::to_string(level + 1) + "\"}";
    }
    doc += "}},";
  }
  doc += R"("d6":{"type":"string"}}})";
  Status error = MapError(doc);
  EXPECT_NE(error.message().find("more than 10000 Iceberg fields"), std::string::npos)
      << error.message();
}

TEST(JsonSchemaMapping, DeepRawJsonIsRefusedBeforeParsing) {
  std::string doc = R"({"type":"object","properties":{"f":{"type":"string","x":)" +
                    std::string(100000, '[') + std::string(100000, ']') + "}}}";
  Status error = MapError(doc);
  EXPECT_NE(error.message().find("the JSON schema nests JSON arrays/objects deeper than 512"),
            std::string::npos)
      << error.message();
}

TEST(JsonSchemaMapping, BadDocumentsNameThePath) {
  struct Case {
    const char* document;
    const char* expected_in_message;
  };
  const Case cases[] = {
      {"{not json", "not a JSON document"},
      {R"({"type":"string"})", "root must be an object"},
      {R"({"type":"object","properties":{}})", "root must be an object"},
      {R"({"type":"object","properties":{"f":{}}})", "'/properties/f': the schema has no"},
      {R"({"type":"object","properties":{"f":{"type":["string","integer"]}}})",
       "'/properties/f': a union"},
      {R"({"type":"object","properties":{"f":{"type":"null"}}})", "only \"null\""},
      {R"({"type":"object","properties":{"f":{"$ref":"other.json#/x"}}})",
       "names neither this document"},
      {R"({"type":"object","properties":{"f":{"$ref":"#/definitions/missing"}}})",
       "points to nothing"},
      {R"({"type":"object","properties":{"f":{"type":"array"}}})", "'/properties/f': an array"},
      {R"({"type":"object","properties":{"f":{"type":"array","items":[{"type":"string"}]}}})",
       "tuples"},
      {R"({"type":"object","properties":{"f":{"type":"object"}}})", "'/properties/f': an object"},
      {R"({"type":"object","properties":{"f":{"type":"number","multipleOf":0}}})", "multipleOf"},
      {R"({"type":"object","properties":{"f":{"allOf":[{"type":"string"}]}}})", "allOf"},
      {R"({"type":"object","properties":{"f":{"type":"foo"}}})", "type 'foo'"},
      {R"({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{}}}}}}})",
       "'/properties/a/properties/b/properties/c'"},
      {R"({"type":"object","properties":{"f":{"$ref":"#/definitions/a"}},
           "definitions":{"a":{"$ref":"#/definitions/a"}}})",
       "cycle"},
  };
  for (const Case& c : cases) {
    Status error = MapError(c.document);
    EXPECT_EQ(error.code(), StatusCode::kInvalidArgument) << c.document;
    EXPECT_NE(error.message().find(c.expected_in_message), std::string::npos)
        << c.document << " -> " << error.message();
  }
}

}  // namespace
}  // namespace st::registry
