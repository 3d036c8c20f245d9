#include "iceberg/data_file_writer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "iceberg/partitioned_data_files.h"
#include "storage/local_object_store.h"

namespace st::iceberg {
namespace {

constexpr int64_t kDayMicros = 86'400'000'000LL;

class DataFileWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/st_dfw_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    auto store = storage::OpenLocalObjectStore(root_);
    ASSERT_TRUE(store.has_value());
    store_ = std::move(*store);
    io_ = std::make_unique<FileIO>(*store_, root_, "");
    auto schema = Schema::Make(0, {{1, "id", true, Type::Long()},
                                   {2, "ts", false, Type::TimestampTz()},
                                   {3, "s", false, Type::String()},
                                   {4, "amount", false, Type::Decimal(9, 2)}});
    ASSERT_TRUE(schema.has_value());
    schema_ = std::make_unique<Schema>(std::move(*schema));
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  Value Row(int64_t id, int64_t ts, std::string s, Int128 amount) {
    return Value::MakeStruct(
        {Value::Int64(id), Value::Int64(ts), Value::String(std::move(s)), Value::Decimal(amount)});
  }
  DataFileWriterOptions Options() {
    DataFileWriterOptions o;
    o.data_location = root_ + "/t/data";
    return o;
  }

  std::string root_;
  std::unique_ptr<storage::ObjectStore> store_;
  std::unique_ptr<FileIO> io_;
  std::unique_ptr<Schema> schema_;
  DefaultRandom random_{42};
};

TEST_F(DataFileWriterTest, OneFilePerPartitionWithMetrics) {
  auto spec = PartitionSpec::Make(*schema_, 0, {{2, 1000, "ts_day", Transform::Day()}});
  ASSERT_TRUE(spec.has_value());
  auto writer = DataFileWriter::Make(*io_, *schema_, *spec, Options(), random_);
  ASSERT_TRUE(writer.has_value()) << writer.error().ToString();
  for (int64_t i = 0; i < 30; ++i) {
    ASSERT_TRUE(
        (*writer)
            ->Write(Row(i, (i % 3) * kDayMicros + i, "row" + std::to_string(i), i * 100 - 500))
            .ok());
  }
  auto files = (*writer)->Close();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_EQ(files->size(), 3u);
  std::set<int32_t> days;
  int64_t total = 0;
  for (const auto& f : *files) {
    EXPECT_EQ(f.file_format, FileFormat::kParquet);
    EXPECT_EQ(f.record_count, 10);
    total += f.record_count;
    days.insert(f.partition.struct_value()[0].int32_value());
    EXPECT_NE(f.file_path.find(root_ + "/t/data/ts_day=1970-01-0"), std::string::npos)
        << f.file_path;
    auto key = io_->KeyFor(f.file_path);
    ASSERT_TRUE(key.has_value());
    auto head = store_->Head(*key);
    ASSERT_TRUE(head.has_value()) << f.file_path;
    EXPECT_EQ(head->size_bytes, f.file_size_in_bytes);
    EXPECT_EQ(f.value_counts.at(1), 10);
    EXPECT_EQ(f.null_value_counts.at(3), 0);
    EXPECT_TRUE(f.lower_bounds.count(4));
    EXPECT_FALSE(f.split_offsets.empty());
    EXPECT_EQ(f.split_offsets[0], 4);
  }
  EXPECT_EQ(total, 30);
  EXPECT_EQ(days, (std::set<int32_t>{0, 1, 2}));
}

TEST_F(DataFileWriterTest, RollsAtTargetSize) {
  auto options = Options();
  options.target_file_size_bytes = 2000;
  options.parquet.row_group_size_bytes = 512;
  auto writer =
      DataFileWriter::Make(*io_, *schema_, PartitionSpec::Unpartitioned(), options, random_);
  ASSERT_TRUE(writer.has_value());
  for (int64_t i = 0; i < 2000; ++i) {
    ASSERT_TRUE(
        (*writer)->Write(Row(i, i, std::string(20, static_cast<char>('a' + i % 26)), i)).ok());
  }
  auto files = (*writer)->Close();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  EXPECT_GT(files->size(), 3u);
  int64_t total = 0;
  for (const auto& f : *files) {
    total += f.record_count;
    EXPECT_EQ(f.file_path.rfind(root_ + "/t/data/", 0), 0u);
    EXPECT_TRUE(f.partition.struct_value().empty());
  }
  EXPECT_EQ(total, 2000);
}

TEST_F(DataFileWriterTest, RejectedRowLeavesWriterUsable) {
  auto writer =
      DataFileWriter::Make(*io_, *schema_, PartitionSpec::Unpartitioned(), Options(), random_);
  ASSERT_TRUE(writer.has_value());
  Status bad = (*writer)->Write(Value::MakeStruct({Value::String("not a long")}));
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE((*writer)->Write(Row(1, 2, "x", 3)).ok());
  auto files = (*writer)->Close();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 1);
  EXPECT_EQ((*writer)->Write(Row(1, 2, "x", 3)).code(), StatusCode::kFailedPrecondition);
}

// The shared file set both writers sit on: an empty file is never
// committed, a closed partition opens a new file with the next number, and
// DiscardAll removes what was closed but not taken.
TEST_F(DataFileWriterTest, PartitionedDataFilesCloseDiscardAndNaming) {
  auto spec = PartitionSpec::Make(*schema_, 0, {{2, 1000, "ts_day", Transform::Day()}});
  ASSERT_TRUE(spec.has_value());
  PartitionedDataFilesOptions options;
  options.data_location = root_ + "/t/data//";
  auto files = PartitionedDataFiles::Make(*io_, *schema_, *spec, options, random_);
  ASSERT_TRUE(files.has_value()) << files.error().ToString();

  auto day0 = (*files)->FileFor({Value::Int32(0)});
  ASSERT_TRUE(day0.has_value());
  EXPECT_EQ(*(*files)->FileFor({Value::Int32(0)}), *day0);  // Same tuple, same file.
  ASSERT_TRUE((*day0)->writer->WriteRow(Row(1, 0, "a", 100)).ok());
  auto day1 = (*files)->FileFor({Value::Int32(1)});
  ASSERT_TRUE(day1.has_value());
  EXPECT_NE(*day1, *day0);
  EXPECT_EQ((*files)->OpenFiles().size(), 2U);
  ASSERT_TRUE((*files)->Close(*day1).ok());  // No rows: not committed, no DataFile.
  ASSERT_TRUE((*files)->Close(*day0).ok());
  EXPECT_FALSE((*files)->HasOpenFiles());
  auto again = (*files)->FileFor({Value::Int32(0)});
  ASSERT_TRUE(again.has_value());
  EXPECT_NE((*again)->uri.find("-00003.parquet"), std::string::npos) << (*again)->uri;
  ASSERT_TRUE((*again)->writer->WriteRow(Row(2, 0, "b", 200)).ok());
  ASSERT_TRUE((*files)->CloseAll().ok());

  std::vector<DataFile> taken = (*files)->TakeClosed();
  ASSERT_EQ(taken.size(), 2U);
  EXPECT_EQ(taken[0].file_path.find(root_ + "/t/data/ts_day=1970-01-01/"), 0U)
      << taken[0].file_path;
  EXPECT_EQ(taken[0].record_count, 1);
  EXPECT_TRUE(std::filesystem::exists(taken[1].file_path));
  EXPECT_TRUE((*files)->TakeClosed().empty());

  auto last = (*files)->FileFor({Value::Int32(2)});
  ASSERT_TRUE(last.has_value());
  ASSERT_TRUE((*last)->writer->WriteRow(Row(3, 2 * kDayMicros, "c", 300)).ok());
  const std::string last_path = (*last)->uri;
  ASSERT_TRUE((*files)->CloseAll().ok());
  EXPECT_TRUE(std::filesystem::exists(last_path));
  (*files)->DiscardAll();
  EXPECT_FALSE(std::filesystem::exists(last_path));
  EXPECT_TRUE(std::filesystem::exists(taken[0].file_path));  // Taken files are the caller's.

  EXPECT_EQ((*files)->FileFor({Value::String("x")}).error().code(), StatusCode::kInvalidArgument);
}

TEST(DataFileWriterOptionsTest, ParquetCodecFromName) {
  EXPECT_EQ(*ParquetCodecFromName("ZSTD"), parquet::Codec::kZstd);
  EXPECT_EQ(*ParquetCodecFromName("none"), parquet::Codec::kUncompressed);
  EXPECT_EQ(*ParquetCodecFromName("Gzip"), parquet::Codec::kGzip);
  EXPECT_EQ(ParquetCodecFromName("lz4").error().message(),
            "codec 'lz4' is not zstd, snappy, gzip or uncompressed");
}

TEST(DataFileWriterOptionsTest, FromProperties) {
  auto o = DataFileWriterOptionsFromProperties("/wh/t",
                                               {{"write.parquet.compression-codec", "SNAPPY"},
                                                {"write.target-file-size-bytes", "1000"},
                                                {"write.metadata.metrics.default", "truncate(4)"}});
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->data_location, "/wh/t/data");
  EXPECT_EQ(o->parquet.codec, parquet::Codec::kSnappy);
  EXPECT_EQ(o->target_file_size_bytes, 1000);
  EXPECT_EQ(o->metrics.truncate_length, 4);
  EXPECT_EQ(
      DataFileWriterOptionsFromProperties("/wh/t", {{"write.parquet.compression-codec", "lz9"}})
          .error()
          .code(),
      StatusCode::kInvalidArgument);
  auto d = DataFileWriterOptionsFromProperties("/wh/t", {});
  EXPECT_EQ(d->parquet.codec, parquet::Codec::kZstd);
  EXPECT_EQ(d->target_file_size_bytes, 512LL << 20);
}

}  // namespace
}  // namespace st::iceberg
