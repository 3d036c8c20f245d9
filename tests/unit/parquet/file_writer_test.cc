#include "parquet/file_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace st::parquet {
namespace {

using R = Repetition;

Schema TestSchema() {
  return *Schema::Make({
      Node::Int32("i", R::kRequired, 1),
      Node::Double("d", R::kOptional, 2),
      Node::List("l", R::kOptional, 3, Node::String("element", R::kOptional, 4)),
      Node::Decimal("dec", R::kOptional, 5, 38, 2),
  });
}

Value Row(int32_t i, Value d, Value l, Value dec) {
  return Value::MakeStruct({Value::Int32(i), std::move(d), std::move(l), std::move(dec)});
}

class FailingStream final : public OutputStream {
 public:
  using OutputStream::Write;
  explicit FailingStream(int64_t fail_after) : fail_after_(fail_after) {}
  Status Write(const void*, size_t size) override {
    if (position_ + static_cast<int64_t>(size) > fail_after_) return IoError("disk full");
    position_ += static_cast<int64_t>(size);
    return Status::OK();
  }
  int64_t Position() const override { return position_; }

 private:
  int64_t fail_after_;
  int64_t position_ = 0;
};

TEST(FileWriterTest, FileLayoutAndSummary) {
  MemoryOutputStream sink;
  WriterOptions options;
  options.row_group_size_bytes = 1;  // A row group per row.
  auto w = *FileWriter::Make(TestSchema(), options, &sink);
  ASSERT_TRUE(
      w->WriteRow(Row(5, Value::Double(std::nan("")),
                      Value::MakeList({Value::String("b"), Value::Null()}), Value::Decimal(-12345)))
          .ok());
  ASSERT_TRUE(w->WriteRow(Row(-3, Value::Double(2.5), Value::MakeList({}), Value::Null())).ok());
  ASSERT_TRUE(w->WriteRow(Row(9, Value::Null(), Value::Null(), Value::Decimal(7))).ok());
  auto summary = w->Close();
  ASSERT_TRUE(summary.has_value()) << summary.error().ToString();
  const std::string& file = sink.buffer();
  EXPECT_EQ(file.substr(0, 4), "PAR1");
  EXPECT_EQ(file.substr(file.size() - 4), "PAR1");
  uint32_t footer_len;
  std::memcpy(&footer_len, file.data() + file.size() - 8, 4);
  EXPECT_LT(footer_len, file.size());
  EXPECT_EQ(summary->row_count, 3);
  EXPECT_EQ(summary->file_size_bytes, static_cast<int64_t>(file.size()));
  ASSERT_EQ(summary->row_group_offsets.size(), 3u);
  EXPECT_EQ(summary->row_group_offsets[0], 4);

  const ColumnSummary& i = summary->columns[0];
  int32_t v;
  std::memcpy(&v, i.min_value->data(), 4);
  EXPECT_EQ(v, -3);
  std::memcpy(&v, i.max_value->data(), 4);
  EXPECT_EQ(v, 9);
  const ColumnSummary& d = summary->columns[1];
  EXPECT_EQ(d.nan_count, 1);
  EXPECT_EQ(d.null_count, 1);
  EXPECT_EQ(d.value_count, 3);
  const ColumnSummary& l = summary->columns[2];
  EXPECT_EQ(l.column.DottedPath(), "l.list.element");
  EXPECT_EQ(l.column.field_id, 4);
  EXPECT_EQ(l.value_count, 4);  // "b", null element, empty list, null list
  EXPECT_EQ(l.null_count, 3);
  EXPECT_EQ(*l.min_value, "b");
  const ColumnSummary& dec = summary->columns[3];
  EXPECT_EQ(dec.min_value->size(), 16u);
  EXPECT_EQ(static_cast<uint8_t>((*dec.min_value)[0]), 0xFF);  // -12345, big-endian
  EXPECT_EQ((*dec.max_value)[15], 7);
  for (const ColumnSummary& c : summary->columns) EXPECT_GT(c.compressed_size_bytes, 0);

  EXPECT_EQ(w->WriteRow(Row(1, Value::Null(), Value::Null(), Value::Null())).code(),
            StatusCode::kFailedPrecondition);
}

TEST(FileWriterTest, BadRowIsRejectedAndWriterStaysUsable) {
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(TestSchema(), {}, &sink);
  Status s = w->WriteRow(Row(1, Value::Float(1), Value::Null(), Value::Null()));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("'d'"), std::string::npos) << s.message();
  s = w->WriteRow(Value::MakeStruct({Value::Null(), Value::Null(), Value::Null(), Value::Null()}));
  EXPECT_NE(s.message().find("required"), std::string::npos);
  EXPECT_TRUE(w->WriteRow(Row(1, Value::Null(), Value::Null(), Value::Null())).ok());
  auto summary = w->Close();
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->row_count, 1);
}

TEST(FileWriterTest, PerLeafApiWritesTheSameBytesAsWriteRow) {
  MemoryOutputStream a, b;
  auto wa = *FileWriter::Make(TestSchema(), {}, &a);
  auto wb = *FileWriter::Make(TestSchema(), {}, &b);
  ASSERT_TRUE(
      wa->WriteRow(Row(1, Value::Double(0.5), Value::MakeList({Value::String("x"), Value::Null()}),
                       Value::Decimal(100)))
          .ok());
  ASSERT_TRUE(wa->WriteRow(Row(2, Value::Null(), Value::MakeList({}), Value::Null())).ok());
  ASSERT_TRUE(wb->WriteInt32(0, 1).ok());
  ASSERT_TRUE(wb->WriteDouble(1, 0.5).ok());
  ASSERT_TRUE(wb->WriteBytes(2, "x").ok());
  ASSERT_TRUE(wb->WriteNull(2, 2, 1).ok());
  ASSERT_TRUE(wb->WriteDecimal(3, 100).ok());
  ASSERT_TRUE(wb->EndRow().ok());
  ASSERT_TRUE(wb->WriteInt32(0, 2).ok());
  ASSERT_TRUE(wb->WriteNull(1, 0).ok());
  ASSERT_TRUE(wb->WriteNull(2, 1).ok());
  ASSERT_TRUE(wb->WriteNull(3, 0).ok());
  ASSERT_TRUE(wb->EndRow().ok());
  ASSERT_TRUE(wa->Close().has_value());
  ASSERT_TRUE(wb->Close().has_value());
  EXPECT_EQ(a.buffer(), b.buffer());
}

TEST(FileWriterTest, PerLeafMisuseFailsTheWriterForGood) {
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(TestSchema(), {}, &sink);
  Status s = w->WriteInt64(0, 1);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(w->WriteInt32(0, 1), s);
  EXPECT_EQ(w->WriteRow(Row(1, Value::Null(), Value::Null(), Value::Null())), s);
  EXPECT_EQ(w->Close().error(), s);

  MemoryOutputStream sink2;
  auto w2 = *FileWriter::Make(TestSchema(), {}, &sink2);
  ASSERT_TRUE(w2->WriteInt32(0, 1).ok());
  EXPECT_EQ(w2->EndRow().code(), StatusCode::kFailedPrecondition);  // columns 1..3 missing

  auto w3 = *FileWriter::Make(TestSchema(), {}, &sink2);
  EXPECT_EQ(w3->WriteNull(0, 0).code(), StatusCode::kInvalidArgument);  // required column
  auto w4 = *FileWriter::Make(TestSchema(), {}, &sink2);
  EXPECT_EQ(w4->WriteBytes(2, "x", 1).code(), StatusCode::kFailedPrecondition);  // no row start
  auto w5 = *FileWriter::Make(TestSchema(), {}, &sink2);
  EXPECT_EQ(
      w5->WriteDecimal(3, Int128(1) * 1000000000000000000LL * 1000000000000000000LL * 100).code(),
      StatusCode::kInvalidArgument);  // 10^38 does not fit decimal(38, 2)
  auto w6 = *FileWriter::Make(TestSchema(), {}, &sink2);
  EXPECT_EQ(w6->WriteInt32(7, 1).code(), StatusCode::kInvalidArgument);
}

TEST(FileWriterTest, SinkErrorsAreSticky) {
  FailingStream sink(100);
  WriterOptions options;
  options.row_group_size_bytes = 1;
  auto w = *FileWriter::Make(TestSchema(), options, &sink);
  Status first;
  for (int i = 0; i < 100 && first.ok(); ++i) {
    first = w->WriteRow(Row(i, Value::Double(i), Value::Null(), Value::Null()));
  }
  EXPECT_EQ(first.code(), StatusCode::kIo);
  EXPECT_EQ(w->WriteRow(Row(1, Value::Null(), Value::Null(), Value::Null())), first);
  EXPECT_EQ(w->Close().error(), first);

  FailingStream no_room(2);
  EXPECT_FALSE(FileWriter::Make(TestSchema(), {}, &no_room).has_value());
}

TEST(FileWriterTest, RejectsBadOptions) {
  MemoryOutputStream sink;
  WriterOptions options;
  options.compression_level = 99;
  EXPECT_EQ(FileWriter::Make(TestSchema(), options, &sink).error().code(),
            StatusCode::kInvalidArgument);
  options = {};
  options.page_size_bytes = 0;
  EXPECT_FALSE(FileWriter::Make(TestSchema(), options, &sink).has_value());
  EXPECT_FALSE(FileWriter::Make(TestSchema(), {}, nullptr).has_value());
}

}  // namespace
}  // namespace st::parquet
