#include <algorithm>
#include <cstring>

#include "parquet/rle_encoder_internal.h"

namespace st::parquet::internal {
namespace {

constexpr size_t kMinRleRun = 8;

void PutVarint(uint64_t v, ByteBuffer* out) {
  while (v >= 0x80) {
    out->PushByte(static_cast<uint8_t>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->PushByte(static_cast<uint8_t>(v));
}

template <typename T>
size_t RunLength(const T* values, size_t n, size_t i, size_t cap) {
  size_t j = i + 1;
  const size_t end = cap < n - i ? i + cap : n;
  while (j < end && values[j] == values[i]) ++j;
  return j - i;
}

template <typename T>
void PutRleRun(size_t count, T value, int bit_width, ByteBuffer* out) {
  PutVarint(static_cast<uint64_t>(count) << 1, out);
  const int value_bytes = (bit_width + 7) / 8;
  uint32_t v = value;
  for (int b = 0; b < value_bytes; ++b) out->PushByte(static_cast<uint8_t>(v >> (8 * b)));
}

// Packs `groups` groups of 8 values from values[start..), treating positions
// at or past n as zero. Bits go out 32 at a time: with bit_width <= 32 the
// accumulator never holds more than 63 bits.
template <typename T>
void PutBitPacked(const T* values, size_t n, size_t start, size_t groups, int bit_width,
                  ByteBuffer* out) {
  PutVarint((static_cast<uint64_t>(groups) << 1) | 1, out);
  const size_t bytes = groups * static_cast<size_t>(bit_width);
  // 4 bytes of slack: the last 32-bit store may reach past the packed end.
  uint8_t* dst = out->Reserve(bytes + 4);
  uint8_t* p = dst;
  uint64_t acc = 0;
  int bits = 0;
  const size_t full_end = std::min(n, start + groups * 8);
  for (size_t i = start; i < start + groups * 8; ++i) {
    const uint64_t v = i < full_end ? static_cast<uint64_t>(values[i]) : 0;
    acc |= v << bits;
    bits += bit_width;
    if (bits >= 32) {
      const auto word = static_cast<uint32_t>(acc);
      std::memcpy(p, &word, 4);
      p += 4;
      acc >>= 32;
      bits -= 32;
    }
  }
  // 8 * groups * bit_width bits is a whole number of bytes.
  const auto word = static_cast<uint32_t>(acc);
  std::memcpy(p, &word, 4);
  out->Commit(bytes);
}

template <typename T>
void Encode(const T* values, size_t n, int bit_width, ByteBuffer* out) {
  size_t i = 0;
  while (i < n) {
    const size_t run = RunLength(values, n, i, n);
    if (run >= kMinRleRun) {
      PutRleRun(run, values[i], bit_width, out);
      i += run;
      continue;
    }
    const size_t start = i;
    size_t groups = 0;
    while (i < n) {
      if (groups > 0 && RunLength(values, n, i, kMinRleRun) >= kMinRleRun) break;
      i += 8;
      ++groups;
    }
    PutBitPacked(values, n, start, groups, bit_width, out);
    if (i > n) i = n;
  }
}

}  // namespace

void EncodeRleHybrid(const uint16_t* values, size_t n, int bit_width, ByteBuffer* out) {
  Encode(values, n, bit_width, out);
}

void EncodeRleHybrid(const uint32_t* values, size_t n, int bit_width, ByteBuffer* out) {
  Encode(values, n, bit_width, out);
}

}  // namespace st::parquet::internal
