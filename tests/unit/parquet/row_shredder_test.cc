#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <vector>

#include "parquet/row_shredder_internal.h"

namespace st::parquet::internal {
namespace {

using R = Repetition;
using L = std::vector<uint16_t>;

struct Harness {
  explicit Harness(std::vector<Node> fields) : schema(*Schema::Make(std::move(fields))) {
    compressor = *Compressor::Make(Codec::kUncompressed, 0);
    for (const auto& c : schema.columns()) columns.emplace_back(c, options, compressor.get());
    shredder = std::make_unique<RowShredder>(schema);
  }
  Status Write(const Value& row) {
    ST_TRY(shredder->Validate(row));
    shredder->Shred(row, columns.data());
    return Status::OK();
  }
  Schema schema;
  WriterOptions options;
  std::unique_ptr<Compressor> compressor;
  std::vector<ColumnWriter> columns;
  std::unique_ptr<RowShredder> shredder;
};

Value Row(std::vector<Value> fields) { return Value::MakeStruct(std::move(fields)); }
Value S(const char* s) { return Value::String(s); }

TEST(RowShredderTest, OptionalListOfOptionalStrings) {
  Harness h({Node::List("tags", R::kOptional, 1, Node::String("e", R::kOptional, 2))});
  ASSERT_TRUE(h.Write(Row({Value::Null()})).ok());
  ASSERT_TRUE(h.Write(Row({Value::MakeList({})})).ok());
  ASSERT_TRUE(h.Write(Row({Value::MakeList({Value::Null()})})).ok());
  ASSERT_TRUE(h.Write(Row({Value::MakeList({S("a"), S("b")})})).ok());
  EXPECT_EQ(h.columns[0].page_def_levels(), (L{0, 1, 2, 3, 3}));
  EXPECT_EQ(h.columns[0].page_rep_levels(), (L{0, 0, 0, 0, 1}));
  EXPECT_EQ(h.columns[0].chunk_rows(), 4);
}

TEST(RowShredderTest, MapOfStringToListOfLongs) {
  Harness h({Node::Map("m", R::kOptional, 1, Node::String("k", R::kRequired, 2),
                       Node::List("v", R::kOptional, 3, Node::Int64("e", R::kOptional, 4)))});
  ASSERT_TRUE(
      h.Write(Row({Value::MakeMap({{S("a"), Value::Null()},
                                   {S("b"), Value::MakeList({})},
                                   {S("c"), Value::MakeList({Value::Null(), Value::Int64(7)})}})}))
          .ok());
  ASSERT_TRUE(h.Write(Row({Value::MakeMap({})})).ok());
  ASSERT_TRUE(h.Write(Row({Value::Null()})).ok());
  EXPECT_EQ(h.columns[0].page_def_levels(), (L{2, 2, 2, 1, 0}));
  EXPECT_EQ(h.columns[0].page_rep_levels(), (L{0, 1, 1, 0, 0}));
  EXPECT_EQ(h.columns[1].page_def_levels(), (L{2, 3, 4, 5, 1, 0}));
  EXPECT_EQ(h.columns[1].page_rep_levels(), (L{0, 1, 1, 2, 0, 0}));
}

TEST(RowShredderTest, ListOfStructsAndNestedStructNulls) {
  Harness h({Node::List(
      "p", R::kRequired, 1,
      Node::Struct("e", R::kOptional, 2,
                   {Node::Int32("x", R::kRequired, 3),
                    Node::Struct("i", R::kOptional, 4, {Node::Int32("a", R::kOptional, 5)})}))});
  auto elem = [](int x, Value inner) {
    return Value::MakeStruct({Value::Int32(x), std::move(inner)});
  };
  ASSERT_TRUE(h.Write(Row({Value::MakeList({elem(1, Value::Null()), Value::Null(),
                                            elem(2, Value::MakeStruct({Value::Null()})),
                                            elem(3, Value::MakeStruct({Value::Int32(9)}))})}))
                  .ok());
  ASSERT_TRUE(h.Write(Row({Value::MakeList({})})).ok());
  // x: max_def 2 (list 1, element 2); a: max_def 4.
  EXPECT_EQ(h.columns[0].page_def_levels(), (L{2, 1, 2, 2, 0}));
  EXPECT_EQ(h.columns[1].page_def_levels(), (L{2, 1, 3, 4, 0}));
  EXPECT_EQ(h.columns[1].page_rep_levels(), (L{0, 1, 1, 1, 0}));
}

TEST(RowShredderTest, ValidationNamesTheColumnAndWritesNothing) {
  Harness h({Node::Int32("a", R::kRequired, 1),
             Node::Struct("s", R::kOptional, 2,
                          {Node::List("l", R::kOptional, 3, Node::Int64("e", R::kRequired, 4))})});
  Status s =
      h.Write(Row({Value::Int32(1), Value::MakeStruct({Value::MakeList({Value::Int32(2)})})}));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("s.l.list.element"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Int64"), std::string::npos);
  EXPECT_EQ(h.columns[0].chunk_rows(), 0);

  s = h.Write(Row({Value::Null(), Value::Null()}));
  EXPECT_NE(s.message().find("'a': null for a required field"), std::string::npos) << s.message();
  s = h.Write(Row({Value::Int32(1), Value::MakeStruct({Value::MakeList({Value::Null()})})}));
  EXPECT_NE(s.message().find("required"), std::string::npos);
  s = h.Write(Row({Value::Int32(1)}));
  EXPECT_NE(s.message().find("1 fields"), std::string::npos);
  s = h.Write(Value::Int32(1));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

TEST(RowShredderTest, DecimalRangeAndFixedLength) {
  Harness h({Node::Decimal("d", R::kOptional, 1, 9, 2), Node::Uuid("u", R::kOptional, 2)});
  EXPECT_TRUE(h.Write(Row({Value::Decimal(999999999), Value::Binary(std::string(16, 'x'))})).ok());
  EXPECT_EQ(h.Write(Row({Value::Decimal(1000000000), Value::Null()})).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(h.Write(Row({Value::Null(), Value::Binary("short")})).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace st::parquet::internal
