// Iceberg table metadata JSON from outside bytes (metadata files a client
// points UpdateTableMetadataLocation or registerTable at):
// ParseTableMetadata, then what the server does with a parsed file
// (Validate, the current schema/spec/snapshot lookups, ToParquetSchema) and
// a serialize/parse round trip, which must give the same v2 metadata back.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "iceberg/parquet_schema.h"
#include "iceberg/table_metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view json(reinterpret_cast<const char*>(data), size);
  auto metadata = st::iceberg::ParseTableMetadata(json);
  if (!metadata.has_value()) return 0;
  (void)metadata->Validate();
  (void)metadata->DefaultSpec();
  (void)metadata->DefaultSortOrder();
  (void)metadata->CurrentSnapshot();
  if (const auto* schema = metadata->CurrentSchema()) {
    (void)st::iceberg::ToParquetSchema(*schema);
  }
  // The serializer writes format v2: whatever we parse (v1 too, as long as
  // it has the table-uuid v2 requires) must parse again after we write it,
  // and v2 must come back unchanged.
  if (metadata->table_uuid.empty()) return 0;
  std::string text = st::iceberg::SerializeTableMetadata(*metadata);
  auto again = st::iceberg::ParseTableMetadata(text);
  if (!again.has_value()) {
    fprintf(stderr, "serialized metadata does not parse: %s\n%s\n",
            again.error().ToString().c_str(), text.c_str());
    abort();
  }
  if (metadata->format_version != 2) return 0;
  if (!(*again == *metadata)) {
    fprintf(stderr, "metadata changed in a serialize/parse round trip:\n%s\n", text.c_str());
    abort();
  }
  return 0;
}
