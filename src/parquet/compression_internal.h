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

}  // namespace st::parquet::internal
