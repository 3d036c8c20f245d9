// A minimal Thrift compact-protocol writer, enough for Parquet's FileMetaData
// and PageHeader: structs, i32/i64/bool/binary fields, lists of i32, binary
// and structs. Field ids must increase within a struct (Parquet's do).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace st::parquet::internal {

enum class ThriftType : uint8_t {
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

class CompactWriter {
 public:
  // Appends to *out, which must outlive the writer. Starts inside the
  // outermost struct; call Finish() once to write its stop byte.
  explicit CompactWriter(std::string* out) : out_(out) { last_field_id_.push_back(0); }

  void FieldI16(int16_t id, int16_t v);
  void FieldI32(int16_t id, int32_t v);
  void FieldI64(int16_t id, int64_t v);
  void FieldBool(int16_t id, bool v);
  void FieldBinary(int16_t id, std::string_view v);
  // Opens a struct-typed field; close it with EndStruct().
  void BeginStructField(int16_t id);
  void EndStruct();
  // Opens a list field of `size` elements; then write exactly `size` List* calls.
  void BeginListField(int16_t id, ThriftType element_type, int32_t size);
  void ListI32(int32_t v) { WriteVarint(ZigZag32(v)); }
  void ListBinary(std::string_view v);
  // Opens a struct element inside a list; close it with EndStruct().
  void BeginListStruct() { last_field_id_.push_back(0); }
  void Finish() { EndStruct(); }

  static uint32_t ZigZag32(int32_t v) {
    return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
  }
  static uint64_t ZigZag64(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  }

 private:
  void FieldHeader(int16_t id, ThriftType type);
  void WriteVarint(uint64_t v);

  std::string* out_;
  std::vector<int16_t> last_field_id_;
};

}  // namespace st::parquet::internal
