#include "iceberg/data_file_metrics.h"

#include <gtest/gtest.h>

#include <cstring>

namespace st::iceberg {
namespace {

TEST(TruncateTest, StringLowerKeepsCodePoints) {
  EXPECT_EQ(TruncateStringLower("abc", 16), "abc");
  EXPECT_EQ(TruncateStringLower("abcdef", 3), "abc");
  // "é😀x": 2 + 4 + 1 bytes; two code points are 6 bytes.
  EXPECT_EQ(TruncateStringLower("\xC3\xA9\xF0\x9F\x98\x80x", 2), "\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(TruncateTest, StringUpperIncrementsLastCodePoint) {
  EXPECT_EQ(TruncateStringUpper("abc", 3), "abc");  // Not truncated: unchanged.
  EXPECT_EQ(TruncateStringUpper("abcd", 3), "abd");
  EXPECT_EQ(TruncateStringUpper("a\xF0\x9F\x98\x80z", 2), "a\xF0\x9F\x98\x81");
  // U+10FFFF cannot grow: the previous code point is incremented instead.
  EXPECT_EQ(TruncateStringUpper("a\xF4\x8F\xBF\xBFz", 2), "b");
  EXPECT_EQ(TruncateStringUpper("\xF4\x8F\xBF\xBF\xF4\x8F\xBF\xBFz", 2), std::nullopt);
  // U+D7FF + 1 would be a surrogate: skip to U+E000.
  EXPECT_EQ(TruncateStringUpper("\xED\x9F\xBFzz", 1), "\xEE\x80\x80");
}

TEST(TruncateTest, BinaryUpper) {
  EXPECT_EQ(TruncateBinaryLower(std::string("\x01\x02\x03", 3), 2), std::string("\x01\x02", 2));
  EXPECT_EQ(TruncateBinaryUpper(std::string("\x01\x02\x03", 3), 2), std::string("\x01\x03", 2));
  EXPECT_EQ(TruncateBinaryUpper(std::string("\x01\xFF\x03", 3), 2), std::string("\x02", 1));
  EXPECT_EQ(TruncateBinaryUpper(std::string("\xFF\xFF\x03", 3), 2), std::nullopt);
  EXPECT_EQ(TruncateBinaryUpper(std::string("\xFF\xFF", 2), 2), std::string("\xFF\xFF", 2));
}

TEST(MetricsModeTest, Parse) {
  EXPECT_EQ(MetricsMode::Parse("none")->kind, MetricsMode::Kind::kNone);
  EXPECT_EQ(MetricsMode::Parse("counts")->kind, MetricsMode::Kind::kCounts);
  EXPECT_EQ(MetricsMode::Parse("full")->kind, MetricsMode::Kind::kFull);
  EXPECT_EQ(MetricsMode::Parse("truncate(8)")->truncate_length, 8);
  EXPECT_FALSE(MetricsMode::Parse("truncate(0)").has_value());
  EXPECT_FALSE(MetricsMode::Parse("truncate(x)").has_value());
  EXPECT_FALSE(MetricsMode::Parse("sometimes").has_value());
}

std::string Le32(int32_t v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}
std::string Le64(int64_t v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}

parquet::ColumnSummary Column(int32_t id, parquet::PhysicalType type, std::string min,
                              std::string max, int16_t max_rep = 0) {
  parquet::ColumnSummary c;
  c.column.field_id = id;
  c.column.physical_type = type;
  c.column.max_rep_level = max_rep;
  c.value_count = 10;
  c.null_count = 2;
  c.min_value = std::move(min);
  c.max_value = std::move(max);
  c.compressed_size_bytes = 100 + id;
  return c;
}

TEST(ApplyParquetMetricsTest, ConvertsBoundsToSingleValueSerialization) {
  auto schema = Schema::Make(0, {{1, "d9", false, Type::Decimal(9, 2)},
                                 {2, "d18", false, Type::Decimal(18, 0)},
                                 {3, "d38", false, Type::Decimal(38, 0)},
                                 {4, "s", false, Type::String()},
                                 {5, "ints", false, Type::List(6, false, Type::Int())},
                                 {7, "f", false, Type::Float()},
                                 {8, "l", false, Type::Long()}});
  ASSERT_TRUE(schema.has_value());
  parquet::FileSummary summary;
  summary.row_count = 10;
  summary.file_size_bytes = 1234;
  summary.row_group_offsets = {4, 500};
  using PT = parquet::PhysicalType;
  summary.columns.push_back(Column(1, PT::kInt32, Le32(-129), Le32(300)));
  summary.columns.push_back(Column(2, PT::kInt64, Le64(-1), Le64(0)));
  std::string fixed_min(16, '\xFF');  // -1 as FIXED(16).
  std::string fixed_max(16, '\0');
  fixed_max[15] = 0x7F;  // 127.
  summary.columns.push_back(Column(3, PT::kFixedLenByteArray, fixed_min, fixed_max));
  summary.columns.push_back(
      Column(4, PT::kByteArray, "aaaaaaaaaaaaaaaaaaaa", "zzzzzzzzzzzzzzzzzzzz"));
  summary.columns.push_back(Column(6, PT::kInt32, Le32(1), Le32(2), /*max_rep=*/1));
  auto f = Column(7, PT::kFloat, "", "");
  f.min_value.reset();
  f.max_value.reset();
  f.nan_count = 3;
  summary.columns.push_back(f);
  summary.columns.push_back(Column(8, PT::kInt64, Le64(-5), Le64(5)));

  DataFile df;
  ASSERT_TRUE(ApplyParquetMetrics(*schema, summary, MetricsMode{}, &df).ok());
  EXPECT_EQ(df.record_count, 10);
  EXPECT_EQ(df.file_size_in_bytes, 1234);
  EXPECT_EQ(df.split_offsets, (std::vector<int64_t>{4, 500}));
  EXPECT_EQ(df.lower_bounds[1], std::string("\xFF\x7F", 2));  // -129 minimal BE.
  EXPECT_EQ(df.upper_bounds[1], std::string("\x01\x2C", 2));  // 300.
  EXPECT_EQ(df.lower_bounds[2], std::string("\xFF", 1));
  EXPECT_EQ(df.upper_bounds[2], std::string("\x00", 1));
  EXPECT_EQ(df.lower_bounds[3], std::string("\xFF", 1));
  EXPECT_EQ(df.upper_bounds[3], std::string("\x7F", 1));
  EXPECT_EQ(df.lower_bounds[4], std::string(16, 'a'));
  EXPECT_EQ(df.upper_bounds[4], std::string(15, 'z') + "{");
  EXPECT_EQ(df.value_counts[6], 10);
  EXPECT_FALSE(df.lower_bounds.count(6));  // Inside a list: counts only.
  EXPECT_EQ(df.nan_value_counts[7], 3);
  EXPECT_FALSE(df.lower_bounds.count(7));
  EXPECT_FALSE(df.nan_value_counts.count(8));
  EXPECT_EQ(df.lower_bounds[8], Le64(-5));
  EXPECT_EQ(df.column_sizes[8], 108);
  EXPECT_EQ(df.null_value_counts[8], 2);

  DataFile counts_only;
  ASSERT_TRUE(
      ApplyParquetMetrics(*schema, summary, *MetricsMode::Parse("counts"), &counts_only).ok());
  EXPECT_TRUE(counts_only.lower_bounds.empty());
  EXPECT_EQ(counts_only.value_counts.size(), 7u);

  DataFile full;
  ASSERT_TRUE(ApplyParquetMetrics(*schema, summary, *MetricsMode::Parse("full"), &full).ok());
  EXPECT_EQ(full.upper_bounds[4], std::string(20, 'z'));
}

}  // namespace
}  // namespace st::iceberg
