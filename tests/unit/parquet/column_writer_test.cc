#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "parquet/column_writer_internal.h"

namespace st::parquet::internal {
namespace {

ColumnDescriptor StringColumn() {
  ColumnDescriptor c;
  c.path = {"s"};
  c.physical_type = PhysicalType::kByteArray;
  c.logical_type = LogicalType::String();
  c.max_def_level = 1;
  return c;
}

TEST(ColumnWriterTest, DictionaryFallsBackAtNextRowAndResetsPerChunk) {
  const ColumnDescriptor col = StringColumn();
  WriterOptions options;
  options.dictionary_page_size_limit = 64;
  auto compressor = *Compressor::Make(Codec::kUncompressed, 0);
  ColumnWriter w(col, options, compressor.get());
  EXPECT_TRUE(w.dictionary_mode());
  for (int i = 0; i < 3; ++i) w.AppendBytes("same-value", 0);
  EXPECT_TRUE(w.dictionary_mode());
  // The limit is checked per staged batch (512 values).
  for (int i = 0; i < 1100; ++i) w.AppendBytes("distinct-" + std::to_string(i), 0);
  EXPECT_FALSE(w.dictionary_mode());
  w.AppendNull(0, 0);
  MemoryOutputStream sink;
  auto meta = w.FlushChunk(&sink);
  ASSERT_TRUE(meta.has_value());
  EXPECT_TRUE(meta->dictionary_page_offset.has_value());
  EXPECT_EQ(meta->encodings,
            (std::vector<Encoding>{Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary}));
  EXPECT_EQ(meta->num_values, 1104);
  EXPECT_EQ(meta->null_count, 1);
  ASSERT_TRUE(meta->min_max.has_value());
  EXPECT_EQ(meta->min_max->first, "distinct-0");
  EXPECT_EQ(meta->min_max->second, "same-value");
  EXPECT_EQ(meta->total_compressed_size, sink.Position());
  EXPECT_TRUE(w.dictionary_mode());  // The next chunk starts with a fresh dictionary.
}

TEST(ColumnWriterTest, AllNullChunkHasNoDictionaryNorBounds) {
  const ColumnDescriptor col = StringColumn();
  WriterOptions options;
  auto compressor = *Compressor::Make(Codec::kZstd, 3);
  ColumnWriter w(col, options, compressor.get());
  for (int i = 0; i < 100; ++i) w.AppendNull(0, 0);
  MemoryOutputStream sink;
  auto meta = w.FlushChunk(&sink);
  ASSERT_TRUE(meta.has_value());
  EXPECT_FALSE(meta->dictionary_page_offset.has_value());
  EXPECT_FALSE(meta->min_max.has_value());
  EXPECT_EQ(meta->null_count, 100);
  EXPECT_EQ(w.total_nulls(), 100);
  EXPECT_EQ(w.total_values(), 100);
}

TEST(ColumnWriterTest, CountsNansAndSplitsPages) {
  ColumnDescriptor col;
  col.path = {"d"};
  col.physical_type = PhysicalType::kDouble;
  WriterOptions options;
  options.page_size_bytes = 64;
  options.enable_dictionary = false;
  auto compressor = *Compressor::Make(Codec::kSnappy, 0);
  ColumnWriter w(col, options, compressor.get());
  for (int i = 0; i < 100; ++i) w.AppendFixed(i % 10 == 0 ? std::nan("") : i * 1.0, 0);
  MemoryOutputStream sink;
  auto meta = w.FlushChunk(&sink);
  ASSERT_TRUE(meta.has_value());
  EXPECT_EQ(w.total_nans(), 10);
  EXPECT_EQ(meta->encodings, (std::vector<Encoding>{Encoding::kPlain}));
  // 100 doubles at 64-byte pages: 8 values per page, so 13 page headers.
  EXPECT_GT(meta->total_uncompressed_size, 800 + 13 * 10);
}

}  // namespace
}  // namespace st::parquet::internal
