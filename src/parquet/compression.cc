#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <string>

#include "parquet/compression_internal.h"

namespace st::parquet::internal {
namespace {

Status GzipCompress(std::string_view input, int level, ByteBuffer* out) {
  z_stream stream{};
  // windowBits 15 + 16 selects the gzip wrapper, which is what Parquet's GZIP means.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Internal("parquet gzip: deflateInit2 failed");
  }
  const uLong bound = deflateBound(&stream, static_cast<uLong>(input.size())) + 32;
  out->clear();
  uint8_t* dst = out->Reserve(bound);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = dst;
  stream.avail_out = static_cast<uInt>(bound);
  const int rc = deflate(&stream, Z_FINISH);
  const size_t produced = bound - stream.avail_out;
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) return Internal("parquet gzip: deflate did not finish");
  out->Commit(produced);
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<Compressor>> Compressor::Make(Codec codec, int level) {
  std::unique_ptr<Compressor> c(new Compressor(codec, level));
  switch (codec) {
    case Codec::kUncompressed:
    case Codec::kSnappy:
      break;
    case Codec::kGzip:
      if (level != -1 && (level < 0 || level > 9)) {
        return Err(InvalidArgument("parquet gzip level " + std::to_string(level) +
                                   " is outside 0..9 (or -1 for the zlib default)"));
      }
      break;
    case Codec::kZstd:
      if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
        return Err(InvalidArgument("parquet zstd level " + std::to_string(level) + " is outside " +
                                   std::to_string(ZSTD_minCLevel()) + ".." +
                                   std::to_string(ZSTD_maxCLevel())));
      }
      c->zstd_context_ = ZSTD_createCCtx();
      if (c->zstd_context_ == nullptr) return Err(Internal("parquet zstd: out of memory"));
      // Parameters are set once; ZSTD_compress2 then reuses the context's
      // tables for every page. No checksum: Parquet pages carry none.
      if (ZSTD_isError(ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(c->zstd_context_),
                                              ZSTD_c_compressionLevel, level))) {
        return Err(InvalidArgument("parquet zstd level " + std::to_string(level) + " rejected"));
      }
      break;
    default:
      return Err(InvalidArgument("parquet codec " + std::to_string(static_cast<int>(codec)) +
                                 " is not supported; use UNCOMPRESSED, SNAPPY, GZIP or ZSTD"));
  }
  return c;
}

Compressor::~Compressor() {
  if (zstd_context_ != nullptr) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(zstd_context_));
}

Status Compressor::Compress(std::string_view input, ByteBuffer* out) {
  out->clear();
  switch (codec_) {
    case Codec::kUncompressed:
      out->Append(input);
      return Status::OK();
    case Codec::kSnappy: {
      uint8_t* dst = out->Reserve(snappy::MaxCompressedLength(input.size()));
      size_t produced = 0;
      snappy::RawCompress(input.data(), input.size(), reinterpret_cast<char*>(dst), &produced);
      out->Commit(produced);
      return Status::OK();
    }
    case Codec::kGzip:
      return GzipCompress(input, level_, out);
    case Codec::kZstd: {
      const size_t bound = ZSTD_compressBound(input.size());
      uint8_t* dst = out->Reserve(bound);
      const size_t rc = ZSTD_compress2(static_cast<ZSTD_CCtx*>(zstd_context_), dst, bound,
                                       input.data(), input.size());
      if (ZSTD_isError(rc)) {
        return Internal(std::string("parquet zstd: ") + ZSTD_getErrorName(rc));
      }
      out->Commit(rc);
      return Status::OK();
    }
  }
  return Internal("parquet: unknown codec");
}

namespace {

Status GzipDecompress(std::string_view input, char* out, size_t out_size) {
  z_stream stream{};
  // 15 + 32: accept the gzip or the zlib wrapper (some writers emit zlib).
  if (inflateInit2(&stream, 15 + 32) != Z_OK) return Internal("parquet gzip: inflateInit2 failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = reinterpret_cast<Bytef*>(out);
  stream.avail_out = static_cast<uInt>(out_size);
  int rc = Z_OK;
  // Concatenated gzip members are legal; keep inflating while input remains.
  while (true) {
    rc = inflate(&stream, Z_FINISH);
    if (rc == Z_STREAM_END && stream.avail_in > 0 && stream.avail_out > 0) {
      if (inflateReset(&stream) != Z_OK) break;
      continue;
    }
    break;
  }
  const size_t produced = out_size - stream.avail_out;
  const bool more_output = rc == Z_BUF_ERROR && stream.avail_out == 0 && stream.avail_in > 0;
  inflateEnd(&stream);
  if (more_output) return Corruption("parquet gzip page decompresses past its declared size");
  if (rc != Z_STREAM_END) return Corruption("parquet gzip page is malformed or truncated");
  if (produced != out_size) {
    return Corruption("parquet gzip page decompressed to " + std::to_string(produced) +
                      " bytes, header says " + std::to_string(out_size));
  }
  return Status::OK();
}

}  // namespace

// parquet.thrift LZ4_RAW: a bare LZ4 block. Read only, so not in Codec.
constexpr auto kLz4Raw = static_cast<Codec>(7);

Decompressor::~Decompressor() {
  if (zstd_context_ != nullptr) ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(zstd_context_));
}

Status Decompressor::Decompress(Codec codec, std::string_view input, char* out, size_t out_size) {
  if (codec == kLz4Raw) {
    if (input.size() > static_cast<size_t>(INT32_MAX) ||
        out_size > static_cast<size_t>(INT32_MAX)) {
      return Corruption("parquet lz4 page larger than 2 GiB");
    }
    const int rc = LZ4_decompress_safe(input.data(), out, static_cast<int>(input.size()),
                                       static_cast<int>(out_size));
    if (rc < 0 || static_cast<size_t>(rc) != out_size) {
      return Corruption("parquet lz4 page is malformed or not of its declared size");
    }
    return Status::OK();
  }
  switch (codec) {
    case Codec::kUncompressed:
      if (input.size() != out_size) {
        return Corruption("parquet uncompressed page: compressed and uncompressed sizes differ");
      }
      if (out_size != 0) std::memcpy(out, input.data(), out_size);
      return Status::OK();
    case Codec::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(input.data(), input.size(), &length)) {
        return Corruption("parquet snappy page: malformed length preamble");
      }
      if (length != out_size) {
        return Corruption("parquet snappy page holds " + std::to_string(length) +
                          " bytes, header says " + std::to_string(out_size));
      }
      if (!snappy::RawUncompress(input.data(), input.size(), out)) {
        return Corruption("parquet snappy page is malformed");
      }
      return Status::OK();
    }
    case Codec::kGzip:
      return GzipDecompress(input, out, out_size);
    case Codec::kZstd: {
      if (zstd_context_ == nullptr) {
        zstd_context_ = ZSTD_createDCtx();
        if (zstd_context_ == nullptr) return Internal("parquet zstd: out of memory");
      }
      const size_t rc = ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(zstd_context_), out, out_size,
                                            input.data(), input.size());
      if (ZSTD_isError(rc)) {
        return Corruption(std::string("parquet zstd page: ") + ZSTD_getErrorName(rc));
      }
      if (rc != out_size) {
        return Corruption("parquet zstd page decompressed to " + std::to_string(rc) +
                          " bytes, header says " + std::to_string(out_size));
      }
      return Status::OK();
    }
  }
  return Unsupported("parquet codec " + std::to_string(static_cast<int>(codec)) +
                     " is not supported (UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW are)");
}

}  // namespace st::parquet::internal
