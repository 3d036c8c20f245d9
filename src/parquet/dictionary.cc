#include <algorithm>

#include "parquet/dictionary_internal.h"

namespace st::parquet::internal {

namespace {
constexpr size_t kInitialSlots = 1024;
}

DictionaryTable::DictionaryTable(int32_t fixed_width)
    : fixed_width_(fixed_width), mask_(kInitialSlots - 1), slots_(kInitialSlots, Slot{0, 0, 0}) {}

void DictionaryTable::Grow() {
  std::vector<Slot> grown(slots_.size() * 2, Slot{0, 0, 0});
  const size_t mask = grown.size() - 1;
  for (uint32_t i = 0; i < size_; ++i) {
    const uint64_t h = entries_[i].hash;
    size_t slot = h & mask;
    while (grown[slot].index_plus_one != 0) slot = (slot + 1) & mask;
    grown[slot] = Slot{static_cast<uint32_t>(h >> 32), i + 1, entries_[i].offset};
  }
  slots_.swap(grown);
  mask_ = mask;
}

void DictionaryTable::Clear() {
  std::fill(slots_.begin(), slots_.end(), Slot{0, 0, 0});
  entries_.clear();
  plain_.clear();
  size_ = 0;
}

}  // namespace st::parquet::internal
