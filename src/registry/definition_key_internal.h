// What makes two schema definitions "the same" for GetSchemaByDefinition and
// for RegisterSchemaVersion's reuse of an existing version.
#pragma once

#include <string>

#include "common/status.h"

namespace st::registry::internal {

// JSON and AVRO: the parsed document re-serialized with object members
// sorted and no whitespace, so formatting and member order do not matter.
// PROTOBUF: the text itself. Errors: InvalidArgument when a JSON/AVRO
// definition is not one JSON document or nests deeper than
// common/json_nesting.h kMaxJsonNesting, or the data format is unknown.
Result<std::string> DefinitionKey(const std::string& data_format, const std::string& definition);

}  // namespace st::registry::internal
