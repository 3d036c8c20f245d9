#include <simdjson.h>

#include "decoding/kafka_metadata_internal.h"

namespace st::decoding {
namespace {

void PushBytes(const ShredNode& node, std::string_view bytes, int16_t rep, ColumnBuffers& out) {
  ColumnBuffer& c = out.column(node.column);
  c.PushLevels(node.def_level, rep);
  c.arena.append(bytes);
  c.EndBytes();
}

Result<const ShredNode*> Child(const ShredNode& parent, std::string_view name,
                               iceberg::TypeId type) {
  const int index = parent.FindChild(name);
  if (index < 0 || parent.children[index].type_id != type) {
    return Err(InvalidArgument("the _kafka column has no " + std::string(name) +
                               " field of the expected type; make the table with "
                               "ChannelTableSchema"));
  }
  return &parent.children[index];
}

}  // namespace

void EmitNulls(const ShredNode& node, int16_t def, int16_t rep, ColumnBuffers& out) {
  for (int c = node.first_column; c < node.end_column; ++c) out.column(c).PushNull(def, rep);
}

Result<KafkaMetadataWriter> KafkaMetadataWriter::Make(const ShredNode& kafka,
                                                      KeyFormat key_format) {
  KafkaMetadataWriter w;
  w.key_typed_ = KeyHasSchema(key_format);
  w.kafka_ = &kafka;
  if (kafka.kind != ShredNode::Kind::kStruct) {
    return Err(
        InvalidArgument("the _kafka column is not a struct; make the table with "
                        "ChannelTableSchema"));
  }
  ST_ASSIGN_OR_RETURN(w.partition_, Child(kafka, "partition", iceberg::TypeId::kInt));
  ST_ASSIGN_OR_RETURN(w.offset_, Child(kafka, "offset", iceberg::TypeId::kLong));
  ST_ASSIGN_OR_RETURN(w.timestamp_, Child(kafka, "timestamp", iceberg::TypeId::kTimestampTz));
  const int key_index = kafka.FindChild("key");
  if (w.key_typed_) {
    // Any type (the key schema's), or none until the first keyed record.
    if (key_index >= 0) w.key_ = &kafka.children[key_index];
  } else {
    w.key_text_ = key_index >= 0 && kafka.children[key_index].type_id == iceberg::TypeId::kString;
    ST_ASSIGN_OR_RETURN(
        w.key_,
        Child(kafka, "key", w.key_text_ ? iceberg::TypeId::kString : iceberg::TypeId::kBinary));
  }
  ST_ASSIGN_OR_RETURN(w.headers_, Child(kafka, "headers", iceberg::TypeId::kMap));
  if (w.headers_->children[1].type_id != iceberg::TypeId::kBinary) {
    return Err(InvalidArgument("_kafka.headers values must be binary"));
  }
  if (kafka.children.size() != (w.key_ != nullptr ? 5U : 4U)) {
    return Err(
        InvalidArgument("the _kafka column has extra fields; make the table with "
                        "ChannelTableSchema"));
  }
  return w;
}

bool KafkaMetadataWriter::Write(const KafkaRecord& record, bool fill, ColumnBuffers& out,
                                RecordError* error) const {
  if (!fill) {
    EmitNulls(*kafka_, static_cast<int16_t>(kafka_->def_level - 1), 0, out);
    return true;
  }
  for (const auto& header : record.headers) {
    if (!simdjson::validate_utf8(header.key.data(), header.key.size())) {
      error->code = std::string(kTypeMismatch);
      error->message = "Kafka header key is not UTF-8; _kafka.headers keys are strings";
      return false;
    }
  }
  if (key_text_ && record.key && !simdjson::validate_utf8(record.key->data(), record.key->size())) {
    error->code = std::string(kTypeMismatch);
    error->message =
        "record key is not valid UTF-8; _kafka.key is a string (keyConverter STRING; use "
        "BYTE_ARRAY for arbitrary key bytes)";
    return false;
  }
  {
    ColumnBuffer& c = out.column(partition_->column);
    c.PushLevels(partition_->def_level, 0);
    c.i32.push_back(record.partition);
  }
  {
    ColumnBuffer& c = out.column(offset_->column);
    c.PushLevels(offset_->def_level, 0);
    c.i64.push_back(record.offset);
  }
  {
    ColumnBuffer& c = out.column(timestamp_->column);
    if (record.timestamp_ms >= 0) {
      c.PushLevels(timestamp_->def_level, 0);
      c.i64.push_back(record.timestamp_ms * 1000);
    } else {
      c.PushNull(static_cast<int16_t>(timestamp_->def_level - 1), 0);
    }
  }
  if (key_typed_) {
    // The caller decodes the key into key_node().
  } else if (record.key) {
    PushBytes(*key_, *record.key, 0, out);
  } else {
    out.column(key_->column).PushNull(static_cast<int16_t>(key_->def_level - 1), 0);
  }
  if (record.headers.empty()) {
    EmitNulls(*headers_, headers_->def_level, 0, out);  // Empty map.
    return true;
  }
  const ShredNode& key_node = headers_->children[0];
  const ShredNode& value_node = headers_->children[1];
  bool first = true;
  for (const auto& header : record.headers) {
    const int16_t rep = first ? 0 : headers_->repeated_level;
    PushBytes(key_node, header.key, rep, out);
    if (header.value) {
      PushBytes(value_node, *header.value, rep, out);
    } else {
      out.column(value_node.column).PushNull(static_cast<int16_t>(value_node.def_level - 1), rep);
    }
    first = false;
  }
  return true;
}

bool WriteRawValue(const ShredNode& node, std::string_view value, bool text, ColumnBuffers& out,
                   RecordError* error) {
  if (text && !simdjson::validate_utf8(value.data(), value.size())) {
    error->code = std::string(kTypeMismatch);
    error->message =
        "record value is not valid UTF-8; the value column is a string (use the "
        "BYTE_ARRAY converter for arbitrary bytes)";
    return false;
  }
  PushBytes(node, value, 0, out);
  return true;
}

}  // namespace st::decoding
