#include "parquet/value_hash_internal.h"

namespace st::parquet::internal {

uint64_t HashLongBytes(const uint8_t* p, size_t len, uint64_t seed) {
  uint64_t h0 = seed;
  if (len > 32) {
    uint64_t h1 = seed ^ kHashK3;
    const uint8_t* const last = p + len - 32;  // The final 32 bytes, overlapping if need be.
    if (len > 128) {
      // Four lanes for long values (URLs, user agents).
      uint64_t h2 = seed ^ kHashK1;
      uint64_t h3 = seed ^ kHashK2;
      const uint8_t* const stop = p + len - 64;
      while (p < stop) {
        h0 = FoldMultiply(LoadU64(p) ^ kHashK1, LoadU64(p + 8) ^ h0);
        h1 = FoldMultiply(LoadU64(p + 16) ^ kHashK2, LoadU64(p + 24) ^ h1);
        h2 = FoldMultiply(LoadU64(p + 32) ^ kHashK3, LoadU64(p + 40) ^ h2);
        h3 = FoldMultiply(LoadU64(p + 48) ^ kHashK0, LoadU64(p + 56) ^ h3);
        p += 64;
      }
      h0 ^= h2;
      h1 ^= h3;
    }
    while (p < last) {
      h0 = FoldMultiply(LoadU64(p) ^ kHashK1, LoadU64(p + 8) ^ h0);
      h1 = FoldMultiply(LoadU64(p + 16) ^ kHashK2, LoadU64(p + 24) ^ h1);
      p += 32;
    }
    h0 = FoldMultiply(LoadU64(last) ^ kHashK1, LoadU64(last + 8) ^ h0);
    h1 = FoldMultiply(LoadU64(last + 16) ^ kHashK2, LoadU64(last + 24) ^ h1);
    return FoldMultiply(h0 ^ kHashK3, h1 ^ kHashK0);
  }
  // 17..32 bytes: the first and the last 16, overlapping.
  const uint8_t* const tail = p + len - 16;
  h0 = FoldMultiply(LoadU64(p) ^ kHashK1, LoadU64(p + 8) ^ h0);
  return FoldMultiply(LoadU64(tail) ^ kHashK2, LoadU64(tail + 8) ^ h0);
}

}  // namespace st::parquet::internal
