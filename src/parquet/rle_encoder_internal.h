// The RLE / bit-packing hybrid encoding (Parquet Encodings.md), used for
// repetition/definition levels and dictionary indices.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parquet/byte_buffer_internal.h"

namespace st::parquet::internal {

// Bits needed to store `max_value` (0 for 0).
inline int BitWidth(uint64_t max_value) {
  return max_value == 0 ? 0 : 64 - __builtin_clzll(max_value);
}

// Appends the hybrid encoding of values[0..n) (each < 2^bit_width, bit_width
// 1..32) to *out, without any length prefix or bit-width byte. Runs of 8 or
// more equal values become RLE runs; the rest is bit-packed in groups of 8,
// the final group zero-padded.
void EncodeRleHybrid(const uint16_t* values, size_t n, int bit_width, ByteBuffer* out);
void EncodeRleHybrid(const uint32_t* values, size_t n, int bit_width, ByteBuffer* out);

}  // namespace st::parquet::internal
