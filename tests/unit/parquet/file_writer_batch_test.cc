// The columnar batch API: same bytes as WriteRow, misuse, and the
// dictionary policy on batches.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "parquet/column_writer_internal.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "value_columnizer.h"

namespace st::parquet {
namespace {

using R = Repetition;

Schema MixedSchema() {
  return *Schema::Make({
      Node::Int32("i", R::kRequired, 1),
      Node::Double("d", R::kOptional, 2),
      Node::List("l", R::kOptional, 3, Node::String("element", R::kOptional, 4)),
      Node::Decimal("dec", R::kOptional, 5, 38, 2),
      Node::Boolean("b", R::kOptional, 6),
      Node::Struct("s", R::kOptional, 7,
                   {Node::Int64("x", R::kRequired, 8), Node::Float("f", R::kOptional, 9)}),
  });
}

Value MixedRow(int i) {
  Value list;
  if (i % 5 != 0) {
    Value::List items;
    for (int k = 0; k < i % 4; ++k) {
      items.push_back(k == 1 ? Value::Null() : Value::String("e" + std::to_string((i + k) % 13)));
    }
    list = Value::MakeList(std::move(items));
  }
  Value s;
  if (i % 7 != 0) {
    s = Value::MakeStruct({Value::Int64(i % 100),
                           i % 3 == 0 ? Value::Null() : Value::Float(static_cast<float>(i % 9))});
  }
  return Value::MakeStruct({Value::Int32(i % 50),
                            i % 11 == 0 ? Value::Null() : Value::Double(i % 17), std::move(list),
                            i % 6 == 0 ? Value::Null() : Value::Decimal(i % 23 - 11),
                            i % 4 == 0 ? Value::Null() : Value::Bool(i % 3 == 0), std::move(s)});
}

TEST(FileWriterBatchTest, BatchesWriteTheSameBytesAsWriteRow) {
  WriterOptions options;
  options.page_row_limit = 700;  // Several pages, not aligned with the batches.
  MemoryOutputStream a, b;
  auto wa = *FileWriter::Make(MixedSchema(), options, &a);
  auto wb = *FileWriter::Make(MixedSchema(), options, &b);
  testing::ValueColumnizer columnizer(wb->schema());
  for (int i = 0; i < 3000; ++i) {
    ASSERT_TRUE(wa->WriteRow(MixedRow(i)).ok());
    columnizer.Add(MixedRow(i));
    if (i % 333 == 332) {
      ASSERT_TRUE(columnizer.WriteTo(wb.get()).ok());
    }
  }
  ASSERT_TRUE(columnizer.WriteTo(wb.get()).ok());
  auto sa = wa->Close();
  auto sb = wb->Close();
  ASSERT_TRUE(sa.has_value() && sb.has_value());
  EXPECT_EQ(sb->row_count, 3000);
  EXPECT_EQ(a.buffer(), b.buffer());
}

TEST(FileWriterBatchTest, MisuseFailsTheWriterForGood) {
  MemoryOutputStream sink;
  const int16_t def_bad[] = {0, 3};
  const int32_t ints[] = {1, 2};
  auto w = *FileWriter::Make(MixedSchema(), {}, &sink);
  Status s = w->WriteInt64Batch(0, nullptr, 0);  // Column 0 is INT32.
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(w->WriteInt32Batch(0, ints, 2), s);
  EXPECT_EQ(w->EndRows(0), s);

  auto w2 = *FileWriter::Make(MixedSchema(), {}, &sink);
  const double d[] = {1.0};
  EXPECT_EQ(w2->WriteDoubleBatch(1, d, 2, def_bad).code(), StatusCode::kInvalidArgument);

  auto w3 = *FileWriter::Make(MixedSchema(), {}, &sink);
  const std::string_view strings[] = {"x"};
  const int16_t def3[] = {3};
  const int16_t rep_bad[] = {1};
  EXPECT_EQ(w3->WriteBytesBatch(2, strings, 1, def3, rep_bad).code(),
            StatusCode::kInvalidArgument);  // A batch must start a row.

  auto w4 = *FileWriter::Make(MixedSchema(), {}, &sink);
  const std::string_view short_fixed[] = {"abc"};
  EXPECT_EQ(w4->WriteBytesBatch(3, short_fixed, 1).code(), StatusCode::kInvalidArgument);

  auto w5 = *FileWriter::Make(MixedSchema(), {}, &sink);
  ASSERT_TRUE(w5->WriteInt32Batch(0, ints, 2).ok());
  EXPECT_EQ(w5->EndRows(2).code(), StatusCode::kFailedPrecondition);  // Other columns missing.
  EXPECT_EQ(w5->Close().error().code(), StatusCode::kFailedPrecondition);
}

TEST(FileWriterBatchTest, NullValuesPointerIsFineWithoutValues) {
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(*Schema::Make({Node::Int64("x", R::kOptional, 1)}), {}, &sink);
  const int16_t nulls[] = {0, 0, 0};
  ASSERT_TRUE(w->WriteInt64Batch(0, nullptr, 3, nulls).ok());
  ASSERT_TRUE(w->EndRows(3).ok());
  auto summary = w->Close();
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->columns[0].null_count, 3);
  EXPECT_FALSE(summary->columns[0].min_value.has_value());
}

// Unique values drop the dictionary once it holds 1/8 of its limit; values
// that repeat keep it.
TEST(FileWriterBatchTest, NearlyUniqueColumnsLeaveTheDictionaryEarly) {
  using internal::ColumnWriter;
  ColumnDescriptor col;
  col.path = {"x"};
  col.physical_type = PhysicalType::kInt64;
  WriterOptions options;
  options.dictionary_page_size_limit = 64000;  // Judged at 1000 entries.
  options.page_row_limit = 500;
  auto compressor = *internal::Compressor::Make(Codec::kUncompressed, 0);

  std::vector<int64_t> unique(3000);
  for (size_t i = 0; i < unique.size(); ++i) unique[i] = static_cast<int64_t>(i) * 7919;
  ColumnWriter u(col, options, compressor.get());
  u.AppendFixedBatch(unique.data(), nullptr, nullptr, static_cast<int64_t>(unique.size()));
  EXPECT_FALSE(u.dictionary_mode());

  // Uniform draws from 1,500 values: about 60% distinct when 1,000 are in.
  std::vector<int64_t> repeating(3000);
  uint64_t state = 12345;
  for (auto& v : repeating) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<int64_t>((state >> 33) % 1500);
  }
  ColumnWriter r(col, options, compressor.get());
  r.AppendFixedBatch(repeating.data(), nullptr, nullptr, static_cast<int64_t>(repeating.size()));
  EXPECT_TRUE(r.dictionary_mode());

  MemoryOutputStream sink;
  auto meta = u.FlushChunk(&sink);
  ASSERT_TRUE(meta.has_value());
  EXPECT_TRUE(meta->dictionary_page_offset.has_value());  // The pages before the drop use it.
  EXPECT_EQ(meta->num_values, 3000);
  ASSERT_TRUE(meta->min_max.has_value());
  int64_t hi;
  std::memcpy(&hi, meta->min_max->second.data(), 8);
  EXPECT_EQ(hi, 2999 * 7919);
}

// Byte values are looked up by address within one batch call (a reader's
// batch of a dictionary chunk repeats the same views): the same address in a
// later call may hold other bytes, and equal bytes at other addresses are
// one dictionary entry; values and statistics come out as written.
TEST(FileWriterBatchTest, ByteViewsAtReusedAddressesAreValuesOfTheirOwnCall) {
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(*Schema::Make({Node::String("s", R::kRequired, 1)}), {}, &sink);
  std::string buffer = "mmmmkkkk";
  std::string copy = "mmmm";  // Equal to the first view, at another address.
  std::vector<std::string> expected;
  std::vector<std::string_view> views;
  for (int i = 0; i < 3000; ++i) {
    views.push_back(i % 7 == 0 ? std::string_view(copy)
                               : std::string_view(buffer).substr(i % 2 ? 4 : 0, 4));
    expected.emplace_back(views.back());
  }
  ASSERT_TRUE(w->WriteBytesBatch(0, views.data(), static_cast<int64_t>(views.size())).ok());
  ASSERT_TRUE(w->EndRows(static_cast<int64_t>(views.size())).ok());
  buffer = "aaaazzzz";  // Same addresses, other bytes.
  for (std::string_view v : views) expected.emplace_back(v.data() == copy.data() ? "mmmm" : v);
  ASSERT_TRUE(w->WriteBytesBatch(0, views.data(), static_cast<int64_t>(views.size())).ok());
  ASSERT_TRUE(w->EndRows(static_cast<int64_t>(views.size())).ok());
  auto summary = w->Close();
  ASSERT_TRUE(summary.has_value()) << summary.error().ToString();
  ASSERT_TRUE(summary->columns[0].min_value.has_value());
  EXPECT_EQ(*summary->columns[0].min_value, "aaaa");
  EXPECT_EQ(*summary->columns[0].max_value, "zzzz");

  auto reader = FileReader::Open(sink.buffer());
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  std::vector<std::string> got;
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto batch = (*reader)->ReadColumn(g, 0);
    ASSERT_TRUE(batch.has_value()) << batch.error().ToString();
    for (std::string_view v : batch->bytes) got.emplace_back(v);
  }
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace st::parquet
