#include <cstdio>
#include <limits>
#include <string>

#include "decoding/confluent_framing_internal.h"

namespace st::decoding {
namespace {

bool Fail(RecordError* error, std::string_view code, std::string message) {
  error->code = std::string(code);
  error->message = std::move(message);
  return false;
}

// A zigzag varint of at most 10 bytes. 0: ok, 1: the input ended, 2: overlong.
int ReadZigzag(std::string_view data, size_t* pos, int64_t* out) {
  uint64_t acc = 0;
  for (int i = 0; i < 10; ++i) {
    if (*pos >= data.size()) return 1;
    const auto b = static_cast<uint8_t>(data[(*pos)++]);
    if (i == 9 && (b & 0xFE) != 0) return 2;
    acc |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) {
      *out = static_cast<int64_t>((acc >> 1) ^ (~(acc & 1) + 1));
      return 0;
    }
  }
  return 2;
}

}  // namespace

bool ParseConfluentFrame(std::string_view value, bool protobuf, ConfluentFrame* frame,
                         RecordError* error) {
  if (value.empty()) {
    return Fail(error, kTruncatedPayload,
                "record value is empty; a Confluent-framed value starts with the magic byte 0 "
                "and a 4-byte schema id");
  }
  const auto magic = static_cast<uint8_t>(value[0]);
  if (magic != 0) {
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%02x", magic);
    return Fail(error, kWrongMagicByte,
                std::string("record value starts with ") + hex +
                    ", not the Confluent magic byte 0x00; produce it with a Schema Registry "
                    "serializer");
  }
  if (value.size() < kConfluentHeaderBytes) {
    return Fail(error, kTruncatedPayload,
                "record value has " + std::to_string(value.size()) +
                    " bytes, fewer than the 5-byte Confluent header (magic byte and schema id)");
  }
  const uint32_t id = (static_cast<uint32_t>(static_cast<uint8_t>(value[1])) << 24) |
                      (static_cast<uint32_t>(static_cast<uint8_t>(value[2])) << 16) |
                      (static_cast<uint32_t>(static_cast<uint8_t>(value[3])) << 8) |
                      static_cast<uint32_t>(static_cast<uint8_t>(value[4]));
  frame->schema_id = static_cast<int32_t>(id);
  frame->message_indexes.clear();
  size_t pos = kConfluentHeaderBytes;
  if (protobuf) {
    int64_t count = 0;
    int rc = ReadZigzag(value, &pos, &count);
    if (rc == 1) {
      return Fail(error, kTruncatedPayload,
                  "record value ends inside the Protobuf message-index count");
    }
    if (rc == 2 || count < 0 || count > kMaxProtobufMessageIndexes) {
      return Fail(error, kMalformedProtobuf,
                  "Protobuf message-index count is malformed or above " +
                      std::to_string(kMaxProtobufMessageIndexes));
    }
    if (count == 0) frame->message_indexes.push_back(0);  // The first message type.
    for (int64_t i = 0; i < count; ++i) {
      int64_t index = 0;
      rc = ReadZigzag(value, &pos, &index);
      if (rc == 1) {
        return Fail(error, kTruncatedPayload, "record value ends inside a Protobuf message index");
      }
      if (rc == 2 || index < 0 || index > std::numeric_limits<int32_t>::max()) {
        return Fail(error, kMalformedProtobuf, "Protobuf message index is malformed");
      }
      frame->message_indexes.push_back(static_cast<int32_t>(index));
    }
  }
  frame->payload = value.substr(pos);
  return true;
}

}  // namespace st::decoding
