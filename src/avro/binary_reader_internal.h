// Bounds-checked reader of Avro binary data, shared by the value decoder and
// the container reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "avro/encoding.h"
#include "avro/schema.h"
#include "common/status.h"
#include "common/value.h"

namespace st::avro::internal {

__extension__ typedef unsigned __int128 UInt128;

class BinaryReader {
 public:
  // `data` must outlive the reader. `base_offset` is added to the offsets
  // quoted in error messages, so they can point into an enclosing file.
  BinaryReader(std::string_view data, int64_t base_offset, DecodeLimits limits = {})
      : data_(data), base_offset_(base_offset), limits_(limits) {}

  // Each `what` names the item for the Corruption message.
  Result<int64_t> ReadLong(const char* what);
  Result<int32_t> ReadInt(const char* what);
  // Length-prefixed bytes; a view into the input.
  Result<std::string_view> ReadBytes(const char* what);
  Result<std::string_view> ReadFixed(size_t size, const char* what);
  // A whole value of `node`.
  Result<Value> ReadValue(const Node& node);

  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  // Offset of the next byte in the enclosing file.
  int64_t file_offset() const { return base_offset_ + static_cast<int64_t>(pos_); }

  Status Corrupt(std::string_view what) const;

 private:
  Result<Value> Read(const Node& node, int depth);
  Result<Value> ReadArray(const Node& node, int depth);
  Result<Value> ReadMap(const Node& node, int depth);
  // Validates a block count against the bytes left (or the zero-width budget).
  Result<int64_t> ReadBlockCount(int64_t min_item_bytes, const char* what);

  std::string_view data_;
  size_t pos_ = 0;
  int64_t base_offset_;
  DecodeLimits limits_;
  int64_t zero_width_left_ = 0;
};

// Encoding primitives shared by the encoder and the container writer.
void AppendLong(int64_t value, std::string* out);

}  // namespace st::avro::internal
