// The page loop: each page is checked against the bytes left in the chunk
// and the caps in ReaderOptions before its buffers are allocated; levels
// decode straight into the batch's arrays and values into its typed vector.
#include <algorithm>
#include <cstring>
#include <string>

#include "parquet/column_reader_internal.h"
#include "parquet/compression_internal.h"
#include "parquet/decoders_internal.h"
#include "parquet/metadata_reader_internal.h"
#include "parquet/rle_encoder_internal.h"

namespace st::parquet::internal {
namespace {

// parquet.thrift Encoding numbers.
constexpr int32_t kPlain = 0;
constexpr int32_t kPlainDictionary = 2;
constexpr int32_t kRle = 3;
constexpr int32_t kBitPacked = 4;
constexpr int32_t kDeltaBinaryPacked = 5;
constexpr int32_t kDeltaLengthByteArray = 6;
constexpr int32_t kDeltaByteArray = 7;
constexpr int32_t kRleDictionary = 8;
constexpr int32_t kByteStreamSplit = 9;

size_t FixedWidth(PhysicalType t, int32_t type_length) {
  switch (t) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kFixedLenByteArray:
      return static_cast<size_t>(type_length);
    default:
      return 0;
  }
}

class ChunkDecoder {
 public:
  explicit ChunkDecoder(const ChunkToRead& in) : in_(in), col_(*in.column) {
    batch_.column = in.column_index;
    batch_.physical_type = col_.physical_type;
    batch_.charge = BudgetCharge(in.options->budget);
    where_ =
        "parquet column " + col_.DottedPath() + " (row group " + std::to_string(in.row_group) + ")";
  }

  Result<ColumnBatch> Run();

 private:
  Status Fail(const std::string& why) const {
    return Corruption(where_ + " page " + std::to_string(page_index_) + ": " + why);
  }
  // Makes the bytes of a page body available decompressed: a view into the
  // chunk when uncompressed, else a new buffer (kept in the batch when
  // `keep` since byte values will point into it).
  Result<std::string_view> PageBody(std::string_view compressed, int64_t uncompressed_size,
                                    bool compressed_flag, bool keep);
  Status ReadDictionary(const PageHeader& h, std::string_view body);
  Status ReadLevels(const uint8_t* data, size_t size, int16_t max_level, int16_t* out, size_t n,
                    const char* what);
  Status ReadValues(int32_t encoding, const uint8_t* data, size_t size, size_t n);
  Status ReadPlain(const uint8_t* data, size_t size, size_t n);
  Status ReadDictionaryIndices(const uint8_t* data, size_t size, size_t n);
  Status DataPage(const PageHeader& h, std::string_view raw);
  // Charges the budget for a page before it is decompressed or decoded.
  Status ChargePage(const PageHeader& h, bool data_page);

  ChunkToRead in_;
  const ColumnDescriptor& col_;
  std::string where_;
  int page_index_ = 0;
  ColumnBatch batch_;
  Decompressor decompressor_;
  bool source_views_live_ = false;
  std::string scratch_;
  std::unique_ptr<char[]> reuse_;
  size_t reuse_capacity_ = 0;

  bool has_dictionary_ = false;
  size_t dict_size_ = 0;
  std::vector<uint8_t> dict_fixed_;  // Dictionary of fixed-width types, PLAIN bytes.
  std::vector<std::string_view> dict_bytes_;
  std::vector<uint32_t> indices_;
};

Result<std::string_view> ChunkDecoder::PageBody(std::string_view compressed,
                                                int64_t uncompressed_size, bool compressed_flag,
                                                bool keep) {
  if (uncompressed_size > in_.options->max_page_bytes) {
    return Err(Fail("uncompressed size " + std::to_string(uncompressed_size) +
                    " is above the reader's limit of " +
                    std::to_string(in_.options->max_page_bytes) + " bytes"));
  }
  const Codec codec = compressed_flag ? in_.chunk->codec : Codec::kUncompressed;
  if (codec == Codec::kUncompressed) {
    if (static_cast<int64_t>(compressed.size()) != uncompressed_size) {
      return Err(Fail("uncompressed page whose two sizes differ"));
    }
    if (keep && !source_views_live_) {
      auto copy = std::make_unique_for_overwrite<char[]>(std::max<size_t>(compressed.size(), 1));
      if (!compressed.empty()) std::memcpy(copy.get(), compressed.data(), compressed.size());
      std::string_view view(copy.get(), compressed.size());
      batch_.storage.push_back(std::move(copy));
      return view;
    }
    return compressed;
  }
  const auto size = static_cast<size_t>(uncompressed_size);
  char* dst = nullptr;
  std::unique_ptr<char[]> kept;
  if (keep) {
    kept = std::make_unique_for_overwrite<char[]>(std::max<size_t>(size, 1));
    dst = kept.get();
  } else {
    // Fixed-width values are copied out of the page, so one buffer serves every page.
    if (reuse_capacity_ < size) {
      reuse_ = std::make_unique_for_overwrite<char[]>(size);
      reuse_capacity_ = size;
    }
    dst = reuse_ ? reuse_.get() : nullptr;
    if (dst == nullptr) {
      reuse_ = std::make_unique_for_overwrite<char[]>(1);
      reuse_capacity_ = 1;
      dst = reuse_.get();
    }
  }
  Status s = decompressor_.Decompress(codec, compressed, dst, size);
  if (!s.ok()) {
    if (s.code() != StatusCode::kCorruption) return Err(s.WithContext(where_));
    return Err(Fail(s.message()));
  }
  if (kept) batch_.storage.push_back(std::move(kept));
  return std::string_view(dst, size);
}

Status ChunkDecoder::ChargePage(const PageHeader& h, bool data_page) {
  if (in_.options->budget == nullptr) return Status::OK();
  int64_t per_value = col_.physical_type == PhysicalType::kBoolean ? 1 : 0;
  if (col_.physical_type == PhysicalType::kByteArray ||
      col_.physical_type == PhysicalType::kFixedLenByteArray) {
    per_value = static_cast<int64_t>(sizeof(std::string_view));
  } else if (per_value == 0) {
    per_value = static_cast<int64_t>(FixedWidth(col_.physical_type, col_.type_length));
  }
  if (data_page) {
    if (col_.max_def_level > 0) per_value += 2;
    if (col_.max_rep_level > 0) per_value += 2;
  }
  const int64_t bytes = std::max<int64_t>(h.uncompressed_page_size, 0) +
                        std::max<int64_t>(h.num_values, 0) * per_value;
  return batch_.charge.Add(bytes, where_ + " page " + std::to_string(page_index_));
}

Status ChunkDecoder::ReadDictionary(const PageHeader& h, std::string_view body) {
  if (has_dictionary_) return Fail("a second dictionary page");
  if (h.encoding != kPlain && h.encoding != kPlainDictionary) {
    return Fail("dictionary encoding " + std::to_string(h.encoding) + " is not PLAIN");
  }
  const auto n = static_cast<size_t>(h.num_values);
  const auto* data = reinterpret_cast<const uint8_t*>(body.data());
  const size_t width = FixedWidth(col_.physical_type, col_.type_length);
  if (col_.physical_type == PhysicalType::kBoolean) return Fail("dictionary of BOOLEAN");
  if (col_.physical_type == PhysicalType::kByteArray) {
    dict_bytes_.reserve(std::min(n, body.size() / 4));
    size_t pos = 0;
    for (size_t i = 0; i < n; ++i) {
      if (body.size() - pos < 4) return Fail("dictionary entry past the page");
      uint32_t len = 0;
      std::memcpy(&len, data + pos, 4);
      pos += 4;
      if (len > body.size() - pos) return Fail("dictionary entry past the page");
      dict_bytes_.emplace_back(body.data() + pos, len);
      pos += len;
    }
  } else {
    if (width == 0 || n > body.size() / width) return Fail("dictionary larger than its page");
    if (col_.physical_type == PhysicalType::kFixedLenByteArray) {
      dict_bytes_.reserve(n);
      for (size_t i = 0; i < n; ++i) dict_bytes_.emplace_back(body.data() + i * width, width);
    } else {
      dict_fixed_.assign(data, data + n * width);
    }
  }
  dict_size_ = n;
  has_dictionary_ = true;
  return Status::OK();
}

Status ChunkDecoder::ReadLevels(const uint8_t* data, size_t size, int16_t max_level, int16_t* out,
                                size_t n, const char* what) {
  RleDecoder decoder(data, size, BitWidth(static_cast<uint64_t>(max_level)));
  Status s = decoder.Decode(out, n);
  if (!s.ok()) return Fail(std::string(what) + " levels: " + s.message());
  int16_t hi = 0;
  int16_t lo = 0;
  for (size_t i = 0; i < n; ++i) {
    hi = std::max(hi, out[i]);
    lo = std::min(lo, out[i]);
  }
  if (hi > max_level || lo < 0) {
    return Fail(std::string(what) + " level " + std::to_string(hi) + " above the column's max " +
                std::to_string(max_level));
  }
  return Status::OK();
}

Status ChunkDecoder::ReadPlain(const uint8_t* data, size_t size, size_t n) {
  const char* chars = reinterpret_cast<const char*>(data);
  switch (col_.physical_type) {
    case PhysicalType::kBoolean: {
      if (n > size * 8) return Fail("PLAIN booleans past the page");
      const size_t at = batch_.bools.size();
      batch_.bools.resize(at + n);
      uint8_t* dst = batch_.bools.data() + at;
      for (size_t i = 0; i < n; ++i) dst[i] = (data[i >> 3] >> (i & 7)) & 1;
      return Status::OK();
    }
    case PhysicalType::kByteArray: {
      size_t pos = 0;
      const size_t at = batch_.bytes.size();
      batch_.bytes.resize(at + n);
      std::string_view* dst = batch_.bytes.data() + at;
      for (size_t i = 0; i < n; ++i) {
        if (size - pos < 4) return Fail("PLAIN BYTE_ARRAY length past the page");
        uint32_t len = 0;
        std::memcpy(&len, data + pos, 4);
        pos += 4;
        if (len > size - pos) return Fail("PLAIN BYTE_ARRAY value past the page");
        dst[i] = std::string_view(chars + pos, len);
        pos += len;
      }
      return Status::OK();
    }
    case PhysicalType::kFixedLenByteArray: {
      const auto width = static_cast<size_t>(col_.type_length);
      if (n > size / width) return Fail("PLAIN FIXED values past the page");
      const size_t at = batch_.bytes.size();
      batch_.bytes.resize(at + n);
      for (size_t i = 0; i < n; ++i)
        batch_.bytes[at + i] = std::string_view(chars + i * width, width);
      return Status::OK();
    }
    default:
      break;
  }
  const size_t width = FixedWidth(col_.physical_type, 0);
  if (n > size / width) return Fail("PLAIN values past the page");
  void* dst = nullptr;
  switch (col_.physical_type) {
    case PhysicalType::kInt32:
      batch_.int32s.resize(batch_.int32s.size() + n);
      dst = batch_.int32s.data() + batch_.int32s.size() - n;
      break;
    case PhysicalType::kInt64:
      batch_.int64s.resize(batch_.int64s.size() + n);
      dst = batch_.int64s.data() + batch_.int64s.size() - n;
      break;
    case PhysicalType::kFloat:
      batch_.floats.resize(batch_.floats.size() + n);
      dst = batch_.floats.data() + batch_.floats.size() - n;
      break;
    default:
      batch_.doubles.resize(batch_.doubles.size() + n);
      dst = batch_.doubles.data() + batch_.doubles.size() - n;
      break;
  }
  if (n > 0) std::memcpy(dst, data, n * width);
  return Status::OK();
}

template <typename T>
void Gather(const uint8_t* dict, const uint32_t* idx, size_t n, std::vector<T>* out) {
  const size_t at = out->size();
  out->resize(at + n);
  T* dst = out->data() + at;
  const T* src = reinterpret_cast<const T*>(dict);
  for (size_t i = 0; i < n; ++i) std::memcpy(&dst[i], &src[idx[i]], sizeof(T));
}

Status ChunkDecoder::ReadDictionaryIndices(const uint8_t* data, size_t size, size_t n) {
  if (!has_dictionary_) return Fail("dictionary-encoded page without a dictionary page");
  if (n == 0) return Status::OK();
  if (size < 1) return Fail("dictionary indices without a bit width");
  const int width = data[0];
  if (width > 32) return Fail("dictionary index bit width " + std::to_string(width));
  indices_.resize(n);
  RleDecoder decoder(data + 1, size - 1, width);
  Status s = decoder.Decode(indices_.data(), n);
  if (!s.ok()) return Fail("dictionary indices: " + s.message());
  uint32_t hi = 0;
  for (size_t i = 0; i < n; ++i) hi = std::max(hi, indices_[i]);
  if (hi >= dict_size_) {
    return Fail("dictionary index " + std::to_string(hi) + " of a dictionary of " +
                std::to_string(dict_size_));
  }
  const uint32_t* idx = indices_.data();
  switch (col_.physical_type) {
    case PhysicalType::kInt32:
      Gather(dict_fixed_.data(), idx, n, &batch_.int32s);
      break;
    case PhysicalType::kInt64:
      Gather(dict_fixed_.data(), idx, n, &batch_.int64s);
      break;
    case PhysicalType::kFloat:
      Gather(dict_fixed_.data(), idx, n, &batch_.floats);
      break;
    case PhysicalType::kDouble:
      Gather(dict_fixed_.data(), idx, n, &batch_.doubles);
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      const size_t at = batch_.bytes.size();
      batch_.bytes.resize(at + n);
      std::string_view* dst = batch_.bytes.data() + at;
      const std::string_view* dict = dict_bytes_.data();
      for (size_t i = 0; i < n; ++i) dst[i] = dict[idx[i]];
      break;
    }
    case PhysicalType::kBoolean:
      return Fail("dictionary-encoded BOOLEAN");
  }
  return Status::OK();
}

Status ChunkDecoder::ReadValues(int32_t encoding, const uint8_t* data, size_t size, size_t n) {
  const PhysicalType t = col_.physical_type;
  switch (encoding) {
    case kPlain:
      return ReadPlain(data, size, n);
    case kPlainDictionary:
    case kRleDictionary:
      return ReadDictionaryIndices(data, size, n);
    case kRle: {
      if (t != PhysicalType::kBoolean) return Fail("RLE values of a non-BOOLEAN column");
      if (size < 4) return Fail("RLE booleans without their length");
      uint32_t len = 0;
      std::memcpy(&len, data, 4);
      if (len > size - 4) return Fail("RLE booleans longer than the page");
      indices_.resize(n);
      RleDecoder decoder(data + 4, len, 1);
      Status s = decoder.Decode(indices_.data(), n);
      if (!s.ok()) return Fail("RLE booleans: " + s.message());
      const size_t at = batch_.bools.size();
      batch_.bools.resize(at + n);
      for (size_t i = 0; i < n; ++i) batch_.bools[at + i] = static_cast<uint8_t>(indices_[i]);
      return Status::OK();
    }
    case kDeltaBinaryPacked: {
      if (t != PhysicalType::kInt32 && t != PhysicalType::kInt64) {
        return Fail("DELTA_BINARY_PACKED of a non-integer column");
      }
      std::vector<int64_t> values(n);
      size_t consumed = 0;
      Status s = DecodeDeltaBinaryPacked(data, size, n, values.data(), &consumed);
      if (!s.ok()) return Fail(s.message());
      if (t == PhysicalType::kInt64) {
        batch_.int64s.insert(batch_.int64s.end(), values.begin(), values.end());
      } else {
        for (int64_t v : values) batch_.int32s.push_back(static_cast<int32_t>(v));
      }
      return Status::OK();
    }
    case kDeltaLengthByteArray:
    case kDeltaByteArray: {
      if (t != PhysicalType::kByteArray &&
          !(encoding == kDeltaByteArray && t == PhysicalType::kFixedLenByteArray)) {
        return Fail("DELTA_*_BYTE_ARRAY of a non-binary column");
      }
      const size_t before = batch_.bytes.size();
      Status s = encoding == kDeltaLengthByteArray
                     ? DecodeDeltaLengthByteArray(data, size, n, &batch_.bytes)
                     : DecodeDeltaByteArray(data, size, n,
                                            static_cast<size_t>(in_.options->max_page_bytes),
                                            &batch_.bytes, &batch_.storage);
      if (!s.ok()) return Fail(s.message());
      if (t == PhysicalType::kFixedLenByteArray) {
        for (size_t i = before; i < batch_.bytes.size(); ++i) {
          if (batch_.bytes[i].size() != static_cast<size_t>(col_.type_length)) {
            return Fail("DELTA_BYTE_ARRAY value of the wrong FIXED length");
          }
        }
      }
      return Status::OK();
    }
    case kByteStreamSplit: {
      const size_t width = FixedWidth(t, col_.type_length);
      if (width == 0) return Fail("BYTE_STREAM_SPLIT of a BOOLEAN/BYTE_ARRAY column");
      if (width > 0 && n > size / width) return Fail("BYTE_STREAM_SPLIT values past the page");
      auto buffer = std::make_unique_for_overwrite<char[]>(std::max<size_t>(n * width, 1));
      auto* out = reinterpret_cast<uint8_t*>(buffer.get());
      // The streams are sized by the page's value count (n, as nulls are not stored).
      Status s = DecodeByteStreamSplit(data, n * width, n, width, out);
      if (!s.ok()) return Fail(s.message());
      if (t == PhysicalType::kFixedLenByteArray) {
        for (size_t i = 0; i < n; ++i) batch_.bytes.emplace_back(buffer.get() + i * width, width);
        batch_.storage.push_back(std::move(buffer));
        return Status::OK();
      }
      return ReadPlain(out, n * width, n);
    }
    case kBitPacked:
    default:
      return Unsupported(where_ + ": value encoding " + std::to_string(encoding) +
                         " is not supported");
  }
}

Status ChunkDecoder::DataPage(const PageHeader& h, std::string_view raw) {
  const bool v2 = h.type == static_cast<int32_t>(PageType::kDataPageV2);
  const auto n = static_cast<size_t>(h.num_values);
  if (batch_.num_levels + h.num_values > in_.options->max_chunk_values) {
    return Fail("more than " + std::to_string(in_.options->max_chunk_values) +
                " values in the chunk (the reader's limit)");
  }
  // Byte values of PLAIN and DELTA pages point into the decompressed page,
  // which the batch then keeps; dictionary indices point into the
  // dictionary page, so such a page body is decompressed into the reused
  // buffer instead of a fresh allocation per page.
  const bool bytes_column = (col_.physical_type == PhysicalType::kByteArray ||
                             col_.physical_type == PhysicalType::kFixedLenByteArray) &&
                            h.encoding != kPlainDictionary && h.encoding != kRleDictionary;
  const uint8_t* rep_data = nullptr;
  size_t rep_size = 0;
  const uint8_t* def_data = nullptr;
  size_t def_size = 0;
  std::string_view values;
  if (v2) {
    const auto levels = static_cast<size_t>(h.rep_levels_byte_length) +
                        static_cast<size_t>(h.def_levels_byte_length);
    if (levels > raw.size() || static_cast<int64_t>(levels) > h.uncompressed_page_size) {
      return Fail("level bytes longer than the page");
    }
    rep_data = reinterpret_cast<const uint8_t*>(raw.data());
    rep_size = static_cast<size_t>(h.rep_levels_byte_length);
    def_data = rep_data + rep_size;
    def_size = static_cast<size_t>(h.def_levels_byte_length);
    ST_ASSIGN_OR_RETURN(values, PageBody(raw.substr(levels),
                                         h.uncompressed_page_size - static_cast<int64_t>(levels),
                                         h.is_compressed, bytes_column));
  } else {
    ST_ASSIGN_OR_RETURN(std::string_view body,
                        PageBody(raw, h.uncompressed_page_size, true, bytes_column));
    const auto* p = reinterpret_cast<const uint8_t*>(body.data());
    size_t pos = 0;
    auto take_levels = [&](int16_t max_level, int32_t encoding, const uint8_t** data,
                           size_t* size) -> Status {
      if (max_level == 0) return Status::OK();
      if (encoding != kRle) {
        return Unsupported(where_ + ": level encoding " + std::to_string(encoding) +
                           " (BIT_PACKED) is not supported");
      }
      if (body.size() - pos < 4) return Fail("level length past the page");
      uint32_t len = 0;
      std::memcpy(&len, p + pos, 4);
      pos += 4;
      if (len > body.size() - pos) return Fail("levels longer than the page");
      *data = p + pos;
      *size = len;
      pos += len;
      return Status::OK();
    };
    ST_TRY(take_levels(col_.max_rep_level, h.rep_level_encoding, &rep_data, &rep_size));
    ST_TRY(take_levels(col_.max_def_level, h.def_level_encoding, &def_data, &def_size));
    values = body.substr(pos);
  }
  const auto at = static_cast<size_t>(batch_.num_levels);
  size_t dense = n;
  if (col_.max_rep_level > 0) {
    batch_.rep_levels.resize(at + n);
    ST_TRY(ReadLevels(rep_data, rep_size, col_.max_rep_level, batch_.rep_levels.data() + at, n,
                      "repetition"));
    if (n > 0 && at == 0 && batch_.rep_levels[0] != 0) {
      return Fail("the chunk's first repetition level is not 0");
    }
    batch_.num_rows += std::count(batch_.rep_levels.begin() + static_cast<ptrdiff_t>(at),
                                  batch_.rep_levels.end(), int16_t{0});
  } else {
    batch_.num_rows += static_cast<int64_t>(n);
  }
  if (col_.max_def_level > 0) {
    batch_.def_levels.resize(at + n);
    ST_TRY(ReadLevels(def_data, def_size, col_.max_def_level, batch_.def_levels.data() + at, n,
                      "definition"));
    dense = static_cast<size_t>(std::count(batch_.def_levels.begin() + static_cast<ptrdiff_t>(at),
                                           batch_.def_levels.end(), col_.max_def_level));
  }
  batch_.num_levels += h.num_values;
  return ReadValues(h.encoding, reinterpret_cast<const uint8_t*>(values.data()), values.size(),
                    dense);
}

Result<ColumnBatch> ChunkDecoder::Run() {
  const ColumnChunkInfo& cc = *in_.chunk;
  const int64_t file_size = in_.source->size_bytes();
  int64_t start = cc.data_page_offset;
  if (cc.dictionary_page_offset && *cc.dictionary_page_offset > 0 &&
      *cc.dictionary_page_offset < start) {
    start = *cc.dictionary_page_offset;
  }
  const int64_t length = cc.total_compressed_size;
  if (start < 4 || length < 0 || start > file_size || length > file_size - start) {
    return Err(Corruption(where_ + ": chunk bytes [" + std::to_string(start) + ", +" +
                          std::to_string(length) + ") lie outside the file of " +
                          std::to_string(file_size) + " bytes"));
  }
  if (cc.num_values > in_.options->max_chunk_values) {
    return Err(Corruption(where_ + ": " + std::to_string(cc.num_values) +
                          " values, above the reader's limit"));
  }
  std::string_view chunk;
  ST_TRY(in_.source->ReadAt(start, length, &scratch_, &chunk));
  source_views_live_ = in_.source->views_outlive_reads() && chunk.data() != scratch_.data();
  // A hint only: num_values comes from the footer, so it is bounded by what
  // the chunk's bytes could plausibly hold before anything is reserved.
  const auto hint = static_cast<size_t>(
      std::min<int64_t>(cc.num_values, static_cast<int64_t>(chunk.size()) * 8 + 1024));
  if (col_.max_def_level > 0) batch_.def_levels.reserve(hint);
  if (col_.max_rep_level > 0) batch_.rep_levels.reserve(hint);
  size_t pos = 0;
  while (batch_.num_levels < cc.num_values) {
    if (pos >= chunk.size()) {
      return Err(Corruption(where_ + ": chunk ends after " + std::to_string(batch_.num_levels) +
                            " of " + std::to_string(cc.num_values) + " values"));
    }
    PageHeader h;
    size_t header_bytes = 0;
    Status s = ParsePageHeader(reinterpret_cast<const uint8_t*>(chunk.data() + pos),
                               chunk.size() - pos, &h, &header_bytes);
    if (!s.ok()) return Err(s.WithContext(where_ + " page " + std::to_string(page_index_)));
    pos += header_bytes;
    if (static_cast<size_t>(h.compressed_page_size) > chunk.size() - pos) {
      return Err(Fail("compressed size " + std::to_string(h.compressed_page_size) +
                      " past the chunk's end"));
    }
    if (h.compressed_page_size > in_.options->max_page_bytes) {
      return Err(Fail("page above the reader's limit"));
    }
    const std::string_view raw = chunk.substr(pos, static_cast<size_t>(h.compressed_page_size));
    pos += static_cast<size_t>(h.compressed_page_size);
    const auto type = static_cast<PageType>(h.type);
    if (type == PageType::kDictionaryPage) {
      if (!h.has_type_header) return Err(Fail("dictionary page without its header"));
      const bool bytes = col_.physical_type == PhysicalType::kByteArray ||
                         col_.physical_type == PhysicalType::kFixedLenByteArray;
      ST_TRY(ChargePage(h, false));
      ST_ASSIGN_OR_RETURN(std::string_view body,
                          PageBody(raw, h.uncompressed_page_size, true, bytes));
      ST_TRY(ReadDictionary(h, body));
    } else if (type == PageType::kDataPage || type == PageType::kDataPageV2) {
      if (!h.has_type_header) return Err(Fail("data page without its header"));
      if (h.num_values > cc.num_values - batch_.num_levels) {
        return Err(Fail("more values than the chunk's num_values"));
      }
      ST_TRY(ChargePage(h, true));
      ST_TRY(DataPage(h, raw));
    } else if (type != PageType::kIndexPage) {
      return Err(Fail("unknown page type " + std::to_string(h.type)));
    }
    ++page_index_;
  }
  // For a source whose views die with the scratch, byte values of
  // uncompressed pages were copied; nothing points into scratch_.
  return std::move(batch_);
}

}  // namespace

Result<ColumnBatch> ReadColumnChunk(const ChunkToRead& in) {
  ChunkDecoder decoder(in);
  return decoder.Run();
}

}  // namespace st::parquet::internal
