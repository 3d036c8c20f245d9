// Kafka record values of a JSON_SCHEMA_GSR channel from outside bytes: the
// Glue Schema Registry header (version, compression, schema version UUID),
// zlib inflation capped as the channel caps it, then the JSON payload
// shredded into the table of shred_schema.h. The same bytes are also read as
// a PROTOBUF_GSR value's header (only the message index's bytes inflated).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "decoding/gsr_framing_internal.h"
#include "decoding/protobuf_schema.h"
#include "shred_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static st::fuzz::ShredSetup setup = st::fuzz::MakeShredSetup();
  static std::string inflated;
  std::string_view value(reinterpret_cast<const char*>(data), size);
  st::decoding::GsrFrame frame;
  st::decoding::RecordError error;
  st::decoding::GsrProtobufHeader header;
  (void)st::decoding::ReadGsrProtobufHeader(value, &header, &error);
  if (!st::decoding::ParseGsrFrame(value, &frame, &error)) return 0;
  std::string_view payload = frame.payload;
  if (frame.zlib) {
    // A 64 KiB cap keeps a zip bomb from slowing the fuzzer; the channel's
    // max_record_bytes is the same check at a larger size.
    if (!st::decoding::InflateGsrPayload(payload, 64 * 1024, &inflated, &error)) return 0;
    payload = inflated;
  }
  st::fuzz::ShredOne(setup, payload);
  return 0;
}
