#include "server/schema_compatibility_checkers.h"

#include <memory>

#include "decoding/protobuf_compatibility.h"
#include "registry/confluent_json_compatibility.h"
#include "server/confluent_schema_lookup.h"

namespace st::server {

namespace {

using registry::confluent::RegisteredSchema;

class ProtobufChecker final : public registry::confluent::SchemaCompatibilityChecker {
 public:
  Result<std::vector<std::string>> ReadIncompatibilities(
      const RegisteredSchema& reader, const RegisteredSchema& writer) const override {
    return decoding::ProtobufReadIncompatibilities(ToWriterSchema(reader), ToWriterSchema(writer));
  }
  Status Validate(const RegisteredSchema& schema) const override {
    return decoding::ValidateProtobufSchema(ToWriterSchema(schema));
  }
};

}  // namespace

registry::confluent::CompatibilityCheckers MakeSchemaCompatibilityCheckers() {
  return registry::confluent::CompatibilityCheckers{
      .json = registry::confluent::MakeJsonSchemaCompatibilityChecker(),
      .protobuf = std::make_shared<ProtobufChecker>()};
}

registry::DefinitionValidator MakeGlueDefinitionValidator() {
  return [](const std::string& data_format, const std::string& definition) -> Status {
    if (data_format != "PROTOBUF") return Status::OK();
    return decoding::ValidateProtobufSchema(
        decoding::WriterSchema{decoding::WriterSchemaType::kProtobuf, definition, {}});
  };
}

registry::GlueFormatSupport MakeGlueFormatSupport() {
  // PROTOBUF by the wire-compatibility rules the Confluent API uses. JSON is
  // not compared: Glue does not document its JSON Schema rules, and
  // Confluent's refuse the most common evolution under BACKWARD (a new
  // optional property of an open content model), which Glue users and the
  // GSR serializers rely on (tests/integration/test_glue_registry.py).
  return registry::GlueFormatSupport{
      .validate = MakeGlueDefinitionValidator(),
      .checkers = registry::confluent::CompatibilityCheckers{
          .json = nullptr, .protobuf = MakeSchemaCompatibilityCheckers().protobuf}};
}

}  // namespace st::server
