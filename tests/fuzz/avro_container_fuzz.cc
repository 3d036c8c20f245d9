// Avro object container files from outside bytes (manifests and manifest
// lists a client commits): ContainerReader::Open (header, metadata, schema,
// codec) and reading every record, with the limits lowered so hostile
// counts fail fast.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "avro/container.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view file(reinterpret_cast<const char*>(data), size);
  st::avro::ContainerReaderOptions options;
  options.max_block_bytes = 1 << 20;
  options.decode_limits.max_zero_width_items = 4096;
  auto reader = st::avro::ContainerReader::Open(file, options);
  if (!reader.has_value()) return 0;
  (void)(*reader)->FindMetadata("schema");
  st::Value record;
  for (int i = 0; i < 10000; ++i) {
    auto more = (*reader)->Next(&record);
    if (!more.has_value() || !*more) break;
  }
  return 0;
}
