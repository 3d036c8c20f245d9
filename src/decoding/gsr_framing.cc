#include <zlib.h>

#include <cstdio>

#include "common/uuid.h"
#include "decoding/gsr_framing_internal.h"

namespace st::decoding {
namespace {

constexpr unsigned char kHeaderVersion = 0x03;
constexpr unsigned char kNoCompression = 0x00;
constexpr unsigned char kZlibCompression = 0x05;

bool MissingHeader(RecordError* error, std::string message) {
  error->code = std::string(kMissingGsrHeader);
  error->message = std::move(message);
  return false;
}

std::string HexByte(unsigned char b) {
  char text[8];
  std::snprintf(text, sizeof(text), "0x%02x", b);
  return text;
}

// A zlib stream over `compressed`, ready for inflate(); false (with the
// error set) if zlib cannot start one. The caller ends it with inflateEnd.
bool StartInflate(std::string_view compressed, z_stream* stream, RecordError* error) {
  *stream = z_stream{};
  if (inflateInit(stream) != Z_OK) {
    error->code = std::string(kMalformedJson);
    error->message = "cannot start zlib inflation of the GSR payload";
    return false;
  }
  stream->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream->avail_in = static_cast<uInt>(compressed.size());
  return true;
}

bool CorruptStream(RecordError* error) {
  error->code = std::string(kMalformedJson);
  error->message = "zlib-compressed GSR payload is corrupt or truncated";
  return false;
}

}  // namespace

bool ParseGsrFrame(std::string_view value, GsrFrame* frame, RecordError* error) {
  if (value.size() < kGsrHeaderBytes) {
    return MissingHeader(error, "record value has " + std::to_string(value.size()) +
                                    " bytes, fewer than the 18-byte Glue Schema Registry header;"
                                    " produce it with a GSR serializer");
  }
  const auto version = static_cast<unsigned char>(value[0]);
  if (version != kHeaderVersion) {
    return MissingHeader(error, "record value starts with " + HexByte(version) +
                                    ", not the Glue Schema Registry header version 0x03;"
                                    " produce it with a GSR serializer");
  }
  const auto compression = static_cast<unsigned char>(value[1]);
  if (compression != kNoCompression && compression != kZlibCompression) {
    return MissingHeader(error, "record value has Glue Schema Registry compression byte " +
                                    HexByte(compression) + "; expected 0x00 (none) or 0x05 (zlib)");
  }
  Uuid id;
  for (size_t i = 0; i < 16; ++i) id.bytes[i] = static_cast<uint8_t>(value[2 + i]);
  frame->schema_version_id = id.ToString();
  frame->zlib = compression == kZlibCompression;
  frame->payload = value.substr(kGsrHeaderBytes);
  return true;
}

bool InflateGsrPayload(std::string_view compressed, int64_t max_bytes, std::string* out,
                       RecordError* error) {
  out->clear();
  z_stream stream{};
  if (!StartInflate(compressed, &stream, error)) return false;
  int rc = Z_OK;
  char chunk[16384];
  while (rc != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof(chunk);
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out->append(chunk, sizeof(chunk) - stream.avail_out);
    if (static_cast<int64_t>(out->size()) > max_bytes) {
      inflateEnd(&stream);
      error->code = std::string(kRecordTooLarge);
      error->message = "GSR payload inflates to more than " + std::to_string(max_bytes) +
                       " bytes (the maximum record size)";
      return false;
    }
    if (rc == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      rc = Z_BUF_ERROR;  // Input ended before the stream did.
      break;
    }
  }
  inflateEnd(&stream);
  if (rc != Z_STREAM_END) return CorruptStream(error);
  return true;
}

bool InflateGsrPrefix(std::string_view compressed, size_t min_bytes, std::string* out,
                      RecordError* error) {
  out->clear();
  z_stream stream{};
  if (!StartInflate(compressed, &stream, error)) return false;
  int rc = Z_OK;
  char chunk[64];
  while (out->size() < min_bytes && rc == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof(chunk);
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc == Z_OK || rc == Z_STREAM_END) out->append(chunk, sizeof(chunk) - stream.avail_out);
    // No progress with input left to read: the stream ended early.
    if (rc == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) rc = Z_BUF_ERROR;
  }
  inflateEnd(&stream);
  if (out->size() < min_bytes && rc != Z_STREAM_END) return CorruptStream(error);
  return true;
}

bool ReadGsrMessageIndex(std::string_view payload, uint32_t* index, size_t* index_bytes,
                         RecordError* error) {
  uint64_t value = 0;
  for (size_t i = 0; i < kMaxGsrMessageIndexBytes; ++i) {
    if (i >= payload.size()) {
      error->code = std::string(kTruncatedPayload);
      error->message = payload.empty()
                           ? "record value has no Protobuf message index after its Glue Schema "
                             "Registry header"
                           : "record value ends inside its Protobuf message index";
      return false;
    }
    const auto b = static_cast<uint8_t>(payload[i]);
    value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) {
      if (value > UINT32_MAX) break;
      *index = static_cast<uint32_t>(value);
      *index_bytes = i + 1;
      return true;
    }
  }
  error->code = std::string(kMalformedProtobuf);
  error->message =
      "the Protobuf message index after the Glue Schema Registry header is not an "
      "unsigned 32-bit varint";
  return false;
}

}  // namespace st::decoding
