#include <nlohmann/json.hpp>

#include "avro/schema.h"
#include "common/json_nesting.h"
#include "registry/definition_key_internal.h"

namespace st::registry::internal {

Result<std::string> DefinitionKey(const std::string& data_format, const std::string& definition) {
  if (data_format == "PROTOBUF") return definition;
  if (data_format != "JSON" && data_format != "AVRO") {
    return Err(InvalidArgument("data format '" + data_format +
                               "' is not supported; use JSON, AVRO or PROTOBUF"));
  }
  // dump() recurses once per level.
  ST_TRY(CheckJsonNesting(definition, "Schema definition of " + data_format + " data format"));
  // nlohmann::json keeps object members in a sorted map, so dump() is canonical.
  nlohmann::json document = nlohmann::json::parse(definition, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    return Err(InvalidArgument("Schema definition of " + data_format +
                               " data format is invalid: it is not a JSON document"));
  }
  if (data_format == "AVRO") {
    // A version the decoder cannot parse would send every record framed
    // with it to the dead-letter queue; Glue refuses such definitions too.
    if (Result<avro::Schema> parsed = avro::Schema::Parse(definition); !parsed.has_value()) {
      return Err(InvalidArgument("Schema definition of AVRO data format is invalid: " +
                                 parsed.error().message()));
    }
  }
  return document.dump();
}

}  // namespace st::registry::internal
