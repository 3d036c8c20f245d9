// Hashes for dictionary lookups: fast, not stable across versions, not
// collision-resistant against an adversary (the dictionary compares the
// bytes of every candidate, so a collision costs time, never correctness).
//
// Long values are hashed 32 bytes per step in two independent lanes, each a
// 64x64->128-bit multiply folded to 64 bits with the lane's state fed into
// the multiply (so block order matters). The two multiplies overlap in the
// pipeline: about 5 bytes per cycle on current x86-64, which keeps hashing
// the long URL and user-agent strings of clickstream data off the profile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace st::parquet::internal {

__extension__ using HashU128 = unsigned __int128;

inline uint64_t FoldMultiply(uint64_t a, uint64_t b) {
  const HashU128 p = static_cast<HashU128>(a) * b;
  return static_cast<uint64_t>(p) ^ static_cast<uint64_t>(p >> 64);
}

inline uint64_t LoadU64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t LoadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline constexpr uint64_t kHashK0 = 0x9E3779B97F4A7C15ULL;
inline constexpr uint64_t kHashK1 = 0xC2B2AE3D27D4EB4FULL;
inline constexpr uint64_t kHashK2 = 0x165667B19E3779F9ULL;
inline constexpr uint64_t kHashK3 = 0xD6E8FEB86659FD93ULL;

// Hash of a 4- or 8-byte value's bits.
inline uint64_t HashFixed64(uint64_t bits) { return FoldMultiply(bits ^ kHashK0, kHashK1); }

// Values over 16 bytes; see HashBytes.
uint64_t HashLongBytes(const uint8_t* p, size_t len, uint64_t seed);

// Inline for short values (codes, countries, IPs: most values by count),
// out of line for long ones.
inline uint64_t HashBytes(const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  const uint64_t seed = kHashK2 ^ (static_cast<uint64_t>(len) * kHashK0);
  if (len > 16) return HashLongBytes(p, len, seed);
  uint64_t a;
  uint64_t b;
  if (len >= 8) {
    a = LoadU64(p);
    b = LoadU64(p + len - 8);
  } else if (len >= 4) {
    a = LoadU32(p);
    b = LoadU32(p + len - 4);
  } else if (len > 0) {
    a = (static_cast<uint64_t>(p[0]) << 16) | (static_cast<uint64_t>(p[len >> 1]) << 8) |
        p[len - 1];
    b = 0;
  } else {
    a = b = 0;
  }
  return FoldMultiply(a ^ kHashK1, b ^ seed);
}

}  // namespace st::parquet::internal
