#include <zlib.h>

#include <algorithm>
#include <limits>

#include "avro/deflate_internal.h"

namespace st::avro::internal {
namespace {

// Negative windowBits selects raw deflate: no zlib header or checksum.
constexpr int kRawWindowBits = -15;

}  // namespace

Status DeflateRaw(std::string_view input, int level, std::string* out) {
  out->clear();
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, kRawWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Internal("avro deflate: deflateInit2 failed (level " + std::to_string(level) + ")");
  }
  out->resize(deflateBound(&zs, static_cast<uLong>(input.size())));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  int rc = deflate(&zs, Z_FINISH);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    return Internal("avro deflate: deflate failed with code " + std::to_string(rc));
  }
  out->resize(zs.total_out);
  return Status::OK();
}

Status InflateRaw(std::string_view input, size_t max_output_bytes, std::string* out) {
  out->clear();
  if (input.size() > std::numeric_limits<uInt>::max()) {
    return Corruption("avro deflate: compressed block larger than 4 GiB");
  }
  z_stream zs{};
  if (inflateInit2(&zs, kRawWindowBits) != Z_OK) {
    return Internal("avro deflate: inflateInit2 failed");
  }
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  // Grow geometrically from a guess; the cap is checked before each growth.
  size_t capacity = std::min(max_output_bytes, std::max<size_t>(input.size() * 4, 4096));
  int rc = Z_OK;
  while (true) {
    if (out->size() == capacity) {
      if (capacity >= max_output_bytes) {
        inflateEnd(&zs);
        return Corruption("avro deflate: block inflates to more than " +
                          std::to_string(max_output_bytes) + " bytes");
      }
      capacity = std::min(max_output_bytes, capacity * 2);
    }
    size_t used = out->size();
    out->resize(capacity);
    zs.next_out = reinterpret_cast<Bytef*>(out->data() + used);
    zs.avail_out = static_cast<uInt>(capacity - used);
    rc = inflate(&zs, Z_NO_FLUSH);
    out->resize(capacity - zs.avail_out);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      inflateEnd(&zs);
      return Corruption("avro deflate: compressed block is truncated");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      std::string msg = zs.msg != nullptr ? zs.msg : "code " + std::to_string(rc);
      inflateEnd(&zs);
      return Corruption("avro deflate: invalid compressed block (" + msg + ")");
    }
  }
  // Bytes after the end of the deflate stream are ignored, as Java's Inflater
  // does: fastavro strips only the last byte of zlib's 4-byte Adler-32 trailer,
  // so its blocks carry 3 extra bytes.
  inflateEnd(&zs);
  return Status::OK();
}

}  // namespace st::avro::internal
