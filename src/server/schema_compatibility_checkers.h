// The Confluent registry's per-type compatibility checkers, built here (the
// composition root) because the Protobuf one is decoding's: the registry
// sits below decoding in the module graph and owns only the interface
// (registry::confluent::SchemaCompatibilityChecker) and the JSON Schema one.
#pragma once

#include "registry/confluent_registry.h"
#include "registry/schema_registry.h"

namespace st::server {

// JSON: registry/confluent_json_compatibility.h; PROTOBUF:
// decoding/protobuf_compatibility.h. Stateless, thread-safe.
registry::confluent::CompatibilityCheckers MakeSchemaCompatibilityCheckers();

// The Glue registry's check of PROTOBUF definitions (decoding's .proto
// parser, Google's well-known imports built in; GSR has no schema
// references); other formats pass (the registry checks JSON and AVRO itself).
registry::DefinitionValidator MakeGlueDefinitionValidator();

// What the Glue registry is opened with: that validator, and the Protobuf
// checker above for the compatibility of its PROTOBUF versions (JSON
// versions are not compared; AVRO's check is the registry's own).
registry::GlueFormatSupport MakeGlueFormatSupport();

}  // namespace st::server
