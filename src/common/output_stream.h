// A sequential byte sink. Format writers (Parquet, Avro) write to one; the
// storage module adapts object-store uploads and files to it, and tests use
// MemoryOutputStream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace st {

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  // Appends `size` bytes. After an error the stream is unusable.
  virtual Status Write(const void* data, size_t size) = 0;
  // Bytes written so far.
  virtual int64_t Position() const = 0;

  Status Write(std::string_view bytes) { return Write(bytes.data(), bytes.size()); }
};

// Collects everything in memory. Never fails.
class MemoryOutputStream final : public OutputStream {
 public:
  using OutputStream::Write;
  Status Write(const void* data, size_t size) override {
    buffer_.append(static_cast<const char*>(data), size);
    return Status::OK();
  }
  int64_t Position() const override { return static_cast<int64_t>(buffer_.size()); }
  const std::string& buffer() const { return buffer_; }
  std::string Release() { return std::move(buffer_); }

 private:
  std::string buffer_;
};

}  // namespace st
