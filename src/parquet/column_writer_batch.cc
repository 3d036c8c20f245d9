// ColumnWriter's batch appends: levels are copied as ranges, values go
// straight from the caller's arrays into the dictionary lookup or the PLAIN
// page buffer, with no per-value type dispatch and no staging copy.
#include <algorithm>

#include "parquet/column_writer_internal.h"

namespace st::parquet::internal {

template <typename AppendValues>
void ColumnWriter::AppendLevelsBatch(const uint16_t* def, const uint16_t* rep, int64_t num_levels,
                                     AppendValues&& append_values) {
  // Values staged by single-value appends come first.
  EncodeStaged();
  int64_t pos = 0;
  size_t first_value = 0;
  while (pos < num_levels) {
    // `pos` starts a row: the only place a page may end.
    if (page_entries_ > 0 && PageFull()) FlushPage();
    // Flat columns stop exactly at the page row limit; nested ones at the
    // first row start after it.
    const int64_t room = std::max<int64_t>(1, page_row_limit_ - page_rows_);
    int64_t end = std::min(num_levels, pos + std::min(kMiniBatch, room));
    const auto entries = static_cast<size_t>(end - pos);
    int64_t rows = end - pos;
    if (max_rep_ > 0) {
      if (rep != nullptr) {
        while (end < num_levels && rep[end] != 0) ++end;
        rows = std::count(rep + pos, rep + end, uint16_t{0});
        rep_levels_.insert(rep_levels_.end(), rep + pos, rep + end);
      } else {
        rep_levels_.resize(rep_levels_.size() + entries, 0);
      }
    }
    const auto count = static_cast<size_t>(end - pos);
    size_t values = count;
    if (max_def_ > 0) {
      if (def != nullptr) {
        values = static_cast<size_t>(std::count(def + pos, def + end, max_def_));
        def_levels_.insert(def_levels_.end(), def + pos, def + end);
      } else {
        def_levels_.resize(def_levels_.size() + count, max_def_);
      }
    }
    chunk_rows_ += rows;
    page_rows_ += rows;
    page_entries_ += static_cast<int64_t>(count);
    page_values_ += static_cast<int64_t>(values);
    chunk_null_count_ += static_cast<int64_t>(count - values);
    if (values > 0) append_values(first_value, values);
    first_value += values;
    pos = end;
  }
}

template <typename T>
void ColumnWriter::AppendFixedBatch(const T* values, const uint16_t* def, const uint16_t* rep,
                                    int64_t num_levels) {
  AppendLevelsBatch(def, rep, num_levels, [&](size_t first, size_t n) {
    const T* v = values + first;
    if constexpr (std::is_floating_point_v<T>) {
      int64_t nans = 0;
      for (size_t i = 0; i < n; ++i) nans += v[i] != v[i];
      chunk_nan_count_ += nans;
    }
    if (dict_mode_) {
      const size_t at = indices_.size();
      indices_.resize(at + n);
      dictionary_.GetOrInsertFixed(v, n, indices_.data() + at,
                                   [&](T x) { chunk_stats_.Update(x); });
      chunk_dict_values_ += static_cast<int64_t>(n);
      CheckDictionary();
    } else {
      plain_.Append(v, n * sizeof(T));
      chunk_stats_.UpdateRange(v, n);
    }
  });
}

template void ColumnWriter::AppendFixedBatch<int32_t>(const int32_t*, const uint16_t*,
                                                      const uint16_t*, int64_t);
template void ColumnWriter::AppendFixedBatch<int64_t>(const int64_t*, const uint16_t*,
                                                      const uint16_t*, int64_t);
template void ColumnWriter::AppendFixedBatch<float>(const float*, const uint16_t*, const uint16_t*,
                                                    int64_t);
template void ColumnWriter::AppendFixedBatch<double>(const double*, const uint16_t*,
                                                     const uint16_t*, int64_t);

void ColumnWriter::LookUpBytesCached(const std::string_view* v, size_t n, uint32_t* out) {
  if (view_cache_.empty()) view_cache_.resize(kViewCacheSize);
  miss_values_.clear();
  miss_positions_.clear();
  for (size_t i = 0; i < n; ++i) {
    const ViewCacheEntry& e = view_cache_[ViewCacheSlot(v[i].data())];
    if (e.generation == view_generation_ && e.data == v[i].data() && e.size == v[i].size()) {
      out[i] = e.index;
    } else {
      miss_values_.push_back(v[i]);
      miss_positions_.push_back(static_cast<uint32_t>(i));
    }
  }
  if (miss_values_.empty()) return;
  miss_indices_.resize(miss_values_.size());
  // Statistics come from the values new to the dictionary, as without the
  // cache: a hit is a value the dictionary already holds.
  dictionary_.GetOrInsertBytes(miss_values_.data(), miss_values_.size(), miss_indices_.data(),
                               [&](std::string_view x) { chunk_stats_.UpdateBytes(x); });
  for (size_t j = 0; j < miss_values_.size(); ++j) {
    out[miss_positions_[j]] = miss_indices_[j];
    const std::string_view x = miss_values_[j];
    view_cache_[ViewCacheSlot(x.data())] =
        ViewCacheEntry{x.data(), x.size(), view_generation_, miss_indices_[j]};
  }
}

void ColumnWriter::AppendBytesBatch(const std::string_view* values, const uint16_t* def,
                                    const uint16_t* rep, int64_t num_levels) {
  // The caller's views are stable for this call only: a new generation
  // forgets every cached view (cleared outright when the counter wraps).
  if (++view_generation_ == 0) {
    std::fill(view_cache_.begin(), view_cache_.end(), ViewCacheEntry{});
    view_generation_ = 1;
  }
  AppendLevelsBatch(def, rep, num_levels, [&](size_t first, size_t n) {
    const std::string_view* v = values + first;
    if (dict_mode_) {
      const size_t at = indices_.size();
      indices_.resize(at + n);
      LookUpBytesCached(v, n, indices_.data() + at);
      chunk_dict_values_ += static_cast<int64_t>(n);
      CheckDictionary();
      return;
    }
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) total += v[i].size();
    if (!fixed_) total += 4 * n;
    uint8_t* dst = plain_.Reserve(total);
    for (size_t i = 0; i < n; ++i) {
      if (!fixed_) {
        const auto len = static_cast<uint32_t>(v[i].size());
        std::memcpy(dst, &len, 4);
        dst += 4;
      }
      if (!v[i].empty()) std::memcpy(dst, v[i].data(), v[i].size());
      dst += v[i].size();
    }
    plain_.Commit(total);
    chunk_stats_.UpdateBytesRange(v, n);
  });
}

void ColumnWriter::AppendBoolBatch(const uint8_t* values, const uint16_t* def, const uint16_t* rep,
                                   int64_t num_levels) {
  AppendLevelsBatch(def, rep, num_levels,
                    [&](size_t first, size_t n) { AppendBoolBits(values + first, n); });
}

void ColumnWriter::AppendBoolBits(const uint8_t* values, size_t n) {
  bool any_true = false;
  bool any_false = false;
  for (size_t i = 0; i < n; ++i) {
    const bool b = values[i] != 0;
    any_true |= b;
    any_false |= !b;
    if ((bool_bits_ & 7) == 0) plain_.PushByte(0);
    plain_.data()[plain_.size() - 1] |= static_cast<uint8_t>(b ? 1u << (bool_bits_ & 7) : 0u);
    ++bool_bits_;
  }
  if (any_false) chunk_stats_.Update(false);
  if (any_true) chunk_stats_.Update(true);
}

}  // namespace st::parquet::internal
