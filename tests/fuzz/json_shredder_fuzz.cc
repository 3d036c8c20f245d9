// Kafka record values of a JSON channel from outside bytes: one JSON
// object shredded (simdjson On-Demand) into the column buffers of a table
// with every Iceberg type (shred_schema.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shred_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static st::fuzz::ShredSetup setup = st::fuzz::MakeShredSetup();
  st::fuzz::ShredOne(setup, std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
