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
  // The serializer writes format v2; a v1 file may hold what v2 forbids
  // (sequence numbers above last-sequence-number), so only v2 round-trips.
  if (metadata->format_version != 2) return 0;
  std::string text = st::iceberg::SerializeTableMetadata(*metadata);
  auto again = st::iceberg::ParseTableMetadata(text);
  if (!again.has_value()) {
    fprintf(stderr, "serialized metadata does not parse: %s\n%s\n",
            again.error().ToString().c_str(), text.c_str());
    abort();
  }
  if (!(*again == *metadata)) {
    fprintf(stderr, "metadata changed in a serialize/parse round trip:\n%s\n", text.c_str());
    abort();
  }
  return 0;
}
