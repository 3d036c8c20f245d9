#include "parquet/thrift_compact_internal.h"

namespace st::parquet::internal {

void CompactWriter::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out_->push_back(static_cast<char>(v));
}

void CompactWriter::FieldHeader(int16_t id, ThriftType type) {
  int16_t& last = last_field_id_.back();
  const int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    out_->push_back(static_cast<char>(type));
    WriteVarint(ZigZag32(id));
  }
  last = id;
}

void CompactWriter::FieldI16(int16_t id, int16_t v) {
  FieldHeader(id, ThriftType::kI16);
  WriteVarint(ZigZag32(v));
}

void CompactWriter::FieldI32(int16_t id, int32_t v) {
  FieldHeader(id, ThriftType::kI32);
  WriteVarint(ZigZag32(v));
}

void CompactWriter::FieldI64(int16_t id, int64_t v) {
  FieldHeader(id, ThriftType::kI64);
  WriteVarint(ZigZag64(v));
}

void CompactWriter::FieldBool(int16_t id, bool v) {
  FieldHeader(id, v ? ThriftType::kBoolTrue : ThriftType::kBoolFalse);
}

void CompactWriter::FieldBinary(int16_t id, std::string_view v) {
  FieldHeader(id, ThriftType::kBinary);
  WriteVarint(v.size());
  out_->append(v);
}

void CompactWriter::BeginStructField(int16_t id) {
  FieldHeader(id, ThriftType::kStruct);
  last_field_id_.push_back(0);
}

void CompactWriter::EndStruct() {
  out_->push_back(0);  // Stop field.
  last_field_id_.pop_back();
}

void CompactWriter::BeginListField(int16_t id, ThriftType element_type, int32_t size) {
  FieldHeader(id, ThriftType::kList);
  const auto type = static_cast<uint8_t>(element_type);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | type));
  } else {
    out_->push_back(static_cast<char>(0xF0 | type));
    WriteVarint(static_cast<uint32_t>(size));
  }
}

void CompactWriter::ListBinary(std::string_view v) {
  WriteVarint(v.size());
  out_->append(v);
}

}  // namespace st::parquet::internal
