#include "avro/schema.h"

#include <gtest/gtest.h>

#include "avro/schema_internal.h"
#include "golden_data.h"

namespace st::avro {
namespace {

const Field& FindField(const Node& record, std::string_view name) {
  for (const Field& f : record.fields) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no field " << name;
  static Field empty;
  return empty;
}

TEST(SchemaTest, ParsesEverythingAndSerializesToAFixedPoint) {
  auto schema = Schema::Parse(testing::EverythingSchemaJson());
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  std::string json = schema->ToJson();
  auto again = Schema::Parse(json);
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  EXPECT_EQ(again->ToJson(), json);
  EXPECT_EQ(schema->root().full_name, "st.test.everything");
  EXPECT_EQ(schema->root().doc, "every Avro type");
}

TEST(SchemaTest, KeepsIcebergAndCustomAttributes) {
  auto parsed = Schema::Parse(testing::EverythingSchemaJson());
  ASSERT_TRUE(parsed.has_value());
  // Check both the parsed tree and the tree re-parsed from ToJson().
  for (const Schema& schema : {*parsed, *Schema::Parse(parsed->ToJson())}) {
    const Node& root = schema.root();
    EXPECT_EQ(root.attributes.FindJson("st-custom") != nullptr, true);
    EXPECT_EQ(*root.attributes.FindJson("st-custom"), R"({"nested":[1,2,"three"]})");
    EXPECT_EQ(FindField(root, "bool_field").attributes.GetInt("field-id"), 1);
    EXPECT_EQ(FindField(root, "int_field").doc, "an int");
    const Field& ts = FindField(root, "ts_field");
    EXPECT_EQ(ts.type->logical_type, "timestamp-micros");
    EXPECT_EQ(ts.type->attributes.GetBool("adjust-to-utc"), false);
    EXPECT_EQ(FindField(root, "tstz_field").type->attributes.GetBool("adjust-to-utc"), true);
    EXPECT_EQ(FindField(root, "int_array").type->attributes.GetInt("element-id"), 17);
    const Node& map = *FindField(root, "string_map").type;
    EXPECT_EQ(map.attributes.GetInt("key-id"), 19);
    EXPECT_EQ(map.attributes.GetInt("value-id"), 20);
    const Field& int_map = FindField(root, "int_map");
    EXPECT_EQ(int_map.default_json, "null");
    const Node& logical = *int_map.type->branches[1];
    EXPECT_TRUE(logical.is_logical_map);
    EXPECT_EQ(logical.items->fields[0].attributes.GetInt("field-id"), 117);
    const Node& dec = *FindField(root, "decimal_fixed").type;
    EXPECT_TRUE(dec.is_decimal);
    EXPECT_EQ(dec.precision, 9);
    EXPECT_EQ(dec.scale, 2);
    EXPECT_EQ(FindField(root, "uuid_field").type->logical_type, "uuid");
    const Node& leaf = FindField(root, "nested").type->fields[1].type->items->Resolve();
    EXPECT_EQ(leaf.full_name, "st.other.leaf");
    const Node& again = FindField(root, "color_again").type->Resolve();
    EXPECT_EQ(again.full_name, "st.test.color");
  }
  std::string json = parsed->ToJson();
  for (const char* needle : {R"("field-id":117)", R"("element-id":17)", R"("key-id":19)",
                             R"("value-id":20)", R"("adjust-to-utc":true)",
                             R"("logicalType":"map")", R"("st-custom":{"nested":[1,2,"three"]})"}) {
    EXPECT_NE(json.find(needle), std::string::npos) << needle;
  }
}

TEST(SchemaTest, BuildersMakeIcebergStyleSchemas) {
  std::vector<Field> fields;
  fields.push_back(MakeField("status", MakeInt(), 0));
  fields.push_back(MakeOptionalField("snapshot_id", MakeLong(), 1));
  fields.push_back(MakeField("ts", WithLogicalType(MakeLong(), "timestamp-micros")));
  fields.back().type->attributes.SetBool("adjust-to-utc", true);
  fields.push_back(MakeOptionalField(
      "column_sizes", MakeLogicalMap("k117_v118", MakeInt(), 117, MakeLong(), 118), 108));
  fields.push_back(MakeField("dec", MakeDecimal(MakeFixed("decimal_9_2", 4), 9, 2)));
  auto schema = Schema::Make(MakeRecord("manifest_entry", std::move(fields)));
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  EXPECT_EQ(
      schema->ToJson(),
      R"({"type":"record","name":"manifest_entry","fields":[)"
      R"({"name":"status","type":"int","field-id":0},)"
      R"({"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},)"
      R"({"name":"ts","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true}},)"
      R"({"name":"column_sizes","type":["null",{"type":"array","items":{"type":"record","name":"k117_v118","fields":[)"
      R"({"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]},)"
      R"("logicalType":"map"}],"default":null,"field-id":108},)"
      R"({"name":"dec","type":{"type":"fixed","name":"decimal_9_2","size":4,"logicalType":"decimal","precision":9,"scale":2}}]})");
}

TEST(SchemaTest, SameNamedNodeTwiceBecomesAReference) {
  NodePtr point = MakeRecord("point", {MakeField("x", MakeInt())});
  auto schema = Schema::Make(MakeRecord("pair", {MakeField("a", point), MakeField("b", point)}));
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  EXPECT_EQ(schema->root().fields[1].type->type, Type::kReference);
  EXPECT_NE(schema->ToJson().find(R"({"name":"b","type":"point"})"), std::string::npos);
  EXPECT_TRUE(Schema::Parse(schema->ToJson()).has_value());
}

TEST(SchemaTest, ResolvesNamespacesAndRecursion) {
  auto schema = Schema::Parse(R"({"type":"record","name":"list","namespace":"a.b","fields":[
      {"name":"v","type":"int"},
      {"name":"next","type":["null","list"]},
      {"name":"also","type":["null","a.b.list"]}]})");
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  const Node& next = schema->root().fields[1].type->branches[1]->Resolve();
  EXPECT_EQ(&next, &schema->root());
}

TEST(SchemaTest, NamedTypesOfReferencedSchemas) {
  // Confluent references, dependencies first: Address uses Country (from
  // the first reference); the order refers to Address twice and to an enum
  // by its short name from inside namespace "com.example".
  const std::string country = R"({"type":"enum","name":"Country","namespace":"com.example",
      "symbols":["CH","FR"]})";
  const std::string address = R"({"type":"record","name":"Address","namespace":"com.example",
      "fields":[{"name":"city","type":"string"},{"name":"country","type":"Country"},
                {"name":"zip","type":{"type":"fixed","name":"Zip","size":4}}]})";
  const std::string order = R"({"type":"record","name":"Order","namespace":"com.example",
      "fields":[{"name":"ship_to","type":"com.example.Address"},
                {"name":"bill_to","type":["null","Address"]},
                {"name":"origin","type":"Country"},
                {"name":"zips","type":{"type":"array","items":"com.example.Zip"}}]})";
  auto schema = Schema::Parse(order, {country, address});
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  const Node& ship_to = FindField(schema->root(), "ship_to").type->Resolve();
  EXPECT_EQ(ship_to.type, Type::kRecord);
  EXPECT_EQ(ship_to.full_name, "com.example.Address");
  EXPECT_EQ(FindField(ship_to, "country").type->Resolve().symbols.size(), 2u);
  // The second use is a reference to the inlined definition.
  const Node& bill_to = FindField(schema->root(), "bill_to").type->branches[1]->Resolve();
  EXPECT_EQ(&bill_to, &ship_to);
  EXPECT_EQ(FindField(schema->root(), "zips").type->items->Resolve().fixed_size, 4);
  // The result stands alone: its JSON parses without the references.
  auto alone = Schema::Parse(schema->ToJson());
  ASSERT_TRUE(alone.has_value()) << alone.error().ToString();
  EXPECT_EQ(alone->ToJson(), schema->ToJson());

  // Without the references, or with one that does not parse: errors.
  EXPECT_FALSE(Schema::Parse(order).has_value());
  EXPECT_FALSE(Schema::Parse(order, {address}).has_value());  // Country unknown.
  auto bad = Schema::Parse(order, {country, "{nope"});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("avro schema reference 2"), std::string::npos)
      << bad.error().message();
  // A type the main schema defines itself wins over a reference's.
  auto own = Schema::Parse(R"({"type":"record","name":"R","fields":[
      {"name":"c","type":{"type":"enum","name":"Country","namespace":"com.example",
                          "symbols":["XX"]}},
      {"name":"d","type":"com.example.Country"}]})",
                           {country});
  ASSERT_TRUE(own.has_value()) << own.error().ToString();
  EXPECT_EQ(FindField(own->root(), "d").type->Resolve().symbols, std::vector<std::string>{"XX"});
}

TEST(SchemaTest, EmptyNamespaceIsTheNullNamespace) {
  auto schema = Schema::Parse(R"({"type":"record","name":"outer","namespace":"ns","fields":[
      {"name":"a","type":{"type":"fixed","name":"f","namespace":"","size":1}},
      {"name":"b","type":"f"}]})");
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  EXPECT_EQ(schema->root().fields[0].type->full_name, "f");
  EXPECT_NE(schema->ToJson().find(R"("namespace":"")"), std::string::npos);
}

TEST(SchemaTest, InvalidDecimalIsKeptButNotInterpreted) {
  auto schema = Schema::Parse(
      R"({"type":"fixed","name":"f","size":4,"logicalType":"decimal","precision":10,"scale":2})");
  ASSERT_TRUE(schema.has_value());
  EXPECT_FALSE(schema->root().is_decimal);
  EXPECT_NE(schema->ToJson().find(R"("precision":10)"), std::string::npos);
}

struct BadSchema {
  const char* json;
  const char* message_part;
};

TEST(SchemaTest, RejectsBadSchemas) {
  const BadSchema cases[] = {
      {R"("foo")", "unknown type 'foo'"},
      {R"({"type":"foo"})", "unknown type 'foo'"},
      {R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"},{"name":"a","type":"long"}]})",
       "two fields named 'a'"},
      {R"({"type":"record","name":"r","fields":[{"name":"a","type":"missing.Type"}]})",
       "unknown type"},
      {R"(["int","int"])", "two branches of type 'int'"},
      {R"(["null",{"type":"array","items":"int"},{"type":"array","items":"long"}])",
       "two branches"},
      {R"(["null",["int","long"]])", "may not directly contain another union"},
      {R"([{"type":"fixed","name":"f","size":1},{"type":"fixed","name":"f","size":2}])",
       "defined twice"},
      {R"({"type":"record","name":"1abc","fields":[]})", "invalid record name"},
      {R"({"type":"record","name":"int","fields":[]})", "primitive type name"},
      {R"({"type":"record","name":"r","fields":[{"name":"a-b","type":"int"}]})",
       "invalid field name"},
      {R"({"type":"fixed","name":"f","size":-1})", "invalid size"},
      {R"({"type":"fixed","name":"f"})", "integer \"size\""},
      {R"({"type":"enum","name":"e","symbols":["A","A"]})", "repeated symbol"},
      {R"({"type":"enum","name":"e","symbols":["A"],"default":"B"})", "not one of its symbols"},
      {R"({"type":"record","name":"r"})", "\"fields\" array"},
      {R"({"type":"array"})", "needs \"items\""},
      {R"({"type":"map"})", "needs \"values\""},
      {R"({"type":"union","types":["int"]})", "JSON array"},
      {R"([])", "empty union"},
      {R"({"type":"record","name":"r","fields":[{"type":"int"}]})", "needs \"name\""},
      {R"({"type":"record","name":"r","fields":[{"name":"a"}]})", "needs \"type\""},
      {R"({"name":"x"})", "string \"type\""},
      {R"(42)", "expected a type name"},
      {R"({"type":"record",)", "not valid JSON"},
      {"", "not valid JSON"},
  };
  for (const BadSchema& c : cases) {
    auto schema = Schema::Parse(c.json);
    ASSERT_FALSE(schema.has_value()) << c.json;
    EXPECT_EQ(schema.error().code(), StatusCode::kInvalidArgument) << c.json;
    EXPECT_NE(schema.error().message().find(c.message_part), std::string::npos)
        << c.json << " -> " << schema.error().message();
  }
}

TEST(SchemaTest, RejectsAbsurdNesting) {
  std::string deep(100000, '[');
  EXPECT_FALSE(Schema::Parse(deep).has_value());
  std::string json;
  for (int i = 0; i < 300; ++i) json += R"({"type":"array","items":)";
  json += "\"int\"";
  for (int i = 0; i < 300; ++i) json += "}";
  auto schema = Schema::Parse(json);
  ASSERT_FALSE(schema.has_value());
  EXPECT_NE(schema.error().message().find("nested deeper"), std::string::npos);
}

TEST(SchemaTest, NestingAtTheLimitParsesAndOneMoreIsRefused) {
  auto arrays = [](int levels) {
    std::string json;
    for (int i = 0; i < levels; ++i) json += R"({"type":"array","items":)";
    return json + "\"int\"" + std::string(static_cast<size_t>(levels), '}');
  };
  // The root is level 0, so 128 arrays put "int" at level 128.
  auto at_limit = Schema::Parse(arrays(internal::kMaxSchemaDepth));
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().ToString();
  auto deeper = Schema::Parse(arrays(internal::kMaxSchemaDepth + 1));
  ASSERT_FALSE(deeper.has_value());
  EXPECT_NE(deeper.error().message().find("nested deeper than 128"), std::string::npos)
      << deeper.error().message();
  // Raw JSON deeper than kMaxJsonNesting is refused before parsing.
  auto raw = Schema::Parse(std::string(513, '[') + std::string(513, ']'));
  ASSERT_FALSE(raw.has_value());
  EXPECT_NE(raw.error().message().find("avro schema nests JSON arrays/objects deeper than 512"),
            std::string::npos)
      << raw.error().message();
}

TEST(SchemaTest, RejectsInvalidAttributeJsonInBuiltSchemas) {
  NodePtr node = MakeInt();
  node->attributes.SetJson("x", "{not json");
  EXPECT_FALSE(Schema::Make(node).has_value());
  EXPECT_FALSE(Schema::Make(nullptr).has_value());
}

TEST(SchemaTest, AttributeAccessors) {
  Attributes a;
  a.SetInt("field-id", 5);
  a.SetString("s", "quote\"d");
  a.SetBool("b", true);
  a.SetInt("field-id", 6);
  EXPECT_EQ(a.entries().size(), 3u);
  EXPECT_EQ(a.GetInt("field-id"), 6);
  EXPECT_EQ(a.GetString("s"), "quote\"d");
  EXPECT_EQ(a.GetBool("b"), true);
  EXPECT_EQ(a.GetInt("s"), std::nullopt);
  a.Remove("s");
  EXPECT_EQ(a.FindJson("s"), nullptr);
}

}  // namespace
}  // namespace st::avro
