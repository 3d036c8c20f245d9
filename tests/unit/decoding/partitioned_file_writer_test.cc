// Writer behaviour: Kafka metadata, raw formats, rolling, Finish/Abort, memory.
#include "decoding/partitioned_file_writer.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "decoding_test_fixture.h"
#include "testing/faulty_object_store.h"

namespace st::decoding {
namespace {

class PartitionedFileWriterTest : public DecodingFixture {};

TEST_F(PartitionedFileWriterTest, KafkaMetadataIsFilledAndPartitionsOnTimestamp) {
  auto value_schema = MustSchema({{1, "n", false, Type::Long(), ""}});
  auto schema = *ChannelTableSchema(ValueFormat::kJson, value_schema, true, std::nullopt);
  auto spec = *ChannelPartitionSpec(schema, true, std::nullopt);
  auto writer = MustWriter(Options(ValueFormat::kJson, schema, spec));
  KafkaRecord record;
  record.topic = "clicks";
  record.partition = 5;
  record.offset = 77;
  record.timestamp_ms = 1740832496789;
  record.key = std::string_view("k1");
  const std::string value = R"({"n": 1})";
  record.value = value;
  record.headers = {{"h1", std::string_view("v1")}, {"h2", std::nullopt}};
  auto added = writer->Add(record);
  ASSERT_TRUE(added.has_value());
  ASSERT_EQ(*added, std::nullopt);
  record.offset = 78;
  record.key.reset();
  record.headers.clear();
  record.timestamp_ms = 1740832496789 + 86400000;  // Next day.
  ASSERT_EQ(*writer->Add(record), std::nullopt);
  record.timestamp_ms = -1;  // No timestamp: nothing to partition on.
  auto no_ts = writer->Add(record);
  ASSERT_TRUE(no_ts.has_value());
  ASSERT_TRUE(no_ts->has_value());
  EXPECT_EQ((*no_ts)->code, kMissingPartitionValue);
  EXPECT_NE((*no_ts)->message.find("no Kafka timestamp"), std::string::npos);

  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 2u);
  for (const auto& f : *files) {
    EXPECT_EQ(f.record_count, 1);
    const int32_t day = f.partition.struct_value()[0].int32_value();
    const bool first = day == 20148;
    EXPECT_NE(f.file_path.find(first ? "_kafka_timestamp_day=2025-03-01/"
                                     : "_kafka_timestamp_day=2025-03-02/"),
              std::string::npos)
        << f.file_path;
    const int32_t partition_id = schema.FindFieldByName("_kafka.partition")->id;
    const int32_t offset_id = schema.FindFieldByName("_kafka.offset")->id;
    const int32_t ts_id = schema.FindFieldByName("_kafka.timestamp")->id;
    const int32_t key_id = schema.FindFieldByName("_kafka.key")->id;
    EXPECT_EQ(Bound(f, partition_id, *Type::Int(), true), Value::Int32(5));
    EXPECT_EQ(Bound(f, offset_id, *Type::Long(), true), Value::Int64(first ? 77 : 78));
    EXPECT_EQ(Bound(f, ts_id, *Type::TimestampTz(), true),
              Value::Int64((1740832496789 + (first ? 0 : 86400000)) * 1000));
    EXPECT_EQ(f.null_value_counts.at(key_id), first ? 0 : 1);
    const auto& headers = schema.FindFieldByName("_kafka.headers")->type;
    EXPECT_EQ(f.value_counts.at(headers->key().id), first ? 2 : 1);
    EXPECT_EQ(f.null_value_counts.at(headers->value().id), first ? 1 : 1);
  }
}

TEST_F(PartitionedFileWriterTest, RecordsBeforeTheExpirationHorizonAreRecordExpired) {
  // Partitioned on a value column `ts` (a streaming table's) and on _kafka.timestamp.
  auto value_schema = MustSchema({{1, "ts", true, Type::TimestampTz(), ""}});
  auto by_value = *ChannelTableSchema(ValueFormat::kJson, value_schema, true, "ts");
  auto by_kafka = *ChannelTableSchema(ValueFormat::kJson, value_schema, true, std::nullopt);
  auto value_writer = MustWriter(
      Options(ValueFormat::kJson, by_value, *ChannelPartitionSpec(by_value, false, "ts")));
  auto kafka_writer = MustWriter(
      Options(ValueFormat::kJson, by_kafka, *ChannelPartitionSpec(by_kafka, false, std::nullopt)));
  const int64_t horizon_us = 1740830400000000;  // 2025-03-01T12:00:00Z
  value_writer->SetExpirationHorizon(horizon_us);
  kafka_writer->SetExpirationHorizon(horizon_us);
  KafkaRecord record;
  record.topic = "t";
  std::string old_value = R"({"ts": "2025-03-01T11:59:59.999Z"})";
  std::string new_value = R"({"ts": "2025-03-01T12:00:00Z"})";
  record.timestamp_ms = horizon_us / 1000 + 5;  // Kafka says new.
  record.value = old_value;
  auto old_by_value = value_writer->Add(record);
  ASSERT_TRUE(old_by_value.has_value() && old_by_value->has_value());
  EXPECT_EQ((*old_by_value)->code, kRecordExpired);
  EXPECT_NE((*old_by_value)->message.find("2025-03-01T11:59:59.999Z"), std::string::npos)
      << (*old_by_value)->message;
  EXPECT_NE((*old_by_value)->message.find("horizon 2025-03-01T12:00:00.000Z"), std::string::npos)
      << (*old_by_value)->message;
  EXPECT_EQ(*kafka_writer->Add(record), std::nullopt);  // Its ts is the Kafka timestamp.
  record.value = new_value;
  EXPECT_EQ(*value_writer->Add(record), std::nullopt);  // At the horizon: kept.
  record.timestamp_ms = horizon_us / 1000 - 1;
  auto old_by_kafka = kafka_writer->Add(record);
  ASSERT_TRUE(old_by_kafka.has_value() && old_by_kafka->has_value());
  EXPECT_EQ((*old_by_kafka)->code, kRecordExpired);
  kafka_writer->SetExpirationHorizon(std::nullopt);
  EXPECT_EQ(*kafka_writer->Add(record), std::nullopt);
  EXPECT_EQ(value_writer->Finish()->front().record_count, 1);
  EXPECT_EQ(kafka_writer->Finish()->size(), 2u);
}

// keyConverter STRING: `_kafka.key` is a string column with string bounds; a
// key that is not UTF-8 fails its record alone, before anything is written.
TEST_F(PartitionedFileWriterTest, StringKeysAreTextAndANonUtf8KeyFailsItsRecordAlone) {
  auto value_schema = MustSchema({{1, "n", false, Type::Long(), ""}});
  auto schema =
      *ChannelTableSchema(ValueFormat::kJson, value_schema, true, std::nullopt, KeyFormat::kString);
  const int32_t key_id = schema.FindFieldByName("_kafka.key")->id;
  ASSERT_EQ(schema.FindFieldByName("_kafka.key")->type->id(), iceberg::TypeId::kString);
  auto spec = *ChannelPartitionSpec(schema, false, std::nullopt);
  auto writer = MustWriter(Options(ValueFormat::kJson, schema, spec));
  KafkaRecord record;
  record.topic = "clicks";
  record.timestamp_ms = 1740832496789;
  const std::string value = R"({"n": 1})";
  record.value = value;
  record.key = std::string_view("caf\xc3\xa9-1");
  ASSERT_EQ(*writer->Add(record), std::nullopt);
  record.offset = 1;
  record.key = std::string_view("\xff\xfe", 2);
  auto bad = writer->Add(record);
  ASSERT_TRUE(bad.has_value());
  ASSERT_TRUE(bad->has_value());
  EXPECT_EQ((*bad)->code, kTypeMismatch);
  EXPECT_NE((*bad)->message.find("record key is not valid UTF-8"), std::string::npos)
      << (*bad)->message;
  record.offset = 2;
  record.key.reset();  // No key: a null, as with binary keys.
  ASSERT_EQ(*writer->Add(record), std::nullopt);
  record.offset = 3;
  record.key = std::string_view("zz");
  ASSERT_EQ(*writer->Add(record), std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  const auto& f = (*files)[0];
  EXPECT_EQ(f.record_count, 3);  // The bad-key record left nothing behind.
  EXPECT_EQ(f.null_value_counts.at(key_id), 1);
  EXPECT_EQ(Bound(f, key_id, *Type::String(), true), Value::String("caf\xc3\xa9-1"));
  EXPECT_EQ(Bound(f, key_id, *Type::String(), false), Value::String("zz"));
}

TEST_F(PartitionedFileWriterTest, ByteArrayAndStringValues) {
  auto bytes_schema =
      *ChannelTableSchema(ValueFormat::kByteArray, std::nullopt, false, std::nullopt);
  auto writer = MustWriter(Options(ValueFormat::kByteArray, bytes_schema));
  ASSERT_EQ(AddValue(*writer, std::string("\xff\x00\x01", 3)), std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(Bound((*files)[0], 1, *Type::Binary(), true),
            Value::Binary(std::string("\xff\x00\x01", 3)));

  auto text_schema = *ChannelTableSchema(ValueFormat::kString, std::nullopt, false, std::nullopt);
  writer = MustWriter(Options(ValueFormat::kString, text_schema));
  ASSERT_EQ(AddValue(*writer, "h\xc3\xa9llo"), std::nullopt);
  auto error = AddValue(*writer, "\xff\xfe");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kTypeMismatch);
  EXPECT_NE(error->message.find("not valid UTF-8"), std::string::npos);
  error = AddValue(*writer, std::nullopt);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kNullValue);
  files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].record_count, 1);
  EXPECT_EQ(Bound((*files)[0], 1, *Type::String(), true), Value::String("h\xc3\xa9llo"));
}

TEST_F(PartitionedFileWriterTest, RollsAtTargetSizeAndReportsBufferedBytes) {
  auto schema = MustSchema({{1, "s", false, Type::String(), ""}});
  auto options = Options(ValueFormat::kJson, schema);
  options.codec = "uncompressed";
  options.target_file_bytes = 200000;
  options.batch_flush_bytes = 20000;
  auto writer = MustWriter(std::move(options));
  EXPECT_EQ(writer->buffered_bytes(), 0);
  // Distinct values defeat the dictionary, so the file grows with the data.
  for (int i = 0; i < 2000; ++i) {
    const std::string json = R"({"s": ")" + std::to_string(i) + std::string(200, 'x') + "\"}";
    ASSERT_EQ(AddValue(*writer, json, i), std::nullopt);
    if (i == 10) {
      EXPECT_GT(writer->buffered_bytes(), 2000);
    }
  }
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  EXPECT_GE(files->size(), 2u);
  int64_t rows = 0;
  for (const auto& f : *files) {
    rows += f.record_count;
    EXPECT_LT(f.file_size_in_bytes, 200000 + 40000);
  }
  EXPECT_EQ(rows, 2000);
  EXPECT_EQ(writer->buffered_bytes(), 0);
  // The writer is usable after Finish; names do not repeat.
  ASSERT_EQ(AddValue(*writer, R"({"s": "again"})"), std::nullopt);
  auto more = writer->Finish();
  ASSERT_TRUE(more.has_value());
  ASSERT_EQ(more->size(), 1u);
  for (const auto& f : *files) EXPECT_NE(f.file_path, (*more)[0].file_path);
}

TEST_F(PartitionedFileWriterTest, AbortDeletesFilesSinceLastFinish) {
  auto schema = MustSchema({{1, "s", false, Type::String(), ""}});
  auto options = Options(ValueFormat::kJson, schema);
  options.target_file_bytes = 1;  // Every flushed batch closes its file.
  options.batch_flush_bytes = 1;
  auto writer = MustWriter(std::move(options));
  ASSERT_EQ(AddValue(*writer, R"({"s": "a"})"), std::nullopt);
  ASSERT_EQ(AddValue(*writer, R"({"s": "b"})"), std::nullopt);
  auto listed = store_->List("t/data/");
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(listed->size(), 2u);
  ASSERT_EQ(AddValue(*writer, R"({"s": "c"})"), std::nullopt);
  writer->Abort();
  EXPECT_EQ(writer->buffered_bytes(), 0);
  listed = store_->List("t/data/");
  ASSERT_TRUE(listed.has_value());
  EXPECT_TRUE(listed->empty());
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  EXPECT_TRUE(files->empty());
}

// Every regular file under `root`, hidden temp files included.
std::vector<std::string> FilesUnder(const std::string& root) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) out.push_back(entry.path().string());
  }
  return out;
}

// The contract the channel worker relies on (issue 9 item 10): a storage
// error (ENOSPC / EIO) is sticky, Abort removes every file of the failed
// batch (closed ones and the open temp file), and a fresh writer on the same
// store works once the fault clears.
TEST_F(PartitionedFileWriterTest, StorageFaultIsStickyAbortLeavesNothingAndAFreshWriterWorks) {
  for (int error_number : {ENOSPC, EIO}) {
    SCOPED_TRACE(std::strerror(error_number));
    fault_injection::FaultyObjectStore faulty(*store_);
    iceberg::FileIO io(faulty, "s3://bucket/", "");
    auto schema = MustSchema({{1, "s", false, Type::String(), ""}});
    auto options = Options(ValueFormat::kJson, schema);
    options.batch_flush_bytes = 1;  // Every record reaches the open file.
    options.row_group_bytes = 1;
    options.target_file_bytes = 200;  // A few records per file.
    auto made = PartitionedFileWriter::Make(options, io, random_);
    ASSERT_TRUE(made.has_value()) << made.error().ToString();
    auto& writer = **made;
    int64_t offset = 0;
    while (store_->List("t/data/")->empty()) {  // One closed file and one open.
      ASSERT_EQ(AddValue(writer, R"({"s": "before the fault"})", offset++), std::nullopt);
      ASSERT_LT(offset, 100);
    }
    ASSERT_EQ(AddValue(writer, R"({"s": "open"})", offset++), std::nullopt);
    EXPECT_GE(FilesUnder(root_).size(), 2u);  // The closed file and the open temp file.

    faulty.FailNextWrites(fault_injection::FaultyObjectStore::kForever, error_number);
    KafkaRecord record;
    record.topic = "t";
    record.partition = 3;
    record.offset = offset++;
    record.timestamp_ms = 1740832496789;
    record.value = R"({"s": "during the fault"})";
    auto failed = writer.Add(record);
    ASSERT_FALSE(failed.has_value());
    EXPECT_EQ(failed.error().code(), StatusCode::kIo);
    EXPECT_NE(failed.error().message().find(std::strerror(error_number)), std::string::npos)
        << failed.error().ToString();
    faulty.Heal();
    // Sticky: the writer never writes again, even once the disk has space.
    record.value = R"({"s": "after the fault"})";
    auto again = writer.Add(record);
    ASSERT_FALSE(again.has_value());
    EXPECT_EQ(again.error().message(), failed.error().message());
    auto finished = writer.Finish();
    ASSERT_FALSE(finished.has_value());
    EXPECT_EQ(finished.error().message(), failed.error().message());

    // Abort leaves nothing of the batch: no data file, no temp file.
    writer.Abort();
    EXPECT_EQ(writer.buffered_bytes(), 0);
    EXPECT_EQ(FilesUnder(root_), std::vector<std::string>{});

    // A fresh writer on the same store writes again.
    made->reset();
    auto fresh = PartitionedFileWriter::Make(options, io, random_);
    ASSERT_TRUE(fresh.has_value());
    ASSERT_EQ(AddValue(**fresh, R"({"s": "fresh"})", offset), std::nullopt);
    auto files = (*fresh)->Finish();
    ASSERT_TRUE(files.has_value()) << files.error().ToString();
    ASSERT_EQ(files->size(), 1u);
    EXPECT_EQ((*files)[0].record_count, 1);
    EXPECT_EQ(FilesUnder(root_).size(), 1u);
    for (const auto& f : *files) ASSERT_TRUE(io.Delete(f.file_path).ok());
  }
}

TEST_F(PartitionedFileWriterTest, MakeRejectsBadOptions) {
  auto schema = MustSchema({{1, "s", false, Type::String(), ""}});
  auto options = Options(ValueFormat::kJson, schema);
  options.codec = "lz4";
  auto made = PartitionedFileWriter::Make(options, *io_, random_);
  ASSERT_FALSE(made.has_value());
  EXPECT_NE(made.error().message().find("lz4"), std::string::npos);
  options = Options(ValueFormat::kJsonSchemaGsr, schema);
  made = PartitionedFileWriter::Make(options, *io_, random_);
  ASSERT_FALSE(made.has_value());
  EXPECT_NE(made.error().message().find("GsrSchemaLookup"), std::string::npos);
  auto with_meta = *ChannelTableSchema(ValueFormat::kJson, schema, true, std::nullopt);
  options =
      Options(ValueFormat::kJson, with_meta, *ChannelPartitionSpec(with_meta, false, std::nullopt));
  options.include_metadata = false;
  made = PartitionedFileWriter::Make(options, *io_, random_);
  ASSERT_FALSE(made.has_value());
  EXPECT_NE(made.error().message().find("include_metadata=false"), std::string::npos);
  options = Options(ValueFormat::kString, schema);  // `s`, not a `value` column — fine by type...
  EXPECT_TRUE(PartitionedFileWriter::Make(options, *io_, random_).has_value());
  options = Options(ValueFormat::kByteArray, schema);  // ...but binary is required here.
  EXPECT_FALSE(PartitionedFileWriter::Make(options, *io_, random_).has_value());
}

}  // namespace
}  // namespace st::decoding
