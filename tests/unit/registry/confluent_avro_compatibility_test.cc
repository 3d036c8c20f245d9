#include "registry/confluent_avro_compatibility.h"

#include <gtest/gtest.h>

#include <string>

#include "avro/schema.h"
#include "common/clock.h"
#include "registry/confluent_registry.h"
#include "sqlite/database.h"

namespace st::registry::confluent {
namespace {

avro::Schema Parse(const std::string& json) {
  Result<avro::Schema> schema = avro::Schema::Parse(json);
  EXPECT_TRUE(schema.has_value()) << schema.error().message();
  return schema.has_value() ? *schema : avro::Schema();
}

bool Reads(const std::string& reader, const std::string& writer) {
  return AvroReadIncompatibilities(Parse(reader), Parse(writer)).empty();
}

std::string Record(const std::string& fields) {
  return R"({"type":"record","name":"r","namespace":"n","fields":[)" + fields + "]}";
}

TEST(ConfluentAvroCompatibility, PrimitivesAndPromotions) {
  EXPECT_TRUE(Reads(R"("long")", R"("int")"));
  EXPECT_TRUE(Reads(R"("double")", R"("int")"));
  EXPECT_TRUE(Reads(R"("double")", R"("float")"));
  EXPECT_TRUE(Reads(R"("float")", R"("long")"));
  EXPECT_TRUE(Reads(R"("bytes")", R"("string")"));
  EXPECT_TRUE(Reads(R"("string")", R"("bytes")"));
  EXPECT_FALSE(Reads(R"("int")", R"("long")"));
  EXPECT_FALSE(Reads(R"("float")", R"("double")"));
  EXPECT_FALSE(Reads(R"("string")", R"("int")"));
}

TEST(ConfluentAvroCompatibility, RecordFieldsAndDefaults) {
  std::string v1 = Record(R"({"name":"a","type":"int"})");
  std::string with_default =
      Record(R"({"name":"a","type":"int"},{"name":"b","type":"string","default":"x"})");
  std::string without_default = Record(R"({"name":"a","type":"int"},{"name":"b","type":"string"})");
  EXPECT_TRUE(Reads(with_default, v1));  // Added field with default: backward.
  EXPECT_TRUE(Reads(v1, with_default));  // Writer's extra field is skipped.
  std::vector<std::string> messages = AvroReadIncompatibilities(Parse(without_default), Parse(v1));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("'b' has no default"), std::string::npos) << messages[0];
  EXPECT_NE(messages[0].find("/b"), std::string::npos) << messages[0];
  // A field renamed with an alias still matches.
  EXPECT_TRUE(Reads(Record(R"({"name":"z","type":"int","aliases":["a"]})"), v1));
  // Different record names do not.
  EXPECT_FALSE(Reads(R"({"type":"record","name":"other","fields":[]})", v1));
  // The record's alias does.
  EXPECT_TRUE(Reads(R"({"type":"record","name":"other","aliases":["n.r"],"fields":[]})", v1));
}

TEST(ConfluentAvroCompatibility, UnionsEnumsFixedCollections) {
  EXPECT_TRUE(Reads(R"(["null","long"])", R"("int")"));
  EXPECT_TRUE(Reads(R"(["null","int","string"])", R"(["null","int"])"));
  EXPECT_FALSE(Reads(R"(["null","int"])", R"(["null","int","string"])"));
  EXPECT_FALSE(Reads(R"("int")", R"(["null","int"])"));
  std::string e2 = R"({"type":"enum","name":"e","symbols":["A","B"]})";
  std::string e3 = R"({"type":"enum","name":"e","symbols":["A","B","C"]})";
  std::string e2d = R"({"type":"enum","name":"e","symbols":["A","B"],"default":"A"})";
  EXPECT_TRUE(Reads(e3, e2));
  EXPECT_FALSE(Reads(e2, e3));
  EXPECT_TRUE(Reads(e2d, e3));
  EXPECT_TRUE(
      Reads(R"({"type":"fixed","name":"f","size":4})", R"({"type":"fixed","name":"f","size":4})"));
  EXPECT_FALSE(
      Reads(R"({"type":"fixed","name":"f","size":8})", R"({"type":"fixed","name":"f","size":4})"));
  EXPECT_TRUE(Reads(R"({"type":"array","items":"long"})", R"({"type":"array","items":"int"})"));
  EXPECT_FALSE(Reads(R"({"type":"map","values":"int"})", R"({"type":"map","values":"long"})"));
}

TEST(ConfluentAvroCompatibility, Levels) {
  avro::Schema v1 = Parse(Record(R"({"name":"a","type":"int"})"));
  avro::Schema v2 = Parse(Record(R"({"name":"a","type":"int"},{"name":"b","type":"int"})"));
  // v2 adds a required field: v2 cannot read v1 data (not BACKWARD), but v1
  // can read v2 data (FORWARD).
  EXPECT_FALSE(AvroLevelIncompatibilities("BACKWARD", v2, v1).empty());
  EXPECT_TRUE(AvroLevelIncompatibilities("FORWARD", v2, v1).empty());
  EXPECT_FALSE(AvroLevelIncompatibilities("FULL", v2, v1).empty());
  EXPECT_TRUE(AvroLevelIncompatibilities("NONE", v2, v1).empty());
}

TEST(ConfluentAvroCompatibility, RecursiveTypesTerminate) {
  std::string list = R"({"type":"record","name":"Node","fields":[{"name":"v","type":"int"},
      {"name":"next","type":["null","Node"],"default":null}]})";
  std::string list_long = R"({"type":"record","name":"Node","fields":[{"name":"v","type":"long"},
      {"name":"next","type":["null","Node"],"default":null}]})";
  EXPECT_TRUE(Reads(list, list));
  EXPECT_TRUE(Reads(list_long, list));
  EXPECT_FALSE(Reads(list, list_long));
}

TEST(ConfluentAvroCompatibility, HostileSchemas) {
  // Deep nesting at the parser's limit is compared without trouble.
  std::string deep = R"("int")";
  std::string deep_long = R"("long")";
  for (int i = 0; i < 40; ++i) {
    deep = R"({"type":"array","items":)" + deep + "}";
    deep_long = R"({"type":"array","items":)" + deep_long + "}";
  }
  EXPECT_TRUE(Reads(deep_long, deep));
  EXPECT_FALSE(Reads(deep, deep_long));
  // Huge names and many fields: messages stay bounded.
  std::string name(100000, 'x');
  std::string fields;
  std::string writer_fields;
  for (int i = 0; i < 5000; ++i) {
    if (i) {
      fields += ",";
      writer_fields += ",";
    }
    fields += R"({"name":"f)" + std::to_string(i) + R"(","type":"int"})";
    writer_fields += R"({"name":"g)" + std::to_string(i) + R"(","type":"int"})";
  }
  std::string reader = R"({"type":"record","name":")" + name + R"(","fields":[)" + fields + "]}";
  std::string writer =
      R"({"type":"record","name":")" + name + R"(","fields":[)" + writer_fields + "]}";
  std::vector<std::string> messages = AvroReadIncompatibilities(Parse(reader), Parse(writer));
  EXPECT_FALSE(messages.empty());
  EXPECT_LE(messages.size(), 8u);
  // Wide unions of many records against each other: each pair decided once.
  std::string branches;
  for (int i = 0; i < 50; ++i) {
    if (i) branches += ",";
    branches += R"({"type":"record","name":"R)" + std::to_string(i) +
                R"(","fields":[{"name":"a","type":"int"}]})";
  }
  EXPECT_TRUE(Reads("[" + branches + "]", "[" + branches + "]"));
}

class ManualClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(1700000000000));
  }
};

// A registry on an in-memory SQLite database (nullptr after a test failure).
std::unique_ptr<ConfluentRegistry> MemoryRegistry(const Clock& clock) {
  sqlite::OpenOptions options;
  options.path = ":memory:";
  auto db = sqlite::Database::Open(options);
  EXPECT_TRUE(db.has_value()) << db.error().message();
  if (!db.has_value()) return nullptr;
  auto registry = OpenConfluentRegistry(std::move(*db), clock);
  EXPECT_TRUE(registry.has_value()) << registry.error().message();
  return registry.has_value() ? std::move(*registry) : nullptr;
}

TEST(ConfluentRegistryStore, RegisterLookupDeleteAndIsolation) {
  ManualClock clock;
  std::unique_ptr<ConfluentRegistry> registry = MemoryRegistry(clock);
  ASSERT_NE(registry, nullptr);
  ConfluentRegistry& r = *registry;
  SchemaText v1{"AVRO", Record(R"({"name":"a","type":"int"})"), {}};
  SchemaText v2{"AVRO", Record(R"({"name":"a","type":"int"},{"name":"b","type":"int"})"), {}};
  auto id1 = r.Register("111111111111", "s", v1);
  ASSERT_TRUE(id1.has_value()) << id1.error().message;
  EXPECT_EQ(*id1, 1);
  EXPECT_EQ(*r.Register("111111111111", "s", v1), 1);
  EXPECT_EQ(*r.Register("111111111111", "other", v1), 1);  // Same schema, same id.
  auto refused = r.Register("111111111111", "s", v2);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().error_code, kIncompatible);
  EXPECT_EQ(r.GetSchemaById("222222222222", 1).error().error_code, kSchemaNotFound);
  EXPECT_EQ(r.ListVersions("222222222222", "s", false).error().error_code, kSubjectNotFound);
  SchemaText bad{"AVRO", R"({"type":"nope"})", {}};
  EXPECT_EQ(r.Register("111111111111", "s", bad).error().error_code, kInvalidSchema);
  EXPECT_EQ(r.DeleteSubject("111111111111", "s", true).error().error_code, kSubjectNotSoftDeleted);
  EXPECT_EQ(r.DeleteSubject("111111111111", "s", false)->size(), 1u);
  EXPECT_EQ(r.DeleteSubject("111111111111", "s", false).error().error_code, kSubjectSoftDeleted);
  EXPECT_EQ(r.GetVersion("111111111111", "s", std::nullopt, false).error().error_code,
            kSubjectNotFound);
  EXPECT_EQ(r.DeleteSubject("111111111111", "s", true)->size(), 1u);
  auto found = LookupSchemaById(r, "111111111111", 1);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->schema_type, "AVRO");
  EXPECT_EQ(LookupSchemaById(r, "222222222222", 1).error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace st::registry::confluent

namespace st::registry::confluent {
namespace {

// LookupSchemaById hands delivery a PROTOBUF schema with its references
// resolved transitively (dependencies first), by subject and version (-1 =
// latest), in the same account only.
TEST(ConfluentLookup, ResolvesProtobufReferencesTransitively) {
  ManualClock clock;
  std::unique_ptr<ConfluentRegistry> registry = MemoryRegistry(clock);
  ASSERT_NE(registry, nullptr);
  ConfluentRegistry& r = *registry;
  const std::string account = "111111111111";
  ASSERT_TRUE(r.Register(account, "base.proto", {"PROTOBUF", "message B {}", {}}).has_value());
  ASSERT_TRUE(r.Register(account, "mid.proto",
                         {"PROTOBUF",
                          "import \"base.proto\"; message M { B b = 1; }",
                          {Reference{"base.proto", "base.proto", 1}}})
                  .has_value());
  auto top = r.Register(account, "top-value",
                        {"PROTOBUF",
                         "import \"mid.proto\"; message T { M m = 1; }",
                         {Reference{"mid.proto", "mid.proto", -1}}});
  ASSERT_TRUE(top.has_value()) << top.error().message;
  auto found = LookupSchemaById(r, account, *top);
  ASSERT_TRUE(found.has_value()) << found.error().message();
  ASSERT_EQ(found->references.size(), 2u);
  EXPECT_EQ(found->references[0].first, "base.proto");
  EXPECT_EQ(found->references[0].second, "message B {}");
  EXPECT_EQ(found->references[1].first, "mid.proto");
  // A reference to a subject the account does not have is NotFound.
  auto dangling = r.Register(
      account, "dangling-value",
      {"PROTOBUF", "import \"x.proto\"; message D {}", {Reference{"x.proto", "nosuch", 1}}});
  ASSERT_TRUE(dangling.has_value());
  auto missing = LookupSchemaById(r, account, *dangling);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_FALSE(LookupSchemaById(r, "222222222222", *top).has_value());
}

}  // namespace
}  // namespace st::registry::confluent
