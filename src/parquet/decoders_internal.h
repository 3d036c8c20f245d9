// Decoders for Parquet's value and level encodings (Encodings.md): the
// RLE / bit-packing hybrid, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT. Every decoder reads only inside
// the bytes it is given and fails with Corruption when they run out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace st::parquet::internal {

// The hybrid encoding without length prefix, values of bit_width 0..32.
class RleDecoder {
 public:
  RleDecoder(const uint8_t* data, size_t size, int bit_width)
      : data_(data), size_(size), bit_width_(bit_width) {}

  // Decodes exactly n values into out. Corruption when the runs end first.
  Status Decode(uint32_t* out, size_t n);
  Status Decode(int16_t* out, size_t n);

 private:
  template <typename T>
  Status DecodeT(T* out, size_t n);
  Status NextRun();

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int bit_width_;
  // The current run: `left` values; RLE repeats `value`, bit-packed reads
  // from packed_ at bit packed_bit_.
  size_t left_ = 0;
  bool rle_ = true;
  uint32_t value_ = 0;
  const uint8_t* packed_ = nullptr;
  size_t packed_bytes_ = 0;
  uint64_t packed_bit_ = 0;
};

// DELTA_BINARY_PACKED of INT32 (as wrapped int64 arithmetic) or INT64.
// Decodes exactly n values (the page's), and reports the bytes the encoded
// stream took (DELTA_LENGTH_BYTE_ARRAY's data follows it).
Status DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, size_t n, int64_t* out,
                               size_t* consumed);

// BYTE_STREAM_SPLIT of n values of `width` bytes each into out (n * width bytes).
Status DecodeByteStreamSplit(const uint8_t* data, size_t size, size_t n, size_t width,
                             uint8_t* out);

// DELTA_LENGTH_BYTE_ARRAY: n views into data.
Status DecodeDeltaLengthByteArray(const uint8_t* data, size_t size, size_t n,
                                  std::vector<std::string_view>* out);

// DELTA_BYTE_ARRAY: the values are rebuilt into a new buffer appended to
// *storage (at most max_bytes in total); n views into it.
Status DecodeDeltaByteArray(const uint8_t* data, size_t size, size_t n, size_t max_bytes,
                            std::vector<std::string_view>* out,
                            std::vector<std::unique_ptr<char[]>>* storage);

}  // namespace st::parquet::internal
