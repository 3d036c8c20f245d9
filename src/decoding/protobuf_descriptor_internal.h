// A Protobuf writer schema as the decoder needs it: the message selected by
// the Confluent message indexes and every message and enum it reaches, in a
// small model of our own (libprotobuf is used only to parse, in
// protobuf_descriptor.cc; nothing of it reaches the hot path or a header).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "decoding/writer_schema.h"
#include "iceberg/types.h"

namespace st::decoding {

enum class ProtoKind : uint8_t {
  kInt32,
  kSint32,
  kSfixed32,
  kUint32,
  kFixed32,
  kInt64,
  kSint64,
  kSfixed64,
  kUint64,
  kFixed64,
  kFloat,
  kDouble,
  kBool,
  kString,
  kBytes,
  kEnum,
  kMessage,
  kTimestamp,  // google.protobuf.Timestamp.
  kWrapper,    // google.protobuf.*Value: `wrapped` says which scalar.
};

// The .proto spelling of `kind` ("int32", "enum", "message", ...), for messages.
const char* ProtoKindName(ProtoKind kind);

struct ProtoEnum {
  std::string full_name;
  std::vector<std::pair<int32_t, std::string>> values;  // Sorted by number, first name kept.
  // The name of `number`, or nullptr (an open enum's unknown value).
  const std::string* Find(int32_t number) const;
};

struct ProtoMessage;

struct ProtoField {
  std::string name;
  int32_t number = 0;
  ProtoKind kind = ProtoKind::kInt32;
  ProtoKind wrapped = ProtoKind::kInt32;  // kWrapper only.
  bool repeated = false;
  bool is_map = false;                     // repeated map-entry message: key 1, value 2.
  bool presence = false;                   // Explicit presence: absent → null (else the default).
  const ProtoMessage* message = nullptr;   // kMessage (and map entries).
  const ProtoEnum* enumeration = nullptr;  // kEnum.
};

struct ProtoMessage {
  std::string full_name;
  std::vector<ProtoField> fields;  // Declaration order.
};

struct ProtoSchema {
  std::deque<ProtoMessage> messages;  // Stable addresses.
  std::deque<ProtoEnum> enums;
  const ProtoMessage* root = nullptr;
};

// Whether a kind is read from a varint / 8 / 4 bytes / a length-delimited value.
bool ProtoKindIsVarint(ProtoKind kind);
bool ProtoKindIsFixed64(ProtoKind kind);
bool ProtoKindIsFixed32(ProtoKind kind);
// The Iceberg type a scalar kind maps to (protobuf_schema.h's table):
// int32/sint32/sfixed32 → int, the other integers → long, enum → string,
// bytes → binary, Timestamp → timestamptz; kMessage and kWrapper → struct.
iceberg::TypeId ProtoKindTypeId(ProtoKind kind);

// Imports a file may name without a schema reference are Google's
// well-known types (google/protobuf/*.proto, compiled into libprotobuf).
// `writer.text` and each reference's text are `.proto` source or the
// base64 of a serialized FileDescriptorProto (what confluent-kafka's Python
// serializer registers). Errors: InvalidArgument (does not parse, an import
// with no reference, a cycle); NotFound when `message_indexes` names no
// message (empty or [0] = the first top-level message).
Result<std::unique_ptr<ProtoSchema>> ParseProtoSchema(const WriterSchema& writer,
                                                      const std::vector<int32_t>& message_indexes);

// The whole of a schema file as the registry's compatibility checks need it
// (protobuf_compatibility.cc), from the same parse as ParseProtoSchema: every
// message of the file, nested ones and map entries included, and of the
// files it imports (Google's well-known types excepted), fields by number.
// Names are relative to the file's package (other packages' stay full), so
// a changed package is one difference, not one per message.
enum class ProtoCardinality : uint8_t { kSingular, kRepeated, kMap };

struct ProtoOutlineField {
  std::string name;
  int32_t number = 0;
  ProtoKind kind = ProtoKind::kInt32;  // Never kTimestamp/kWrapper: those are kMessage here.
  std::string type_name;               // kMessage, kEnum: the (relative) type name.
  ProtoCardinality cardinality = ProtoCardinality::kSingular;
  bool required = false;  // proto2 `required`.
  std::string oneof;      // A real oneof's name; empty outside one (and for proto3 `optional`).
};

struct ProtoOutlineMessage {
  std::vector<ProtoOutlineField> fields;  // Declaration order.
};

struct ProtoOutline {
  std::string package;
  std::vector<std::string> top_level;                   // The file's own top-level messages.
  std::map<std::string, ProtoOutlineMessage> messages;  // By (relative) name.
};

// Errors: as ParseProtoSchema (InvalidArgument), and InvalidArgument when
// messages nest deeper than 64 levels.
Result<ProtoOutline> OutlineProtoSchema(const WriterSchema& writer);

}  // namespace st::decoding
