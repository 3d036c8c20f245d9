#include <limits>
#include <string>

#include "parquet/column_writer_internal.h"

namespace st::parquet::internal {
namespace {

int32_t FixedWidth(const ColumnDescriptor& c) {
  switch (c.physical_type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kFixedLenByteArray:
      return c.type_length;
    default:
      return 0;
  }
}

constexpr int64_t kMaxPageBytes = std::numeric_limits<int32_t>::max();

}  // namespace

ColumnWriter::ColumnWriter(const ColumnDescriptor& column, const WriterOptions& options,
                           Compressor* compressor)
    : column_(column),
      compressor_(compressor),
      max_def_(static_cast<uint16_t>(column.max_def_level)),
      max_rep_(static_cast<uint16_t>(column.max_rep_level)),
      level_bits_(BitWidth(max_def_) + BitWidth(max_rep_)),
      fixed_(column.physical_type == PhysicalType::kFixedLenByteArray),
      // Parquet has no dictionary encoding for BOOLEAN.
      dictionary_enabled_(options.enable_dictionary &&
                          column.physical_type != PhysicalType::kBoolean),
      page_size_(options.page_size_bytes),
      page_row_limit_(options.page_row_limit),
      dictionary_limit_(static_cast<size_t>(options.dictionary_page_size_limit)),
      dict_mode_(dictionary_enabled_),
      dictionary_(FixedWidth(column)),
      chunk_stats_(column),
      file_stats_(column) {}

void ColumnWriter::AppendLevels(const std::vector<uint16_t>& levels, int16_t max_level) {
  // Data page v1: levels are prefixed by their encoded length (4 bytes LE).
  const size_t length_at = body_.size();
  const uint32_t placeholder = 0;
  body_.AppendPod(placeholder);
  EncodeRleHybrid(levels.data(), levels.size(), BitWidth(static_cast<uint64_t>(max_level)), &body_);
  const auto length = static_cast<uint32_t>(body_.size() - length_at - 4);
  std::memcpy(body_.data() + length_at, &length, 4);
}

void ColumnWriter::EncodeStaged() {
  if (staged_count_ == 0) return;
  const size_t first = indices_.size();
  indices_.resize(first + staged_count_);
  uint32_t* out = indices_.data() + first;
  const uint8_t* base = staged_.data();
  // staged_ holds values of exactly one type, written by AppendPod.
  auto fixed = [&](auto tag) {
    using T = decltype(tag);
    dictionary_.GetOrInsertFixed(reinterpret_cast<const T*>(base), staged_count_, out,
                                 [&](T v) { chunk_stats_.Update(v); });
  };
  switch (column_.physical_type) {
    case PhysicalType::kInt32:
      fixed(int32_t{});
      break;
    case PhysicalType::kInt64:
      fixed(int64_t{});
      break;
    case PhysicalType::kFloat:
      fixed(float{});
      break;
    case PhysicalType::kDouble:
      fixed(double{});
      break;
    default: {
      staged_views_.resize(staged_count_);
      const auto* chars = reinterpret_cast<const char*>(base);
      if (fixed_) {
        const size_t width = static_cast<size_t>(column_.type_length);
        for (size_t k = 0; k < staged_count_; ++k) staged_views_[k] = {chars + k * width, width};
      } else {
        size_t at = 0;
        for (size_t k = 0; k < staged_count_; ++k) {
          staged_views_[k] = {chars + at, staged_lengths_[k]};
          at += staged_lengths_[k];
        }
      }
      dictionary_.GetOrInsertBytes(staged_views_.data(), staged_count_, out,
                                   [&](std::string_view v) { chunk_stats_.UpdateBytes(v); });
      break;
    }
  }
  chunk_dict_values_ += static_cast<int64_t>(staged_count_);
  staged_.clear();
  staged_lengths_.clear();
  staged_count_ = 0;
  CheckDictionary();
}

void ColumnWriter::CheckDictionary() {
  const size_t dict_bytes = dictionary_.plain_size_bytes();
  if (dict_bytes > dictionary_limit_) {
    fallback_pending_ = true;
    return;
  }
  if (dictionary_judged_ || chunk_dict_values_ < kJudgeMinValues ||
      dict_bytes < dictionary_limit_ / kJudgeFraction) {
    return;
  }
  dictionary_judged_ = true;
  if (static_cast<int64_t>(dictionary_.size()) * 100 >= chunk_dict_values_ * kJudgeUniquePercent) {
    fallback_pending_ = true;
  }
}

void ColumnWriter::FlushPage() {
  EncodeStaged();
  if (page_entries_ == 0) return;
  body_.clear();
  if (max_rep_ > 0) AppendLevels(rep_levels_, static_cast<int16_t>(max_rep_));
  if (max_def_ > 0) AppendLevels(def_levels_, static_cast<int16_t>(max_def_));
  Encoding encoding = Encoding::kPlain;
  if (dict_mode_ && page_values_ > 0) {
    encoding = Encoding::kRleDictionary;
    int bit_width = BitWidth(dictionary_.size() - 1);
    if (bit_width == 0) bit_width = 1;
    body_.PushByte(static_cast<uint8_t>(bit_width));
    EncodeRleHybrid(indices_.data(), indices_.size(), bit_width, &body_);
  } else {
    body_.Append(plain_.data(), plain_.size());
  }
  if (error_.ok() && static_cast<int64_t>(body_.size()) > kMaxPageBytes) {
    error_ = InvalidArgument("parquet column '" + column_.DottedPath() +
                             "': a single page exceeds 2 GiB; rows this large are not supported");
  }
  if (error_.ok()) {
    Status s = compressor_->Compress(body_.view(), &compressed_);
    if (!s.ok()) error_ = s.WithContext("parquet column '" + column_.DottedPath() + "'");
  }
  if (error_.ok()) {
    header_.clear();
    AppendDataPageHeader(static_cast<int32_t>(body_.size()),
                         static_cast<int32_t>(compressed_.size()),
                         static_cast<int32_t>(page_entries_), encoding, &header_);
    chunk_pages_.Append(header_);
    chunk_pages_.Append(compressed_.data(), compressed_.size());
    chunk_uncompressed_ += static_cast<int64_t>(header_.size() + body_.size());
    chunk_encodings_ |= 1u << static_cast<int>(encoding);
  }
  chunk_entries_ += page_entries_;
  def_levels_.clear();
  rep_levels_.clear();
  indices_.clear();
  plain_.clear();
  page_entries_ = 0;
  page_rows_ = 0;
  page_values_ = 0;
  bool_bits_ = 0;
  if (fallback_pending_) {
    dict_mode_ = false;
    fallback_pending_ = false;
  }
}

Result<ColumnChunkMeta> ColumnWriter::FlushChunk(OutputStream* sink) {
  FlushPage();
  ST_TRY(error_);
  ColumnChunkMeta meta;
  int64_t compressed_total = static_cast<int64_t>(chunk_pages_.size());
  int64_t uncompressed_total = chunk_uncompressed_;
  if (dictionary_.size() > 0) {
    const std::string_view dict = dictionary_.plain();
    if (static_cast<int64_t>(dict.size()) > kMaxPageBytes) {
      error_ =
          InvalidArgument("parquet column '" + column_.DottedPath() +
                          "': dictionary page exceeds 2 GiB; lower dictionary_page_size_limit");
      return Err(error_);
    }
    Status s = compressor_->Compress(dict, &compressed_);
    if (!s.ok()) {
      error_ = s.WithContext("parquet column '" + column_.DottedPath() + "'");
      return Err(error_);
    }
    header_.clear();
    AppendDictionaryPageHeader(static_cast<int32_t>(dict.size()),
                               static_cast<int32_t>(compressed_.size()),
                               static_cast<int32_t>(dictionary_.size()), &header_);
    meta.dictionary_page_offset = sink->Position();
    ST_TRY(sink->Write(header_));
    ST_TRY(sink->Write(compressed_.data(), compressed_.size()));
    compressed_total += static_cast<int64_t>(header_.size() + compressed_.size());
    uncompressed_total += static_cast<int64_t>(header_.size() + dict.size());
    chunk_encodings_ |= 1u << static_cast<int>(Encoding::kPlain);
  }
  meta.data_page_offset = sink->Position();
  ST_TRY(sink->Write(chunk_pages_.data(), chunk_pages_.size()));
  if (max_def_ > 0 || max_rep_ > 0) chunk_encodings_ |= 1u << static_cast<int>(Encoding::kRle);
  for (Encoding e : {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary}) {
    if (chunk_encodings_ & (1u << static_cast<int>(e))) meta.encodings.push_back(e);
  }
  meta.num_values = chunk_entries_;
  meta.total_uncompressed_size = uncompressed_total;
  meta.total_compressed_size = compressed_total;
  meta.null_count = chunk_null_count_;
  if (chunk_stats_.has_min_max()) {
    meta.min_max.emplace(chunk_stats_.EncodedMin(), chunk_stats_.EncodedMax());
  }
  file_stats_.Merge(chunk_stats_);
  total_values_ += chunk_entries_;
  total_nulls_ += chunk_null_count_;
  total_nans_ += chunk_nan_count_;
  total_compressed_bytes_ += compressed_total;
  ResetChunk();
  return meta;
}

Result<ColumnChunkMeta> ColumnWriter::AppendEncodedChunk(const EncodedChunk& chunk,
                                                         OutputStream* sink) {
  ColumnChunkMeta meta;
  if (chunk.min_value.has_value() != chunk.max_value.has_value()) {
    return Err(InvalidArgument("parquet column '" + column_.DottedPath() +
                               "': an encoded chunk with only one bound"));
  }
  StatsAccumulator stats(column_);
  if (chunk.min_value && !stats.MergeEncoded(*chunk.min_value, *chunk.max_value)) {
    return Err(InvalidArgument("parquet column '" + column_.DottedPath() +
                               "': encoded bounds do not fit the column's type"));
  }
  const int64_t start = sink->Position();
  if (chunk.dictionary_page_offset)
    meta.dictionary_page_offset = start + *chunk.dictionary_page_offset;
  meta.data_page_offset = start + chunk.data_page_offset;
  ST_TRY(sink->Write(chunk.pages.data(), chunk.pages.size()));
  for (int32_t e : chunk.encodings) meta.encodings.push_back(static_cast<Encoding>(e));
  meta.num_values = chunk.num_values;
  meta.total_uncompressed_size = chunk.total_uncompressed_size;
  meta.total_compressed_size = static_cast<int64_t>(chunk.pages.size());
  meta.null_count = chunk.null_count;
  if (stats.has_min_max()) meta.min_max.emplace(stats.EncodedMin(), stats.EncodedMax());
  file_stats_.Merge(stats);
  total_values_ += chunk.num_values;
  total_nulls_ += chunk.null_count;
  total_nans_ += chunk.nan_count;
  total_compressed_bytes_ += meta.total_compressed_size;
  return meta;
}

void ColumnWriter::ResetChunk() {
  dict_mode_ = dictionary_enabled_;
  fallback_pending_ = false;
  dictionary_judged_ = false;
  chunk_dict_values_ = 0;
  dictionary_.Clear();
  chunk_stats_.Reset();
  chunk_pages_.clear();
  chunk_rows_ = 0;
  chunk_entries_ = 0;
  chunk_null_count_ = 0;
  chunk_nan_count_ = 0;
  chunk_uncompressed_ = 0;
  chunk_encodings_ = 0;
}

}  // namespace st::parquet::internal
