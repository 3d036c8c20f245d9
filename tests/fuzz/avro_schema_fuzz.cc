// Avro schema JSON from outside bytes (the avro.schema header of a manifest
// a client commits): avro::Schema::Parse, then decoding the bytes after the
// first NUL as values of the parsed schema (the manifest reader's path) and
// encoding every decoded value back, which must succeed. The bytes after the
// NUL are also parsed as a schema whose named types may come from the first
// part (a Confluent schema reference); its JSON must stand alone.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "avro/encoding.h"
#include "avro/schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  std::string_view json = input.substr(0, nul);
  std::string_view values =
      nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  if (nul != std::string_view::npos) {
    auto with_reference = st::avro::Schema::Parse(values, {json});
    if (with_reference.has_value() &&
        !st::avro::Schema::Parse(with_reference->ToJson()).has_value()) {
      fprintf(stderr, "a schema parsed with its references does not stand alone\n");
      abort();
    }
  }
  auto schema = st::avro::Schema::Parse(json);
  if (!schema.has_value()) return 0;
  st::avro::DecodeLimits limits;
  limits.max_zero_width_items = 4096;
  size_t offset = 0;
  for (int i = 0; i < 16 && offset < values.size(); ++i) {
    size_t before = offset;
    auto value = st::avro::Decode(*schema, values, &offset, limits);
    if (!value.has_value()) break;
    std::string encoded;
    st::Status status = st::avro::Encode(*schema, *value, &encoded);
    if (!status.ok()) {
      fprintf(stderr, "a decoded value does not encode: %s\n", status.ToString().c_str());
      abort();
    }
    if (offset == before) break;
  }
  return 0;
}
