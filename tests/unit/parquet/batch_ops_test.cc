// Row spans, TakeRows and AppendBatch: flat, optional, list, map and struct
// columns permuted and concatenated across files, written back through the
// batch API and compared row by row with the rows the files were made of.
#include "parquet/batch_ops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/output_stream.h"
#include "parquet/file_writer.h"

namespace st::parquet {
namespace {

using R = Repetition;

Schema NestedSchema() {
  return *Schema::Make({
      Node::Int64("id", R::kRequired, 1),
      Node::String("s", R::kOptional, 2),
      Node::Struct("st", R::kOptional, 3,
                   {Node::Int32("x", R::kRequired, 4), Node::String("y", R::kOptional, 5)}),
      Node::List("tags", R::kOptional, 6, Node::String("element", R::kOptional, 7)),
      Node::Map("attrs", R::kOptional, 8, Node::String("key", R::kRequired, 9),
                Node::Double("value", R::kOptional, 10)),
      Node::List("nested", R::kRequired, 11,
                 Node::List("element", R::kOptional, 12, Node::Int32("element", R::kRequired, 13))),
      Node::Boolean("b", R::kOptional, 14),
  });
}

Value Maybe(bool present, Value v) { return present ? std::move(v) : Value::Null(); }

Value Row(int i) {
  Value::List tags;
  for (int k = 0; k < i % 4; ++k) {
    tags.push_back(k == 1 ? Value::Null() : Value::String("t" + std::to_string(i + k)));
  }
  Value::Map attrs;
  for (int k = 0; k < i % 3; ++k) {
    attrs.emplace_back(Value::String("k" + std::to_string(k)),
                       Maybe(k != 1, Value::Double(i * 0.5 + k)));
  }
  Value::List nested;
  for (int k = 0; k < i % 3; ++k) {
    Value::List inner;
    for (int j = 0; j < (i + k) % 4; ++j) inner.push_back(Value::Int32(i * 10 + j));
    nested.push_back(Maybe(k != 1 || i % 2 != 0, Value::MakeList(std::move(inner))));
  }
  return Value::MakeStruct({
      Value::Int64(i),
      Maybe(i % 3 != 0, Value::String("s" + std::to_string(i % 17))),
      Maybe(i % 5 != 0, Value::MakeStruct({Value::Int32(i * 2),
                                           Maybe(i % 2 == 0, Value::String(std::to_string(i)))})),
      Maybe(i % 7 != 0, Value::MakeList(std::move(tags))),
      Maybe(i % 4 != 0, Value::MakeMap(std::move(attrs))),
      Value::MakeList(std::move(nested)),
      Maybe(i % 6 != 0, Value::Bool(i % 2 == 0)),
  });
}

std::string WriteRows(const std::vector<Value>& rows, int64_t row_group_bytes = 1 << 20) {
  MemoryOutputStream sink;
  WriterOptions options;
  options.row_group_size_bytes = row_group_bytes;
  options.page_row_limit = 64;  // Pages, and so row groups, fill by rows too.
  auto w = FileWriter::Make(NestedSchema(), options, &sink);
  EXPECT_TRUE(w.has_value());
  for (const Value& row : rows) EXPECT_TRUE((*w)->WriteRow(row).ok());
  EXPECT_TRUE((*w)->Close().has_value());
  return sink.Release();
}

std::vector<Value> RowRange(int begin, int end) {
  std::vector<Value> rows;
  for (int i = begin; i < end; ++i) rows.push_back(Row(i));
  return rows;
}

std::vector<Value> ReadAll(const std::string& bytes) {
  auto reader = FileReader::Open(bytes);
  EXPECT_TRUE(reader.has_value());
  std::vector<Value> rows;
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto part = (*reader)->ReadRows(g);
    EXPECT_TRUE(part.has_value()) << part.error().ToString();
    for (Value& v : *part) rows.push_back(std::move(v));
  }
  return rows;
}

// Every column chunk of a file's first row group.
std::vector<ColumnBatch> ReadGroup(const FileReader& reader, int group) {
  std::vector<ColumnBatch> batches;
  for (int c = 0; c < reader.schema().num_columns(); ++c) {
    auto batch = reader.ReadColumn(group, c);
    EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
    batches.push_back(*std::move(batch));
  }
  return batches;
}

TEST(BatchOpsTest, RowSpansOfFlatOptionalAndRepeatedColumns) {
  const std::string file = WriteRows(RowRange(0, 12));
  auto reader = *FileReader::Open(file);
  const auto& columns = reader->schema().columns();
  std::vector<ColumnBatch> batches = ReadGroup(*reader, 0);

  // Required flat: one value per row, no levels.
  auto id = ComputeRowSpans(batches[0], columns[0].max_def_level);
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->num_rows(), 12);
  EXPECT_EQ(id->level_starts[5], 5);
  EXPECT_EQ(id->value_starts[5], 5);

  // Optional flat: one level per row; values skip the nulls (rows 0, 3, 6, 9).
  auto s = ComputeRowSpans(batches[1], columns[1].max_def_level);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->level_starts[4], 4);
  EXPECT_EQ(s->value_starts[4], 2);
  EXPECT_EQ(s->value_starts[12], 8);

  // tags.list.element: row i holds max(1, i % 4) entries unless the list is
  // null (i % 7 == 0), which is one entry.
  auto tags = ComputeRowSpans(batches[4], columns[4].max_def_level);
  ASSERT_TRUE(tags.has_value());
  ASSERT_EQ(tags->num_rows(), 12);
  for (int i = 0; i < 12; ++i) {
    const int64_t entries = tags->level_starts[i + 1] - tags->level_starts[i];
    EXPECT_EQ(entries, i % 7 == 0 ? 1 : std::max(1, i % 4)) << "row " << i;
  }
}

TEST(BatchOpsTest, RowSpansRejectLevelsThatStartInsideARow) {
  ColumnBatch batch;
  batch.physical_type = PhysicalType::kInt32;
  batch.num_levels = 2;
  batch.num_rows = 1;
  batch.def_levels = {1, 1};
  batch.rep_levels = {1, 0};
  batch.int32s = {1, 2};
  auto spans = ComputeRowSpans(batch, 1);
  ASSERT_FALSE(spans.has_value());
  EXPECT_EQ(spans.error().code(), StatusCode::kCorruption);

  batch.rep_levels = {0, 1};
  batch.int32s = {1};  // One value for two entries at max def level.
  EXPECT_EQ(ComputeRowSpans(batch, 1).error().code(), StatusCode::kCorruption);
}

TEST(BatchOpsTest, TakeRowsPermutesEveryColumnAcrossTwoFiles) {
  const std::vector<Value> first = RowRange(0, 150);
  const std::vector<Value> second = RowRange(150, 230);
  const std::string a = WriteRows(first);
  const std::string b = WriteRows(second);
  auto ra = *FileReader::Open(a);
  auto rb = *FileReader::Open(b);
  std::vector<ColumnBatch> ga = ReadGroup(*ra, 0);
  std::vector<ColumnBatch> gb = ReadGroup(*rb, 0);
  const Schema schema = NestedSchema();

  // A shuffled order over both files, with one row taken twice.
  std::vector<RowRef> order;
  for (int i = 0; i < 150; ++i) order.push_back({0, i});
  for (int i = 0; i < 80; ++i) order.push_back({1, i});
  std::mt19937 rng(7);
  std::shuffle(order.begin(), order.end(), rng);
  order.push_back(order.front());

  std::vector<Value> expected;
  for (const RowRef& ref : order)
    expected.push_back(ref.source == 0 ? first[ref.row] : second[ref.row]);

  MemoryOutputStream sink;
  auto w = *FileWriter::Make(schema, {}, &sink);
  for (int c = 0; c < schema.num_columns(); ++c) {
    const int16_t max_def = schema.columns()[c].max_def_level;
    auto sa = ComputeRowSpans(ga[c], max_def);
    auto sb = ComputeRowSpans(gb[c], max_def);
    ASSERT_TRUE(sa.has_value() && sb.has_value());
    auto taken = TakeRows({&ga[c], &gb[c]}, {&*sa, &*sb}, order, max_def);
    ASSERT_TRUE(taken.has_value()) << taken.error().ToString();
    EXPECT_EQ(taken->num_rows, static_cast<int64_t>(order.size()));
    EXPECT_TRUE(taken->storage.empty());  // Views into ga/gb, which outlive it.
    ASSERT_TRUE(WriteColumnBatch(w.get(), *taken).ok());
  }
  ASSERT_TRUE(w->EndRows(static_cast<int64_t>(order.size())).ok());
  ASSERT_TRUE(w->Close().has_value());
  EXPECT_EQ(ReadAll(sink.buffer()), expected);
}

TEST(BatchOpsTest, TakeRowsOfOneBatchByIndexAndOutOfRange) {
  const std::vector<Value> rows = RowRange(0, 40);
  const std::string file = WriteRows(rows);
  auto reader = *FileReader::Open(file);
  std::vector<ColumnBatch> group = ReadGroup(*reader, 0);
  const Schema schema = NestedSchema();
  std::vector<int64_t> pick = {39, 0, 7, 7, 21};

  MemoryOutputStream sink;
  auto w = *FileWriter::Make(schema, {}, &sink);
  for (int c = 0; c < schema.num_columns(); ++c) {
    const int16_t max_def = schema.columns()[c].max_def_level;
    auto spans = *ComputeRowSpans(group[c], max_def);
    auto taken = TakeRows(group[c], spans, pick, max_def);
    ASSERT_TRUE(taken.has_value());
    ASSERT_TRUE(WriteColumnBatch(w.get(), *taken).ok());
    EXPECT_EQ(TakeRows(group[c], spans, {40}, max_def).error().code(),
              StatusCode::kInvalidArgument);
  }
  ASSERT_TRUE(w->EndRows(5).ok());
  ASSERT_TRUE(w->Close().has_value());
  std::vector<Value> expected;
  for (int64_t i : pick) expected.push_back(rows[i]);
  EXPECT_EQ(ReadAll(sink.buffer()), expected);
}

TEST(BatchOpsTest, AppendBatchConcatenatesRowGroupsOfSeveralFiles) {
  // Small row groups so one file gives several chunks to append.
  const std::vector<Value> first = RowRange(0, 300);
  const std::vector<Value> second = RowRange(300, 420);
  std::vector<std::string> files = {WriteRows(first, 1 << 10), WriteRows(second, 1 << 10)};
  const Schema schema = NestedSchema();
  std::vector<ColumnBatch> merged(schema.num_columns());
  int64_t rows = 0;
  int chunks = 0;
  for (const std::string& file : files) {
    auto reader = *FileReader::Open(file);
    for (int g = 0; g < reader->num_row_groups(); ++g, ++chunks) {
      rows += reader->metadata().row_groups[g].num_rows;
      for (int c = 0; c < schema.num_columns(); ++c) {
        auto batch = reader->ReadColumn(g, c);
        ASSERT_TRUE(batch.has_value());
        ASSERT_TRUE(
            AppendBatch(&merged[c], *std::move(batch), schema.columns()[c].max_def_level).ok());
      }
    }
  }
  EXPECT_GT(chunks, 2);
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(schema, {}, &sink);
  for (const ColumnBatch& batch : merged) {
    EXPECT_EQ(batch.num_rows, rows);
    ASSERT_TRUE(ComputeRowSpans(batch, schema.columns()[batch.column].max_def_level).has_value());
    ASSERT_TRUE(WriteColumnBatch(w.get(), batch).ok());
  }
  ASSERT_TRUE(w->EndRows(rows).ok());
  ASSERT_TRUE(w->Close().has_value());
  std::vector<Value> expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  EXPECT_EQ(ReadAll(sink.buffer()), expected);

  ColumnBatch other;
  other.column = 1;
  other.physical_type = PhysicalType::kBoolean;
  EXPECT_EQ(AppendBatch(&merged[0], std::move(other), 0).code(), StatusCode::kInvalidArgument);
}

TEST(BatchOpsTest, MixedLevelPresenceIsMaterialised) {
  // An optional column without def levels (every entry a value) mixed with
  // one that has them, as the batch API allows.
  ColumnBatch plain;
  plain.physical_type = PhysicalType::kInt64;
  plain.num_levels = 2;
  plain.num_rows = 2;
  plain.int64s = {5, 6};
  ColumnBatch with_nulls;
  with_nulls.physical_type = PhysicalType::kInt64;
  with_nulls.num_levels = 2;
  with_nulls.num_rows = 2;
  with_nulls.def_levels = {0, 1};
  with_nulls.int64s = {7};
  auto sp = *ComputeRowSpans(plain, 1);
  auto sn = *ComputeRowSpans(with_nulls, 1);
  auto taken = TakeRows({&plain, &with_nulls}, {&sp, &sn}, {{1, 0}, {0, 1}, {1, 1}}, 1);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->def_levels, (std::vector<int16_t>{0, 1, 1}));
  EXPECT_EQ(taken->int64s, (std::vector<int64_t>{6, 7}));

  ASSERT_TRUE(AppendBatch(&plain, std::move(with_nulls), 1).ok());
  EXPECT_EQ(plain.def_levels, (std::vector<int16_t>{1, 1, 0, 1}));
  EXPECT_EQ(plain.int64s, (std::vector<int64_t>{5, 6, 7}));
  EXPECT_EQ(plain.num_rows, 4);
}

}  // namespace
}  // namespace st::parquet
