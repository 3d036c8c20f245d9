#include <algorithm>
#include <cstring>
#include <string>

#include "parquet/decoders_internal.h"

namespace st::parquet::internal {
namespace {

Status ReadUleb(const uint8_t* data, size_t size, size_t* pos, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= size) return Corruption("parquet encoding: truncated varint");
    const uint8_t b = data[(*pos)++];
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *v = result;
      return Status::OK();
    }
  }
  return Corruption("parquet encoding: varint longer than 10 bytes");
}

// `bit_width` (0..64) bits at bit offset `bit` of data[0..size), LSB first;
// bytes past the end read as zero (a writer may drop a run's padding).
inline uint64_t ReadBits(const uint8_t* data, size_t size, uint64_t bit, int bit_width) {
  if (bit_width == 0) return 0;
  const size_t byte = bit >> 3;
  const int shift = static_cast<int>(bit & 7);
  uint8_t buf[16] = {};
  if (byte + 16 <= size) {
    std::memcpy(buf, data + byte, 16);
  } else if (byte < size) {
    std::memcpy(buf, data + byte, size - byte);
  }
  uint64_t lo = 0;
  std::memcpy(&lo, buf, 8);
  uint64_t word = lo >> shift;
  if (shift != 0) word |= static_cast<uint64_t>(buf[8]) << (64 - shift);
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  return word & mask;
}

// The fast form for widths up to 32: one 8-byte load when it fits.
inline uint32_t ReadBits32(const uint8_t* data, size_t size, uint64_t bit, int bit_width) {
  const size_t byte = bit >> 3;
  if (byte + 8 <= size) {
    uint64_t word = 0;
    std::memcpy(&word, data + byte, 8);
    return static_cast<uint32_t>((word >> (bit & 7)) & ((uint64_t{1} << bit_width) - 1));
  }
  return static_cast<uint32_t>(ReadBits(data, size, bit, bit_width));
}

}  // namespace

Status RleDecoder::NextRun() {
  uint64_t header = 0;
  ST_TRY(ReadUleb(data_, size_, &pos_, &header));
  if ((header & 1) == 0) {
    rle_ = true;
    left_ = static_cast<size_t>(std::min<uint64_t>(header >> 1, SIZE_MAX / 2));
    const size_t bytes = static_cast<size_t>((bit_width_ + 7) / 8);
    if (bytes > size_ - pos_) return Corruption("parquet RLE run: truncated value");
    uint32_t v = 0;
    for (size_t i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += bytes;
    if (bit_width_ < 32 && (v >> bit_width_) != 0) {
      return Corruption("parquet RLE run: value wider than the bit width");
    }
    value_ = v;
    return Status::OK();
  }
  rle_ = false;
  const uint64_t groups = header >> 1;
  const uint64_t want_bytes = groups * static_cast<uint64_t>(bit_width_);
  const size_t avail = size_ - pos_;
  // The last run may lack its padding bytes; read what is there.
  packed_bytes_ = static_cast<size_t>(std::min<uint64_t>(want_bytes, avail));
  packed_ = data_ + pos_;
  packed_bit_ = 0;
  const uint64_t values = groups * 8;
  left_ = bit_width_ == 0 ? static_cast<size_t>(std::min<uint64_t>(values, SIZE_MAX / 2))
                          : static_cast<size_t>(std::min<uint64_t>(
                                values, static_cast<uint64_t>(packed_bytes_) * 8 / bit_width_));
  pos_ += packed_bytes_;
  return Status::OK();
}

template <typename T>
Status RleDecoder::DecodeT(T* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    if (left_ == 0) {
      if (pos_ >= size_) {
        return Corruption("parquet RLE/bit-packed data ends after " + std::to_string(done) +
                          " of " + std::to_string(n) + " values");
      }
      ST_TRY(NextRun());
      continue;
    }
    const size_t take = std::min(left_, n - done);
    if (rle_) {
      std::fill(out + done, out + done + take, static_cast<T>(value_));
    } else if (bit_width_ == 0) {
      std::fill(out + done, out + done + take, T{0});
    } else if (bit_width_ == 1 && (packed_bit_ & 7) == 0) {
      // Definition levels of flat optional columns: a byte at a time.
      // left_ never exceeds the run's bits, so every byte read is inside it.
      const uint8_t* p = packed_ + (packed_bit_ >> 3);
      size_t i = 0;
      for (; i + 8 <= take; i += 8, ++p) {
        const uint8_t b = *p;
        for (int k = 0; k < 8; ++k) out[done + i + k] = static_cast<T>((b >> k) & 1);
      }
      for (int k = 0; i < take; ++i, ++k) out[done + i] = static_cast<T>((*p >> k) & 1);
      packed_bit_ += take;
    } else {
      const int w = bit_width_;
      uint64_t bit = packed_bit_;
      for (size_t i = 0; i < take; ++i, bit += static_cast<uint64_t>(w)) {
        out[done + i] = static_cast<T>(ReadBits32(packed_, packed_bytes_, bit, w));
      }
      packed_bit_ = bit;
    }
    done += take;
    left_ -= take;
  }
  return Status::OK();
}

Status RleDecoder::Decode(uint32_t* out, size_t n) { return DecodeT(out, n); }
Status RleDecoder::Decode(int16_t* out, size_t n) { return DecodeT(out, n); }

Status DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, size_t n, int64_t* out,
                               size_t* consumed) {
  size_t pos = 0;
  uint64_t block_size = 0, miniblocks = 0, total = 0, first_zz = 0;
  ST_TRY(ReadUleb(data, size, &pos, &block_size));
  ST_TRY(ReadUleb(data, size, &pos, &miniblocks));
  ST_TRY(ReadUleb(data, size, &pos, &total));
  ST_TRY(ReadUleb(data, size, &pos, &first_zz));
  if (block_size == 0 || block_size % 128 != 0 || block_size > (1u << 20) || miniblocks == 0 ||
      block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Corruption("parquet DELTA_BINARY_PACKED: bad block header");
  }
  if (total < n) {
    return Corruption("parquet DELTA_BINARY_PACKED holds " + std::to_string(total) +
                      " values, the page needs " + std::to_string(n));
  }
  const uint64_t per_mini = block_size / miniblocks;
  uint64_t value = (first_zz >> 1) ^ (~(first_zz & 1) + 1);
  size_t done = 0;
  if (n > 0) out[done++] = static_cast<int64_t>(value);
  uint64_t seen = total > 0 ? 1 : 0;
  while (seen < total) {
    if (pos >= size) {
      if (done >= n) break;  // Trailing blocks a writer dropped; we have our values.
      return Corruption("parquet DELTA_BINARY_PACKED: data ends early");
    }
    uint64_t min_zz = 0;
    ST_TRY(ReadUleb(data, size, &pos, &min_zz));
    const uint64_t min_delta = (min_zz >> 1) ^ (~(min_zz & 1) + 1);
    if (miniblocks > size - pos) return Corruption("parquet DELTA_BINARY_PACKED: truncated widths");
    const uint8_t* widths = data + pos;
    pos += miniblocks;
    for (uint64_t m = 0; m < miniblocks && seen < total; ++m) {
      const int w = widths[m];
      if (w > 64) return Corruption("parquet DELTA_BINARY_PACKED: bit width above 64");
      const uint64_t bytes = per_mini * static_cast<uint64_t>(w) / 8;
      const size_t avail = static_cast<size_t>(std::min<uint64_t>(bytes, size - pos));
      const uint8_t* mini = data + pos;
      const uint64_t count = std::min(per_mini, total - seen);
      for (uint64_t i = 0; i < count && done < n; ++i) {
        value += min_delta + ReadBits(mini, avail, i * static_cast<uint64_t>(w), w);
        out[done++] = static_cast<int64_t>(value);
      }
      seen += count;
      pos += avail;
    }
  }
  if (done < n) return Corruption("parquet DELTA_BINARY_PACKED: data ends early");
  *consumed = pos;
  return Status::OK();
}

Status DecodeByteStreamSplit(const uint8_t* data, size_t size, size_t n, size_t width,
                             uint8_t* out) {
  if (width == 0 || n > size / width) {
    return Corruption("parquet BYTE_STREAM_SPLIT: " + std::to_string(n) + " values of " +
                      std::to_string(width) + " bytes need more than the page's " +
                      std::to_string(size));
  }
  // The streams are sized by the page's value count, which is n.
  const size_t stride = size / width;
  for (size_t k = 0; k < width; ++k) {
    const uint8_t* stream = data + k * stride;
    for (size_t i = 0; i < n; ++i) out[i * width + k] = stream[i];
  }
  return Status::OK();
}

Status DecodeDeltaLengthByteArray(const uint8_t* data, size_t size, size_t n,
                                  std::vector<std::string_view>* out) {
  std::vector<int64_t> lengths(n);
  size_t pos = 0;
  ST_TRY(DecodeDeltaBinaryPacked(data, size, n, lengths.data(), &pos));
  const char* chars = reinterpret_cast<const char*>(data);
  for (size_t i = 0; i < n; ++i) {
    const int64_t len = lengths[i];
    if (len < 0 || static_cast<uint64_t>(len) > size - pos) {
      return Corruption("parquet DELTA_LENGTH_BYTE_ARRAY: value length past the page");
    }
    out->emplace_back(chars + pos, static_cast<size_t>(len));
    pos += static_cast<size_t>(len);
  }
  return Status::OK();
}

Status DecodeDeltaByteArray(const uint8_t* data, size_t size, size_t n, size_t max_bytes,
                            std::vector<std::string_view>* out,
                            std::vector<std::unique_ptr<char[]>>* storage) {
  std::vector<int64_t> prefixes(n);
  size_t pos = 0;
  ST_TRY(DecodeDeltaBinaryPacked(data, size, n, prefixes.data(), &pos));
  std::vector<std::string_view> suffixes;
  suffixes.reserve(n);
  ST_TRY(DecodeDeltaLengthByteArray(data + pos, size - pos, n, &suffixes));
  uint64_t total = 0;
  uint64_t prev = 0;
  for (size_t i = 0; i < n; ++i) {
    if (prefixes[i] < 0 || static_cast<uint64_t>(prefixes[i]) > prev) {
      return Corruption("parquet DELTA_BYTE_ARRAY: prefix longer than the previous value");
    }
    prev = static_cast<uint64_t>(prefixes[i]) + suffixes[i].size();
    total += prev;
    if (total > max_bytes) {
      return Corruption("parquet DELTA_BYTE_ARRAY: values exceed " + std::to_string(max_bytes) +
                        " bytes");
    }
  }
  auto buffer = std::make_unique_for_overwrite<char[]>(std::max<uint64_t>(total, 1));
  char* dst = buffer.get();
  const char* prev_data = dst;
  for (size_t i = 0; i < n; ++i) {
    const auto prefix = static_cast<size_t>(prefixes[i]);
    if (prefix > 0) std::memmove(dst, prev_data, prefix);
    if (!suffixes[i].empty()) std::memcpy(dst + prefix, suffixes[i].data(), suffixes[i].size());
    const size_t len = prefix + suffixes[i].size();
    out->emplace_back(dst, len);
    prev_data = dst;
    dst += len;
  }
  storage->push_back(std::move(buffer));
  return Status::OK();
}

}  // namespace st::parquet::internal
