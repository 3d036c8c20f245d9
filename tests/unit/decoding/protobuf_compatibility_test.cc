// Protobuf compatibility (the registry's PROTOBUF checker): each rule in both
// directions, as a table of (old schema, new schema, what BACKWARD reports =
// the new reads the old's data, what FORWARD reports = the old reads the new's).
#include "decoding/protobuf_compatibility.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace st::decoding {
namespace {

WriterSchema ProtoText(const std::string& text,
                       std::vector<std::pair<std::string, std::string>> references = {}) {
  return WriterSchema{WriterSchemaType::kProtobuf, text, std::move(references)};
}

std::string P3(const std::string& body) { return "syntax = \"proto3\";\npackage p;\n" + body; }
std::string P2(const std::string& body) { return "syntax = \"proto2\";\npackage p;\n" + body; }

// "" when compatible; else all messages joined.
std::string ProtoCheck(const WriterSchema& reader, const WriterSchema& writer) {
  Result<std::vector<std::string>> got = ProtobufReadIncompatibilities(reader, writer);
  if (!got.has_value()) return "error: " + got.error().message();
  std::string out;
  for (const std::string& m : *got) out += (out.empty() ? "" : " | ") + m;
  return out;
}

struct ProtoCase {
  const char* name;
  std::string old_schema;
  std::string new_schema;
  std::string backward;  // Substring expected; "" = compatible.
  std::string forward;
};

void ExpectProtoCase(const ProtoCase& c,
                     const std::vector<std::pair<std::string, std::string>>& refs_old,
                     const std::vector<std::pair<std::string, std::string>>& refs_new) {
  const std::string backward =
      ProtoCheck(ProtoText(c.new_schema, refs_new), ProtoText(c.old_schema, refs_old));
  const std::string forward =
      ProtoCheck(ProtoText(c.old_schema, refs_old), ProtoText(c.new_schema, refs_new));
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

TEST(ProtobufCompatibility, RulesInBothDirections) {
  const std::vector<ProtoCase> cases = {
      {"add and remove optional fields", P3("message M { int32 a = 1; string b = 2; }"),
       P3("message M { int32 a = 1; repeated int64 c = 3; }"), "", ""},
      {"rename a field", P3("message M { int32 a = 1; }"), P3("message M { int32 renamed = 1; }"),
       "", ""},
      {"varint group", P3("message M { int32 a = 1; bool b = 2; }"),
       P3("message M { uint64 a = 1; int64 b = 2; }"), "", ""},
      {"zigzag group", P3("message M { sint32 a = 1; }"), P3("message M { sint64 a = 1; }"), "",
       ""},
      {"fixed32 group", P3("message M { fixed32 a = 1; }"), P3("message M { sfixed32 a = 1; }"), "",
       ""},
      {"fixed64 group", P3("message M { fixed64 a = 1; }"), P3("message M { sfixed64 a = 1; }"), "",
       ""},
      {"string and bytes", P3("message M { string a = 1; }"), P3("message M { bytes a = 1; }"), "",
       ""},
      {"int32 to string", P3("message M { int32 a = 1; }"), P3("message M { string a = 1; }"),
       "FIELD_SCALAR_KIND_CHANGED at M.a (1): the writer's int32 cannot be read as the reader's "
       "string",
       "FIELD_SCALAR_KIND_CHANGED at M.a (1): the writer's string"},
      {"int32 to sint32", P3("message M { int32 a = 1; }"), P3("message M { sint32 a = 1; }"),
       "FIELD_SCALAR_KIND_CHANGED", "FIELD_SCALAR_KIND_CHANGED"},
      {"fixed32 to fixed64", P3("message M { fixed32 a = 1; }"), P3("message M { fixed64 a = 1; }"),
       "FIELD_SCALAR_KIND_CHANGED", "FIELD_SCALAR_KIND_CHANGED"},
      {"float to double", P3("message M { float a = 1; }"), P3("message M { double a = 1; }"),
       "FIELD_SCALAR_KIND_CHANGED", "FIELD_SCALAR_KIND_CHANGED"},
      {"scalar to message", P3("message A {} message M { int32 a = 1; }"),
       P3("message A {} message M { A a = 1; }"), "FIELD_KIND_CHANGED at M.a (1)",
       "FIELD_KIND_CHANGED at M.a (1)"},
      {"enum to int32", P3("enum E { Z = 0; } message M { E a = 1; }"),
       P3("enum E { Z = 0; } message M { int32 a = 1; }"), "FIELD_KIND_CHANGED",
       "FIELD_KIND_CHANGED"},
      {"message type changed", P3("message A {} message B {} message M { A a = 1; }"),
       P3("message A {} message B {} message M { B a = 1; }"),
       "FIELD_NAMED_TYPE_CHANGED at M.a (1): the writer's A, the reader's B",
       "FIELD_NAMED_TYPE_CHANGED at M.a (1): the writer's B, the reader's A"},
      {"singular to repeated", P3("message M { int32 a = 1; }"),
       P3("message M { repeated int32 a = 1; }"),
       "FIELD_KIND_CHANGED at M.a (1): the writer's field is singular, the reader's repeated",
       "FIELD_KIND_CHANGED at M.a (1): the writer's field is repeated, the reader's singular"},
      {"map value type", P3("message M { map<string, int32> tags = 1; }"),
       P3("message M { map<string, string> tags = 1; }"),
       "FIELD_SCALAR_KIND_CHANGED at M.TagsEntry.value (2)",
       "FIELD_SCALAR_KIND_CHANGED at M.TagsEntry.value (2)"},
      {"repeated message to map",
       P3("message M { message TagsEntry { string key = 1; string value = 2; } repeated TagsEntry "
          "tags = 1; }"),
       P3("message M { map<string, string> tags = 1; }"),
       "the writer's field is repeated, the reader's map",
       "the writer's field is map, the reader's repeated"},
      {"package changed", "syntax = \"proto3\";\npackage a;\nmessage M { int32 x = 1; }",
       "syntax = \"proto3\";\npackage b;\nmessage M { int32 x = 1; }",
       "PACKAGE_CHANGED, the reader's package is 'b', the writer's 'a'", "PACKAGE_CHANGED"},
      {"top-level message removed", P3("message M { int32 a = 1; } message N {}"),
       P3("message M { int32 a = 1; }"), "MESSAGE_REMOVED, message N", ""},
      {"proto2 required added", P2("message M { optional int32 a = 1; }"),
       P2("message M { optional int32 a = 1; required int32 b = 2; }"),
       "REQUIRED_FIELD_ADDED at M.b (2)", "REQUIRED_FIELD_REMOVED at M.b (2)"},
      {"proto2 optional to required", P2("message M { optional int32 a = 1; }"),
       P2("message M { required int32 a = 1; }"), "REQUIRED_FIELD_ADDED at M.a (1)", ""},
      {"proto2 optional fields", P2("message M { optional int32 a = 1; }"),
       P2("message M { optional int32 a = 1; optional string b = 2; }"), "", ""},
      {"field moved into an existing oneof",
       P3("message M { oneof o { int32 a = 1; } int32 b = 2; }"),
       P3("message M { oneof o { int32 a = 1; int32 b = 2; } }"),
       "FIELD_MOVED_TO_EXISTING_ONEOF at M.b (2): moved into oneof o", ""},
      {"one field moved into a new oneof", P3("message M { int32 a = 1; }"),
       P3("message M { oneof o { int32 a = 1; } }"), "", ""},
      {"two fields moved into a new oneof", P3("message M { int32 a = 1; int32 b = 2; }"),
       P3("message M { oneof o { int32 a = 1; int32 b = 2; } }"),
       "MULTIPLE_FIELDS_MOVED_TO_ONEOF at M: 2 of the writer's fields are in the reader's new "
       "oneof o",
       ""},
      {"proto3 optional is not a oneof", P3("message M { int32 a = 1; int32 b = 2; }"),
       P3("message M { optional int32 a = 1; optional int32 b = 2; }"), "", ""},
      {"nested message field", P3("message M { message N { int32 x = 1; } N n = 1; }"),
       P3("message M { message N { string x = 1; } N n = 1; }"),
       "FIELD_SCALAR_KIND_CHANGED at M.N.x (1)", "FIELD_SCALAR_KIND_CHANGED at M.N.x (1)"},
      {"well-known type",
       P3("import \"google/protobuf/timestamp.proto\";\nmessage M { "
          "google.protobuf.Timestamp t = 1; }"),
       P3("import \"google/protobuf/timestamp.proto\";\nmessage M { int64 t = 1; }"),
       "FIELD_KIND_CHANGED at M.t (1): the writer's google.protobuf.Timestamp", ""},
  };
  // The last case's forward direction: int64 read as a Timestamp message.
  for (size_t i = 0; i + 1 < cases.size(); ++i) ExpectProtoCase(cases[i], {}, {});
  ProtoCase last = cases.back();
  last.forward = "FIELD_KIND_CHANGED at M.t (1): the writer's int64";
  ExpectProtoCase(last, {}, {});
}

TEST(ProtobufCompatibility, ImportedMessagesThroughReferences) {
  const std::string dep_v1 = "syntax = \"proto3\";\npackage d;\nmessage D { int32 x = 1; }";
  const std::string dep_v2 = "syntax = \"proto3\";\npackage d;\nmessage D { string x = 1; }";
  const std::string main = P3("import \"d.proto\";\nmessage M { d.D dep = 1; }");
  ExpectProtoCase({"same import", main, main, "", ""}, {{"d.proto", dep_v1}},
                  {{"d.proto", dep_v1}});
  ExpectProtoCase({"import changed", main, main, "FIELD_SCALAR_KIND_CHANGED at d.D.x (1)",
                   "FIELD_SCALAR_KIND_CHANGED at d.D.x (1)"},
                  {{"d.proto", dep_v1}}, {{"d.proto", dep_v2}});
  // An import without a reference is an error (the registry answers 42201).
  EXPECT_NE(ProtoCheck(ProtoText(main), ProtoText(main)).find("error: "), std::string::npos);
  EXPECT_FALSE(ValidateProtobufSchema(ProtoText(main)).ok());
  EXPECT_TRUE(ValidateProtobufSchema(ProtoText(main, {{"d.proto", dep_v1}})).ok());
}

TEST(ProtobufCompatibility, HostileSchemasAreErrors) {
  EXPECT_NE(ProtoCheck(ProtoText("message {"), ProtoText(P3("message M {}"))).find("error: "),
            std::string::npos);
  // Message declarations nested beyond the bound are refused, not recursed into.
  std::string deep;
  for (int i = 0; i < 80; ++i) deep += "message N" + std::to_string(i) + " { ";
  for (int i = 0; i < 80; ++i) deep += "} ";
  const std::string result = ProtoCheck(ProtoText(P3(deep)), ProtoText(P3(deep)));
  EXPECT_NE(result.find("error: "), std::string::npos) << result;
}

}  // namespace
}  // namespace st::decoding
