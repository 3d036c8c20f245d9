// The per-column-chunk dictionary: an open-addressing hash table over values
// stored contiguously in their PLAIN encoding, so the dictionary page is the
// storage itself. No allocation per value; lookups are inline.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "parquet/byte_buffer_internal.h"

namespace st::parquet::internal {

// A fast non-cryptographic hash for dictionary lookups (not stable across versions).
inline uint64_t HashBytes(const void* data, size_t len) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ULL;
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t h = 0x243F6A8885A308D3ULL ^ (len * kMul);
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 31;
    p += 8;
    len -= 8;
  }
  if (len > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, len);
    h = (h ^ w) * kMul;
    h ^= h >> 31;
  }
  h *= 0xD6E8FEB86659FD93ULL;
  return h ^ (h >> 32);
}

class DictionaryTable {
 public:
  // fixed_width > 0: every value has that many bytes (INT32, FIXED, ...);
  // 0: BYTE_ARRAY values, stored with their 4-byte length prefix.
  explicit DictionaryTable(int32_t fixed_width);

  // Index of the value, inserting it when new (*inserted tells which).
  uint32_t GetOrInsert(const void* data, size_t len, bool* inserted) {
    return GetOrInsertHashed(HashBytes(data, len), data, len, inserted);
  }

  // The batch form: hashes every value first (independent work the CPU
  // overlaps), then probes with the slots of later values prefetched, which
  // hides most cache misses of large dictionaries. Writes n indices and calls
  // on_insert(value) for each value new to the dictionary.
  template <typename OnInsert>
  void GetOrInsertBatch(const std::string_view* values, size_t n, uint32_t* indices,
                        OnInsert&& on_insert) {
    hashes_.resize(n);
    for (size_t k = 0; k < n; ++k) hashes_[k] = HashBytes(values[k].data(), values[k].size());
    constexpr size_t kAhead = 8;
    for (size_t k = 0; k < n; ++k) {
      if (k + kAhead < n) __builtin_prefetch(&slots_[hashes_[k + kAhead] & mask_]);
      bool inserted;
      indices[k] = GetOrInsertHashed(hashes_[k], values[k].data(), values[k].size(), &inserted);
      if (inserted) on_insert(values[k]);
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
  };

  uint32_t GetOrInsertHashed(uint64_t h, const void* data, size_t len, bool* inserted) {
    const auto tag = static_cast<uint32_t>(h >> 32);
    size_t slot = h & mask_;
    while (true) {
      const Slot& s = slots_[slot];
      if (s.index_plus_one == 0) break;
      if (s.tag == tag && Equals(s.index_plus_one - 1, data, len)) {
        *inserted = false;
        return s.index_plus_one - 1;
      }
      slot = (slot + 1) & mask_;
    }
    const uint32_t index = size_++;
    if (fixed_width_ == 0) {
      offsets_.push_back(static_cast<uint32_t>(plain_.size()));
      const auto n = static_cast<uint32_t>(len);
      plain_.AppendPod(n);
    }
    plain_.Append(data, len);
    slots_[slot] = Slot{tag, index + 1};
    if (static_cast<size_t>(size_) * 2 > slots_.size()) Grow();
    *inserted = true;
    return index;
  }
  bool Equals(uint32_t index, const void* data, size_t len) const {
    if (fixed_width_ != 0) {
      return std::memcmp(plain_.data() + static_cast<size_t>(index) * fixed_width_, data, len) == 0;
    }
    const uint8_t* entry = plain_.data() + offsets_[index];
    uint32_t n;
    std::memcpy(&n, entry, 4);
    return n == len && std::memcmp(entry + 4, data, len) == 0;
  }
  std::string_view Value(uint32_t index) const;
  void Grow();

  int32_t fixed_width_;
  uint32_t size_ = 0;
  size_t mask_ = 0;
  std::vector<Slot> slots_;
  std::vector<uint32_t> offsets_;
  ByteBuffer plain_;
  std::vector<uint64_t> hashes_;  // Batch scratch.
};

}  // namespace st::parquet::internal
