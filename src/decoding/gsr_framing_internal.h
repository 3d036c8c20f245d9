// The AWS Glue Schema Registry wire framing (docs/msk-channel-api-notes.md §13):
// version byte 0x03, compression byte 0x00 (none) or 0x05 (zlib), the
// 16-byte schema version UUID, then the payload.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "decoding/record.h"

namespace st::decoding {

inline constexpr size_t kGsrHeaderBytes = 18;

struct GsrFrame {
  std::string schema_version_id;  // Lower-case canonical UUID text.
  bool zlib = false;
  std::string_view payload;  // Points into the parsed value.
};

// False (MISSING_GSR_HEADER in `error`) when the value is shorter than the
// header or has an unknown version or compression byte.
bool ParseGsrFrame(std::string_view value, GsrFrame* frame, RecordError* error);

// Inflates a zlib (RFC 1950) payload into `out`, stopping at max_bytes.
// False with RECORD_TOO_LARGE past the cap, MALFORMED_JSON when the stream is
// corrupt or truncated.
bool InflateGsrPayload(std::string_view compressed, int64_t max_bytes, std::string* out,
                       RecordError* error);

// Inflates only the start of a zlib payload into `out`: at least
// `min_bytes` (fewer when the stream is shorter), not much more. False with
// MALFORMED_JSON when the stream is corrupt or ends early (callers recode).
bool InflateGsrPrefix(std::string_view compressed, size_t min_bytes, std::string* out,
                      RecordError* error);

// Protobuf (PROTOBUF_GSR): the (inflated) payload starts with the message
// index as an unsigned varint of at most 5 bytes (uint32). False with
// TRUNCATED_PAYLOAD when the payload ends inside it, MALFORMED_PROTOBUF when
// it is longer or above 2^32 - 1. `index_bytes` is where the message starts.
inline constexpr size_t kMaxGsrMessageIndexBytes = 5;
bool ReadGsrMessageIndex(std::string_view payload, uint32_t* index, size_t* index_bytes,
                         RecordError* error);

}  // namespace st::decoding
