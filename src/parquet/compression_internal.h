// Page compression for the codecs Iceberg uses. One Compressor per FileWriter;
// it keeps codec contexts alive across pages. Not thread-safe.
#pragma once

#include <memory>
#include <string_view>

#include "common/status.h"
#include "parquet/byte_buffer_internal.h"
#include "parquet/writer_options.h"

namespace st::parquet::internal {

class Compressor {
 public:
  // InvalidArgument for a level the codec rejects.
  static Result<std::unique_ptr<Compressor>> Make(Codec codec, int level);
  ~Compressor();

  Codec codec() const { return codec_; }
  // Replaces *out with the compressed form of input. Errors: Internal if the
  // codec library fails (out of memory).
  Status Compress(std::string_view input, ByteBuffer* out);

 private:
  Compressor(Codec codec, int level) : codec_(codec), level_(level) {}

  Codec codec_;
  int level_;
  void* zstd_context_ = nullptr;
};

// Page decompression; one per column chunk read (keeps the zstd context).
// Not thread-safe.
class Decompressor {
 public:
  Decompressor() = default;
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  // Decompresses `input` into out[0..out_size), which must come out exactly
  // full (the page header's uncompressed size). Errors: Corruption when the
  // input is malformed or decompresses to another size; Unsupported for a
  // codec other than UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW (7).
  Status Decompress(Codec codec, std::string_view input, char* out, size_t out_size);

 private:
  void* zstd_context_ = nullptr;
};

}  // namespace st::parquet::internal
