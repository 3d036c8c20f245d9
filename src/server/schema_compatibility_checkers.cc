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

}  // namespace st::server
