#include <algorithm>

#include "parquet/dictionary_internal.h"

namespace st::parquet::internal {

namespace {
constexpr size_t kInitialSlots = 1024;
}

DictionaryTable::DictionaryTable(int32_t fixed_width)
    : fixed_width_(fixed_width), mask_(kInitialSlots - 1), slots_(kInitialSlots, Slot{0, 0}) {}

std::string_view DictionaryTable::Value(uint32_t index) const {
  const auto* base = reinterpret_cast<const char*>(plain_.data());
  if (fixed_width_ != 0) {
    return std::string_view(base + static_cast<size_t>(index) * fixed_width_, fixed_width_);
  }
  uint32_t n;
  std::memcpy(&n, base + offsets_[index], 4);
  return std::string_view(base + offsets_[index] + 4, n);
}

void DictionaryTable::Grow() {
  std::vector<Slot> grown(slots_.size() * 2, Slot{0, 0});
  const size_t mask = grown.size() - 1;
  for (uint32_t i = 0; i < size_; ++i) {
    const std::string_view v = Value(i);
    const uint64_t h = HashBytes(v.data(), v.size());
    size_t slot = h & mask;
    while (grown[slot].index_plus_one != 0) slot = (slot + 1) & mask;
    grown[slot] = Slot{static_cast<uint32_t>(h >> 32), i + 1};
  }
  slots_.swap(grown);
  mask_ = mask;
}

void DictionaryTable::Clear() {
  std::fill(slots_.begin(), slots_.end(), Slot{0, 0});
  offsets_.clear();
  plain_.clear();
  size_ = 0;
}

}  // namespace st::parquet::internal
