// A growable byte buffer without zero-initialisation, for page and chunk
// assembly on the hot path (std::string/vector would memset on resize).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

namespace st::parquet::internal {

class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer&) = delete;
  ByteBuffer& operator=(const ByteBuffer&) = delete;
  ByteBuffer(ByteBuffer&& other) noexcept
      : data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  ~ByteBuffer() { std::free(data_); }

  void Append(const void* src, size_t n) {
    if (size_ + n > capacity_) Grow(size_ + n);
    if (n != 0) std::memcpy(data_ + size_, src, n);
    size_ += n;
  }
  void Append(std::string_view s) { Append(s.data(), s.size()); }
  void PushByte(uint8_t b) {
    if (size_ + 1 > capacity_) Grow(size_ + 1);
    data_[size_++] = b;
  }
  template <typename T>
  void AppendPod(const T& v) {
    Append(&v, sizeof(T));
  }
  // Makes room for `n` more bytes and returns where they go; call Commit(n) after writing.
  uint8_t* Reserve(size_t n) {
    if (size_ + n > capacity_) Grow(size_ + n);
    return data_ + size_;
  }
  void Commit(size_t n) { size_ += n; }

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(data_), size_);
  }

 private:
  void Grow(size_t needed) {
    size_t cap = capacity_ == 0 ? 256 : capacity_;
    while (cap < needed) cap *= 2;
    auto* grown = static_cast<uint8_t*>(std::realloc(data_, cap));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = grown;
    capacity_ = cap;
  }

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace st::parquet::internal
