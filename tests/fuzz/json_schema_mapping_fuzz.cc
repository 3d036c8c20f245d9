// JSON Schema documents from outside bytes (Glue CreateSchema /
// RegisterSchemaVersion bodies and registry definitions a channel maps):
// JsonSchemaToIceberg, then the mapped schema compiled for delivery
// (ToParquetSchema), as CreateChannel does; the key mapping
// (JsonSchemaKeyToIceberg) of the same bytes; and, when the input holds a
// NUL, the part after it as a reference named "r.json" of the part before.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "iceberg/parquet_schema.h"
#include "registry/json_schema_mapping.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view document(reinterpret_cast<const char*>(data), size);
  st::registry::JsonSchemaReferences references;
  if (size_t nul = document.find('\0'); nul != std::string_view::npos) {
    references.emplace_back("r.json", std::string(document.substr(nul + 1)));
    document = document.substr(0, nul);
  }
  auto schema = st::registry::JsonSchemaToIceberg(document, references);
  if (schema.has_value()) (void)st::iceberg::ToParquetSchema(*schema);
  auto key = st::registry::JsonSchemaKeyToIceberg(document, references);
  if (key.has_value()) (void)st::iceberg::ToParquetSchema(key->schema);
  return 0;
}
