// The Confluent Schema Registry wire framing: magic byte 0, the schema id as
// 4 bytes big-endian, then (Protobuf only) the message indexes — a zigzag
// varint count followed by that many zigzag varints, where the single byte 0
// stands for [0] — then the payload.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "decoding/record.h"

namespace st::decoding {

inline constexpr size_t kConfluentHeaderBytes = 5;
// More message indexes than this is hostile: real .proto files nest a few levels.
inline constexpr int64_t kMaxProtobufMessageIndexes = 64;

struct ConfluentFrame {
  int32_t schema_id = 0;
  // Protobuf: the path of the message type in the .proto ([0]: the first
  // top-level message). Empty unless parsed with `protobuf`.
  std::vector<int32_t> message_indexes;
  std::string_view payload;  // Points into the parsed value.
};

// False with `error` set: WRONG_MAGIC_BYTE when the first byte is not 0;
// TRUNCATED_PAYLOAD when the value ends inside the header or the message
// indexes; MALFORMED_PROTOBUF for an overlong varint, a negative count, more
// than kMaxProtobufMessageIndexes indexes or an index outside 0..INT32_MAX.
bool ParseConfluentFrame(std::string_view value, bool protobuf, ConfluentFrame* frame,
                         RecordError* error);

}  // namespace st::decoding
