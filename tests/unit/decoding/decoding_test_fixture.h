// Shared setup for decoding tests: a local object store in a temp dir, a
// FileIO on it and helpers to build schemas and writers.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "common/random.h"
#include "decoding/channel_schema.h"
#include "decoding/partitioned_file_writer.h"
#include "iceberg/conversions.h"
#include "storage/local_object_store.h"

namespace st::decoding {

using iceberg::NestedField;
using iceberg::Type;

class DecodingFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/st_decoding_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    auto store = storage::OpenLocalObjectStore(root_);
    ASSERT_TRUE(store.has_value());
    store_ = std::move(*store);
    io_ = std::make_unique<iceberg::FileIO>(*store_, "s3://bucket/", "");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  static iceberg::Schema MustSchema(std::vector<NestedField> fields) {
    auto schema = iceberg::Schema::Make(0, std::move(fields));
    EXPECT_TRUE(schema.has_value()) << (schema ? "" : schema.error().ToString());
    return *schema;
  }

  WriterOptions Options(ValueFormat format, const iceberg::Schema& schema,
                        iceberg::PartitionSpec spec = iceberg::PartitionSpec::Unpartitioned()) {
    return WriterOptions{.format = format,
                         .schema = schema,
                         .spec = std::move(spec),
                         .data_location = "s3://bucket/t/data"};
  }

  std::unique_ptr<PartitionedFileWriter> MustWriter(WriterOptions options) {
    auto writer = PartitionedFileWriter::Make(std::move(options), *io_, random_);
    EXPECT_TRUE(writer.has_value()) << (writer ? "" : writer.error().ToString());
    return writer ? std::move(*writer) : nullptr;
  }

  // Adds a record with this value; returns the RecordError or nullopt.
  static std::optional<RecordError> AddValue(PartitionedFileWriter& writer,
                                             std::optional<std::string_view> value,
                                             int64_t offset = 0,
                                             int64_t timestamp_ms = 1740832496789) {
    KafkaRecord record;
    record.topic = "t";
    record.partition = 3;
    record.offset = offset;
    record.timestamp_ms = timestamp_ms;
    record.value = value;
    auto result = writer.Add(record);
    EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().ToString());
    return result ? *result : std::nullopt;
  }

  // Bound of `field_id` in the file decoded as a Value of `type`.
  static Value Bound(const iceberg::DataFile& file, int32_t field_id, const Type& type,
                     bool lower) {
    const auto& bounds = lower ? file.lower_bounds : file.upper_bounds;
    auto it = bounds.find(field_id);
    if (it == bounds.end()) return Value();
    auto v = iceberg::FromSingleValueBytes(type, it->second);
    return v ? *v : Value();
  }

  std::string root_;
  std::unique_ptr<storage::ObjectStore> store_;
  std::unique_ptr<iceberg::FileIO> io_;
  DefaultRandom random_{7};
};

}  // namespace st::decoding
