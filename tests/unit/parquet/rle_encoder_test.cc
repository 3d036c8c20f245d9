#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parquet/rle_encoder_internal.h"

namespace st::parquet::internal {
namespace {

// An independent decoder, written from the spec, to check round trips.
std::vector<uint32_t> Decode(const uint8_t* p, size_t size, int bit_width, size_t count) {
  std::vector<uint32_t> out;
  size_t i = 0;
  auto varint = [&] {
    uint64_t v = 0;
    int shift = 0;
    while (true) {
      const uint8_t b = p[i++];
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
      shift += 7;
    }
  };
  while (i < size && out.size() < count) {
    const uint64_t header = varint();
    if (header & 1) {
      const size_t n = (header >> 1) * 8;
      uint64_t bitpos = 0;
      for (size_t k = 0; k < n; ++k) {
        uint32_t v = 0;
        for (int b = 0; b < bit_width; ++b, ++bitpos) {
          v |= static_cast<uint32_t>((p[i + bitpos / 8] >> (bitpos % 8)) & 1) << b;
        }
        if (out.size() < count) out.push_back(v);
      }
      i += (header >> 1) * static_cast<uint64_t>(bit_width);
    } else {
      uint32_t v = 0;
      for (int b = 0; b < (bit_width + 7) / 8; ++b) v |= static_cast<uint32_t>(p[i++]) << (8 * b);
      for (uint64_t k = 0; k < (header >> 1); ++k) out.push_back(v);
    }
  }
  EXPECT_EQ(i, size) << "trailing bytes";
  return out;
}

TEST(RleEncoderTest, BitWidth) {
  EXPECT_EQ(BitWidth(0), 0);
  EXPECT_EQ(BitWidth(1), 1);
  EXPECT_EQ(BitWidth(2), 2);
  EXPECT_EQ(BitWidth(255), 8);
  EXPECT_EQ(BitWidth(256), 9);
}

TEST(RleEncoderTest, RunBecomesRle) {
  std::vector<uint16_t> v(10, 1);
  ByteBuffer out;
  EncodeRleHybrid(v.data(), v.size(), 1, &out);
  EXPECT_EQ(out.view(), std::string("\x14\x01", 2));  // header 10<<1, value byte
}

TEST(RleEncoderTest, SpecBitPackingExample) {
  // Encodings.md: values 0..7 at bit width 3 pack to 0x88 0xC6 0xFA.
  std::vector<uint32_t> v = {0, 1, 2, 3, 4, 5, 6, 7};
  ByteBuffer out;
  EncodeRleHybrid(v.data(), v.size(), 3, &out);
  EXPECT_EQ(out.view(), std::string("\x03\x88\xC6\xFA", 4));
}

TEST(RleEncoderTest, PartialGroupIsPaddedAtTheEnd) {
  std::vector<uint32_t> v = {1, 0, 1};
  ByteBuffer out;
  EncodeRleHybrid(v.data(), v.size(), 1, &out);
  EXPECT_EQ(out.view(), std::string("\x03\x05", 2));
}

TEST(RleEncoderTest, RandomRoundTrips) {
  std::mt19937 rng(1);
  for (int width : {1, 2, 3, 5, 8, 9, 13, 16, 17, 24, 31, 32}) {
    for (int trial = 0; trial < 20; ++trial) {
      const size_t n = rng() % 2000;
      std::vector<uint32_t> v(n);
      const uint64_t mask = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1;
      for (size_t k = 0; k < n;) {
        const uint32_t value = static_cast<uint32_t>(rng() & mask);
        size_t run = rng() % 3 == 0 ? rng() % 40 : 1;  // mix runs and noise
        for (; run > 0 && k < n; --run) v[k++] = value;
      }
      ByteBuffer out;
      EncodeRleHybrid(v.data(), v.size(), width, &out);
      EXPECT_EQ(Decode(out.data(), out.size(), width, n), v) << "width " << width;
    }
  }
}

}  // namespace
}  // namespace st::parquet::internal
