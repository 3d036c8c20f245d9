#include <cstring>

#include "parquet/thrift_compact_reader_internal.h"

namespace st::parquet::internal {

Status CompactReader::Fail(const std::string& why) const {
  return Corruption(what_ + " at byte " + std::to_string(pos_) + ": " + why);
}

Status CompactReader::ReadVarint(uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= size_) return Fail("truncated varint");
    const uint8_t b = data_[pos_++];
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *v = result;
      return Status::OK();
    }
  }
  return Fail("varint longer than 10 bytes");
}

Status CompactReader::BeginStruct() {
  if (last_field_id_.size() >= kMaxDepth) return Fail("structs nested too deeply");
  last_field_id_.push_back(0);
  return Status::OK();
}

Status CompactReader::NextField(int16_t* id, ThriftType* type, bool* done) {
  if (last_field_id_.empty()) return Fail("field outside a struct");
  if (pos_ >= size_) return Fail("truncated struct");
  const uint8_t b = data_[pos_++];
  if (b == 0) {
    last_field_id_.pop_back();
    *done = true;
    return Status::OK();
  }
  *done = false;
  const uint8_t t = b & 0x0F;
  if (t < 1 || t > 12) return Fail("unknown field type " + std::to_string(t));
  *type = static_cast<ThriftType>(t);
  const int delta = b >> 4;
  if (delta != 0) {
    *id = static_cast<int16_t>(last_field_id_.back() + delta);
  } else {
    ST_TRY(ReadI16(id));
  }
  last_field_id_.back() = *id;
  return Status::OK();
}

Status CompactReader::ReadI64(int64_t* v) {
  uint64_t u = 0;
  ST_TRY(ReadVarint(&u));
  *v = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  return Status::OK();
}

Status CompactReader::ReadI32(int32_t* v) {
  int64_t wide = 0;
  ST_TRY(ReadI64(&wide));
  if (wide < INT32_MIN || wide > INT32_MAX) return Fail("i32 out of range");
  *v = static_cast<int32_t>(wide);
  return Status::OK();
}

Status CompactReader::ReadI16(int16_t* v) {
  int64_t wide = 0;
  ST_TRY(ReadI64(&wide));
  if (wide < INT16_MIN || wide > INT16_MAX) return Fail("i16 out of range");
  *v = static_cast<int16_t>(wide);
  return Status::OK();
}

Status CompactReader::ReadByte(int8_t* v) {
  if (pos_ >= size_) return Fail("truncated byte");
  *v = static_cast<int8_t>(data_[pos_++]);
  return Status::OK();
}

Status CompactReader::ReadListBool(bool* v) {
  int8_t b = 0;
  ST_TRY(ReadByte(&b));
  *v = b == static_cast<int8_t>(ThriftType::kBoolTrue);
  return Status::OK();
}

Status CompactReader::ReadBinary(std::string_view* v) {
  uint64_t len = 0;
  ST_TRY(ReadVarint(&len));
  if (len > remaining()) {
    return Fail("binary of " + std::to_string(len) + " bytes with " + std::to_string(remaining()) +
                " left");
  }
  *v = std::string_view(reinterpret_cast<const char*>(data_ + pos_), len);
  pos_ += len;
  return Status::OK();
}

Status CompactReader::ReadListHeader(ThriftType* element_type, int32_t* size) {
  if (pos_ >= size_) return Fail("truncated list header");
  const uint8_t b = data_[pos_++];
  const uint8_t t = b & 0x0F;
  if (t < 1 || t > 12) return Fail("unknown list element type " + std::to_string(t));
  *element_type = static_cast<ThriftType>(t);
  uint64_t n = b >> 4;
  if (n == 15) ST_TRY(ReadVarint(&n));
  if (n > remaining()) {
    return Fail("list of " + std::to_string(n) + " elements with " + std::to_string(remaining()) +
                " bytes left");
  }
  *size = static_cast<int32_t>(n);
  return Status::OK();
}

Status CompactReader::ExpectType(ThriftType got, ThriftType want, int16_t id) {
  const bool both_bool = (got == ThriftType::kBoolTrue || got == ThriftType::kBoolFalse) &&
                         (want == ThriftType::kBoolTrue || want == ThriftType::kBoolFalse);
  if (got == want || both_bool) return Status::OK();
  return Fail("field " + std::to_string(id) + " has type " + std::to_string(static_cast<int>(got)) +
              ", expected " + std::to_string(static_cast<int>(want)));
}

Status CompactReader::Skip(ThriftType type) { return SkipDepth(type, 0); }

Status CompactReader::SkipDepth(ThriftType type, int depth) {
  if (depth > kMaxDepth) return Fail("values nested too deeply");
  uint64_t scratch = 0;
  switch (type) {
    case ThriftType::kBoolTrue:
    case ThriftType::kBoolFalse:
      return Status::OK();  // A field's bool lives in its header; list bools use SkipListBool.
    case ThriftType::kByte: {
      int8_t b = 0;
      return ReadByte(&b);
    }
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64:
      return ReadVarint(&scratch);
    case ThriftType::kDouble:
      if (remaining() < 8) return Fail("truncated double");
      pos_ += 8;
      return Status::OK();
    case ThriftType::kBinary: {
      std::string_view v;
      return ReadBinary(&v);
    }
    case ThriftType::kList:
    case ThriftType::kSet: {
      ThriftType et{};
      int32_t n = 0;
      ST_TRY(ReadListHeader(&et, &n));
      for (int32_t i = 0; i < n; ++i) {
        if (et == ThriftType::kBoolTrue || et == ThriftType::kBoolFalse) {
          bool b = false;
          ST_TRY(ReadListBool(&b));
        } else {
          ST_TRY(SkipDepth(et, depth + 1));
        }
      }
      return Status::OK();
    }
    case ThriftType::kMap: {
      ST_TRY(ReadVarint(&scratch));
      if (scratch == 0) return Status::OK();
      if (scratch > remaining()) return Fail("map larger than the bytes left");
      int8_t kv = 0;
      ST_TRY(ReadByte(&kv));
      const auto kt = static_cast<ThriftType>((static_cast<uint8_t>(kv) >> 4) & 0x0F);
      const auto vt = static_cast<ThriftType>(static_cast<uint8_t>(kv) & 0x0F);
      for (uint64_t i = 0; i < scratch; ++i) {
        for (ThriftType t : {kt, vt}) {
          if (t == ThriftType::kBoolTrue || t == ThriftType::kBoolFalse) {
            bool b = false;
            ST_TRY(ReadListBool(&b));
          } else if (static_cast<uint8_t>(t) < 1 || static_cast<uint8_t>(t) > 12) {
            return Fail("unknown map element type");
          } else {
            ST_TRY(SkipDepth(t, depth + 1));
          }
        }
      }
      return Status::OK();
    }
    case ThriftType::kStruct: {
      ST_TRY(BeginStruct());
      while (true) {
        int16_t id = 0;
        ThriftType ft{};
        bool done = false;
        ST_TRY(NextField(&id, &ft, &done));
        if (done) return Status::OK();
        ST_TRY(SkipDepth(ft, depth + 1));
      }
    }
  }
  return Fail("unknown type");
}

}  // namespace st::parquet::internal
