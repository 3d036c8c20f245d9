// Protobuf → Avro record schema (JSON text), then the Avro rules. The Avro
// form is only a vehicle for the mapping: the decoder reads Protobuf wire
// bytes against the Protobuf model, never Avro.
#include <set>
#include <string>

#include "avro/schema.h"
#include "decoding/confluent_framing_internal.h"
#include "decoding/gsr_framing_internal.h"
#include "decoding/protobuf_descriptor_internal.h"
#include "decoding/protobuf_schema.h"

namespace st::decoding {
namespace {

// The Avro type whose Iceberg mapping is the kind's (ProtoKindTypeId).
const char* ProtoScalarAvroType(ProtoKind kind) {
  using iceberg::TypeId;
  switch (ProtoKindTypeId(kind)) {
    case TypeId::kInt:
      return "\"int\"";
    case TypeId::kLong:
      return "\"long\"";
    case TypeId::kFloat:
      return "\"float\"";
    case TypeId::kDouble:
      return "\"double\"";
    case TypeId::kBoolean:
      return "\"boolean\"";
    case TypeId::kString:
      return "\"string\"";
    case TypeId::kBinary:
      return "\"bytes\"";
    case TypeId::kTimestampTz:
      return R"({"type":"long","logicalType":"timestamp-micros"})";
    default:
      return nullptr;
  }
}

class ProtoAvroWriter {
 public:
  std::string Record(const ProtoMessage& m) {
    if (!defined_.insert(m.full_name).second) return "\"" + m.full_name + "\"";
    std::string out = "{\"type\":\"record\",\"name\":\"" + m.full_name + "\",\"fields\":[";
    bool first = true;
    for (const ProtoField& f : m.fields) {
      if (!first) out += ',';
      first = false;
      out += "{\"name\":\"" + f.name + "\",\"type\":" + FieldType(f) + "}";
    }
    return out + "]}";
  }

 private:
  std::string Value(const ProtoField& f) {
    if (f.kind == ProtoKind::kMessage) return Record(*f.message);
    if (f.kind == ProtoKind::kWrapper) return ProtoScalarAvroType(f.wrapped);
    return ProtoScalarAvroType(f.kind);
  }

  std::string FieldType(const ProtoField& f) {
    if (f.is_map) {
      const ProtoField* value = nullptr;
      for (const ProtoField& e : f.message->fields) {
        if (e.number == 2) value = &e;
      }
      std::string v = value == nullptr ? "\"null\"" : Value(*value);
      if (value != nullptr && (value->kind == ProtoKind::kMessage || value->presence)) {
        v = "[\"null\"," + v + "]";
      }
      return "{\"type\":\"map\",\"values\":" + v + "}";
    }
    if (f.repeated) return "{\"type\":\"array\",\"items\":" + Value(f) + "}";
    const bool optional = f.presence || f.kind == ProtoKind::kMessage ||
                          f.kind == ProtoKind::kWrapper || f.kind == ProtoKind::kTimestamp;
    return optional ? "[\"null\"," + Value(f) + "]" : Value(f);
  }

  std::set<std::string> defined_;
};

Result<avro::Schema> ProtoAsAvro(const WriterSchema& writer,
                                 const std::vector<int32_t>& message_indexes) {
  ST_ASSIGN_OR_RETURN(std::unique_ptr<ProtoSchema> proto,
                      ParseProtoSchema(writer, message_indexes));
  ProtoAvroWriter avro_writer;
  Result<avro::Schema> avro = avro::Schema::Parse(avro_writer.Record(*proto->root));
  if (!avro.has_value()) {
    return Err(InvalidArgument("the Protobuf message " + proto->root->full_name +
                               " cannot be mapped: " + avro.error().message()));
  }
  return avro;
}

}  // namespace

bool ReadConfluentProtobufHeader(std::string_view value, ConfluentProtobufHeader* header,
                                 RecordError* error) {
  ConfluentFrame frame;
  if (!ParseConfluentFrame(value, true, &frame, error)) return false;
  *header = ConfluentProtobufHeader{frame.schema_id, std::move(frame.message_indexes),
                                    value.size() - frame.payload.size()};
  return true;
}

bool ReadGsrProtobufHeader(std::string_view value, GsrProtobufHeader* header, RecordError* error) {
  GsrFrame frame;
  if (!ParseGsrFrame(value, &frame, error)) return false;
  std::string_view payload = frame.payload;
  std::string inflated;
  if (frame.zlib) {
    if (!InflateGsrPrefix(payload, kMaxGsrMessageIndexBytes, &inflated, error)) {
      error->code = std::string(kMalformedProtobuf);
      return false;
    }
    payload = inflated;
  }
  size_t index_bytes = 0;
  if (!ReadGsrMessageIndex(payload, &header->message_index, &index_bytes, error)) return false;
  header->schema_version_id = std::move(frame.schema_version_id);
  return true;
}

Result<iceberg::Schema> ProtobufToIcebergSchema(const WriterSchema& writer,
                                                const std::vector<int32_t>& message_indexes) {
  ST_ASSIGN_OR_RETURN(avro::Schema avro, ProtoAsAvro(writer, message_indexes));
  return AvroToIcebergSchema(avro);
}

Result<AvroEvolution> EvolveForProtobuf(const iceberg::Schema& table, const WriterSchema& writer,
                                        const std::vector<int32_t>& message_indexes,
                                        const std::set<int32_t>& partition_source_ids) {
  ST_ASSIGN_OR_RETURN(avro::Schema avro, ProtoAsAvro(writer, message_indexes));
  return EvolveForAvro(table, avro, partition_source_ids);
}

Result<AvroEvolution> EvolveKeyForProtobuf(const iceberg::Schema& table, const WriterSchema& writer,
                                           const std::vector<int32_t>& message_indexes) {
  ST_ASSIGN_OR_RETURN(avro::Schema avro, ProtoAsAvro(writer, message_indexes));
  return EvolveKeyForAvro(table, avro);
}

}  // namespace st::decoding
