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
// at or past n as zero.
template <typename T>
void PutBitPacked(const T* values, size_t n, size_t start, size_t groups, int bit_width,
                  ByteBuffer* out) {
  PutVarint((static_cast<uint64_t>(groups) << 1) | 1, out);
  uint8_t* dst = out->Reserve(groups * static_cast<size_t>(bit_width));
  uint8_t* p = dst;
  for (size_t g = 0; g < groups; ++g) {
    const size_t base = start + g * 8;
    uint64_t acc = 0;
    int bits = 0;
    for (size_t k = 0; k < 8; ++k) {
      const uint64_t v = base + k < n ? static_cast<uint64_t>(values[base + k]) : 0;
      acc |= v << bits;
      bits += bit_width;
      while (bits >= 8) {
        *p++ = static_cast<uint8_t>(acc);
        acc >>= 8;
        bits -= 8;
      }
    }
  }
  out->Commit(static_cast<size_t>(p - dst));
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
