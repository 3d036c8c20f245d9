// The per-column-chunk dictionary: an open-addressing hash table over values
// stored contiguously in their PLAIN encoding, so the dictionary page is the
// storage itself. No allocation per value; lookups are inline and batched.
//
// Each entry's 64-bit hash is kept, so growing the table never rehashes the
// values; Clear() keeps the grown slot array, so the next chunk of a column
// starts at the size the previous one needed.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "parquet/byte_buffer_internal.h"
#include "parquet/value_hash_internal.h"

namespace st::parquet::internal {

class DictionaryTable {
 public:
  // fixed_width > 0: every value has that many bytes (INT32, FIXED, ...);
  // 0: BYTE_ARRAY values, stored with their 4-byte length prefix.
  explicit DictionaryTable(int32_t fixed_width);

  // Batch lookups: hash every value first (independent work the CPU
  // overlaps), then probe with the slots of later values prefetched, which
  // hides most cache misses of large dictionaries. Each writes n indices and
  // calls on_insert(value) for every value new to the dictionary.
  //
  // BYTE_ARRAY values, or FIXED_LEN_BYTE_ARRAY values of exactly fixed_width bytes.
  template <typename OnInsert>
  void GetOrInsertBytes(const std::string_view* values, size_t n, uint32_t* indices,
                        OnInsert&& on_insert) {
    // Blocks small enough that the values just hashed are still in L1 when
    // they are compared with their dictionary entries.
    for (size_t start = 0; start < n; start += kBytesBlock) {
      const size_t end = start + kBytesBlock < n ? start + kBytesBlock : n;
      for (size_t k = start; k < end; ++k) {
        const uint64_t h = HashBytes(values[k].data(), values[k].size());
        block_hashes_[k - start] = h;
        __builtin_prefetch(&slots_[h & mask_]);
      }
      // The likely matching entries' bytes, while their slots arrive: the
      // entry read is the lookup's one miss that nothing else hides.
      for (size_t k = start; k < end; ++k) {
        const uint64_t h = block_hashes_[k - start];
        const Slot& s = slots_[h & mask_];
        if (s.index_plus_one == 0 || s.tag != static_cast<uint32_t>(h >> 32)) continue;
        const uint8_t* entry = plain_.data() + s.offset;
        const size_t span =
            values[k].size() + 4 < kMaxPrefetchBytes ? values[k].size() + 4 : kMaxPrefetchBytes;
        for (size_t at = 0; at < span; at += 64) __builtin_prefetch(entry + at);
      }
      for (size_t k = start; k < end; ++k) {
        const std::string_view v = values[k];
        bool inserted;
        indices[k] = Probe(
            block_hashes_[k - start], [&](const Slot& s) { return EqualsBytes(s.offset, v); },
            [&] { StoreBytes(v); }, &inserted);
        if (inserted) on_insert(v);
      }
    }
  }
  // T is int32_t, int64_t, float or double (compared by bit pattern);
  // fixed_width must be sizeof(T).
  template <typename T, typename OnInsert>
  void GetOrInsertFixed(const T* values, size_t n, uint32_t* indices, OnInsert&& on_insert) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8);
    PrepareHashes(n);
    for (size_t k = 0; k < n; ++k) batch_hashes_[k] = HashFixed64(Bits(values[k]));
    for (size_t k = 0; k < n; ++k) {
      Prefetch(k, n);
      const T v = values[k];
      bool inserted;
      indices[k] = Probe(
          batch_hashes_[k],
          [&](const Slot& s) {
            T stored;
            std::memcpy(&stored, plain_.data() + s.offset, sizeof(T));
            return Bits(stored) == Bits(v);
          },
          [&] { plain_.AppendPod(v); }, &inserted);
      if (inserted) on_insert(v);
    }
  }

  uint32_t size() const { return size_; }
  // The PLAIN dictionary page body.
  std::string_view plain() const { return plain_.view(); }
  size_t plain_size_bytes() const { return plain_.size(); }
  void Clear();

 private:
  struct Slot {
    uint32_t tag;
    uint32_t index_plus_one;  // 0 = empty
    uint64_t offset;          // Of the entry in plain_ (at its length prefix for BYTE_ARRAY).
  };
  static constexpr size_t kPrefetchAhead = 8;
  static constexpr size_t kBytesBlock = 32;
  static constexpr size_t kMaxPrefetchBytes = 512;

  template <typename T>
  static uint64_t Bits(T v) {
    if constexpr (sizeof(T) == 4) {
      uint32_t b;
      std::memcpy(&b, &v, 4);
      return b;
    } else {
      uint64_t b;
      std::memcpy(&b, &v, 8);
      return b;
    }
  }
  void PrepareHashes(size_t n) {
    if (batch_hashes_.size() < n) batch_hashes_.resize(n);
  }
  void Prefetch(size_t k, size_t n) const {
    if (k + kPrefetchAhead < n)
      __builtin_prefetch(&slots_[batch_hashes_[k + kPrefetchAhead] & mask_]);
  }

  template <typename Equals, typename Store>
  uint32_t Probe(uint64_t h, Equals&& equals, Store&& store, bool* inserted) {
    const auto tag = static_cast<uint32_t>(h >> 32);
    size_t slot = h & mask_;
    while (true) {
      const Slot& s = slots_[slot];
      if (s.index_plus_one == 0) break;
      if (s.tag == tag && equals(s)) {
        *inserted = false;
        return s.index_plus_one - 1;
      }
      slot = (slot + 1) & mask_;
    }
    const uint32_t index = size_++;
    const uint64_t offset = plain_.size();
    store();
    entries_.push_back(Entry{h, offset});
    slots_[slot] = Slot{tag, index + 1, offset};
    if (static_cast<size_t>(size_) * 2 > slots_.size()) Grow();
    *inserted = true;
    return index;
  }
  bool EqualsBytes(uint64_t offset, std::string_view v) const {
    const uint8_t* entry = plain_.data() + offset;
    if (fixed_width_ == 0) {
      uint32_t n;
      std::memcpy(&n, entry, 4);
      if (n != v.size()) return false;
      entry += 4;
    }
    return SameBytes(entry, reinterpret_cast<const uint8_t*>(v.data()), v.size());
  }
  // Short values (codes, countries, IPs) compare inline: a memcmp call
  // costs more than the comparison itself.
  static bool SameBytes(const uint8_t* a, const uint8_t* b, size_t n) {
    if (n >= 8 && n <= 16) {
      return LoadU64(a) == LoadU64(b) && LoadU64(a + n - 8) == LoadU64(b + n - 8);
    }
    if (n >= 4 && n < 8)
      return LoadU32(a) == LoadU32(b) && LoadU32(a + n - 4) == LoadU32(b + n - 4);
    return n == 0 || std::memcmp(a, b, n) == 0;
  }
  void StoreBytes(std::string_view v) {
    if (fixed_width_ == 0) {
      const auto n = static_cast<uint32_t>(v.size());
      plain_.AppendPod(n);
    }
    plain_.Append(v);
  }
  void Grow();

  int32_t fixed_width_;
  uint32_t size_ = 0;
  size_t mask_ = 0;
  std::vector<Slot> slots_;
  struct Entry {
    uint64_t hash;
    uint64_t offset;
  };
  std::vector<Entry> entries_;
  ByteBuffer plain_;
  std::vector<uint64_t> batch_hashes_;  // Scratch.
  uint64_t block_hashes_[kBytesBlock];
};

}  // namespace st::parquet::internal
