// Raw deflate (RFC 1951, no zlib or gzip wrapper), as the Avro "deflate" codec uses.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace st::avro::internal {

// Replaces `*out` with the compressed `input`. Errors: Internal if zlib fails.
Status DeflateRaw(std::string_view input, int level, std::string* out);

// Replaces `*out` with the decompressed `input`. Errors: Corruption when the
// stream is malformed, truncated, or inflates to more than
// `max_output_bytes`. Bytes after the end of the stream are ignored (writers
// such as fastavro leave part of a zlib trailer there).
Status InflateRaw(std::string_view input, size_t max_output_bytes, std::string* out);

}  // namespace st::avro::internal
