// A bounded Thrift compact-protocol reader for Parquet's FileMetaData and
// PageHeader. Every read checks the remaining bytes; lengths and list sizes
// are bounded by them before anything is allocated, and nesting is capped,
// so hostile input yields Corruption, never a crash or a huge allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "parquet/thrift_compact_internal.h"

namespace st::parquet::internal {

class CompactReader {
 public:
  // Reads data[0..size), which must outlive the reader. `what` names the
  // structure in error messages ("parquet footer", "parquet page header").
  CompactReader(const uint8_t* data, size_t size, std::string what)
      : data_(data), size_(size), what_(std::move(what)) {}

  // Enters a struct (the outermost one too): field ids restart at 0.
  Status BeginStruct();
  // The next field of the current struct; *done is set at its stop byte,
  // which also leaves the struct. For a bool field the value is in *type
  // (kBoolTrue / kBoolFalse) and nothing more is to be read.
  Status NextField(int16_t* id, ThriftType* type, bool* done);

  Status ReadI32(int32_t* v);
  Status ReadI64(int64_t* v);
  Status ReadI16(int16_t* v);
  Status ReadByte(int8_t* v);
  // A list element or a bool field's value: true for kBoolTrue.
  Status ReadListBool(bool* v);
  // A view into the input (valid while the input is).
  Status ReadBinary(std::string_view* v);
  // A list or set header; *size is at most the bytes left (every element
  // takes at least one byte).
  Status ReadListHeader(ThriftType* element_type, int32_t* size);
  // Skips a value of `type` (a field's or a list element's).
  Status Skip(ThriftType type);
  // Skips a field and checks the type matched what the caller expected.
  Status ExpectType(ThriftType got, ThriftType want, int16_t id);

  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

 private:
  Status ReadVarint(uint64_t* v);
  Status Fail(const std::string& why) const;
  Status SkipDepth(ThriftType type, int depth);

  static constexpr int kMaxDepth = 64;

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::string what_;
  std::vector<int16_t> last_field_id_;
};

// Struct-walking helpers over CompactReader for the parsers of
// parquet.thrift structures.

// Calls on_field(id, type) for every field of the struct the reader is at;
// on_field consumes the value (or Skips it).
template <typename F>
Status ReadStruct(CompactReader* r, F&& on_field) {
  ST_TRY(r->BeginStruct());
  while (true) {
    int16_t id = 0;
    ThriftType type{};
    bool done = false;
    ST_TRY(r->NextField(&id, &type, &done));
    if (done) return Status::OK();
    ST_TRY(on_field(id, type));
  }
}

// Calls on_element() `size` times for a list of `want` elements.
template <typename F>
Status ReadList(CompactReader* r, ThriftType field_type, int16_t id, ThriftType want,
                F&& on_element) {
  ST_TRY(r->ExpectType(field_type, ThriftType::kList, id));
  ThriftType et{};
  int32_t n = 0;
  ST_TRY(r->ReadListHeader(&et, &n));
  ST_TRY(r->ExpectType(et, want, id));
  for (int32_t i = 0; i < n; ++i) ST_TRY(on_element(i, n));
  return Status::OK();
}

// One field of the expected type (Corruption otherwise).
inline Status ReadI32Field(CompactReader* r, ThriftType t, int16_t id, int32_t* v) {
  ST_TRY(r->ExpectType(t, ThriftType::kI32, id));
  return r->ReadI32(v);
}
inline Status ReadI64Field(CompactReader* r, ThriftType t, int16_t id, int64_t* v) {
  ST_TRY(r->ExpectType(t, ThriftType::kI64, id));
  return r->ReadI64(v);
}
inline Status ReadStringField(CompactReader* r, ThriftType t, int16_t id, std::string* v) {
  ST_TRY(r->ExpectType(t, ThriftType::kBinary, id));
  std::string_view view;
  ST_TRY(r->ReadBinary(&view));
  v->assign(view);
  return Status::OK();
}

}  // namespace st::parquet::internal
