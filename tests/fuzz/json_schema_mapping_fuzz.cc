// JSON Schema documents from outside bytes (Glue CreateSchema /
// RegisterSchemaVersion bodies and registry definitions a channel maps):
// JsonSchemaToIceberg, then the mapped schema compiled for delivery
// (ToParquetSchema), as CreateChannel does.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "iceberg/parquet_schema.h"
#include "registry/json_schema_mapping.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view document(reinterpret_cast<const char*>(data), size);
  auto schema = st::registry::JsonSchemaToIceberg(document);
  if (schema.has_value()) (void)st::iceberg::ToParquetSchema(*schema);
  return 0;
}
