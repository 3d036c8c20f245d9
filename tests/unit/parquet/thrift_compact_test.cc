#include <gtest/gtest.h>

#include <string>

#include "parquet/thrift_compact_internal.h"

namespace st::parquet::internal {
namespace {

std::string Bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

TEST(ThriftCompactTest, ShortFieldHeadersAndZigZag) {
  std::string out;
  CompactWriter w(&out);
  w.FieldI32(1, 5);    // delta 1, type i32 (5); zigzag(5) = 10
  w.FieldI32(2, -1);   // zigzag(-1) = 1
  w.FieldI64(4, 300);  // zigzag(300) = 600 = 0xD8 0x04
  w.Finish();
  EXPECT_EQ(out, Bytes({0x15, 0x0A, 0x15, 0x01, 0x26, 0xD8, 0x04, 0x00}));
}

TEST(ThriftCompactTest, LongFieldHeaderWhenDeltaOver15) {
  std::string out;
  CompactWriter w(&out);
  w.FieldI32(1, 0);
  w.FieldI32(20, 1);  // delta 19: type byte then zigzag varint id (40)
  w.Finish();
  EXPECT_EQ(out, Bytes({0x15, 0x00, 0x05, 0x28, 0x02, 0x00}));
}

TEST(ThriftCompactTest, BoolBinaryStructAndLists) {
  std::string out;
  CompactWriter w(&out);
  w.FieldBool(1, true);
  w.FieldBool(2, false);
  w.FieldBinary(3, "ab");
  w.BeginStructField(4);
  w.FieldI16(1, 7);
  w.EndStruct();
  w.BeginListField(5, ThriftType::kI32, 2);
  w.ListI32(1);
  w.ListI32(-2);
  w.BeginListField(6, ThriftType::kBinary, 15);  // 15+ elements: long list header
  for (int i = 0; i < 15; ++i) w.ListBinary("");
  w.Finish();
  std::string want = Bytes({0x11, 0x12, 0x18, 0x02, 'a', 'b', 0x1C, 0x14, 0x0E, 0x00, 0x19, 0x25,
                            0x02, 0x03, 0x19, 0xF8, 0x0F});
  want += std::string(15, '\0');
  want += Bytes({0x00});
  EXPECT_EQ(out, want);
}

TEST(ThriftCompactTest, NestedStructsResetFieldIds) {
  std::string out;
  CompactWriter w(&out);
  w.FieldI32(5, 1);
  w.BeginStructField(6);
  w.FieldI32(1, 1);  // delta from 0 inside the nested struct
  w.EndStruct();
  w.FieldI32(7, 1);  // delta from 6 outside
  w.Finish();
  EXPECT_EQ(out, Bytes({0x55, 0x02, 0x1C, 0x15, 0x02, 0x00, 0x15, 0x02, 0x00}));
}

}  // namespace
}  // namespace st::parquet::internal
