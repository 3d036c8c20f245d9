// FileReader: our writer's files read back for every type, null pattern,
// nesting, codec and dictionary setting; metadata and statistics; the batch
// path into a second writer; and corrupt input (truncation, bit flips, bad
// headers) failing with an error under ASan/UBSan.
#include "parquet/file_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "common/output_stream.h"
#include "parquet/decoders_internal.h"
#include "parquet/file_writer.h"

namespace st::parquet {
namespace {

using R = Repetition;

Schema AllTypesSchema() {
  return *Schema::Make({
      Node::Boolean("b", R::kOptional, 1),
      Node::Int32("i", R::kRequired, 2),
      Node::Int64("l", R::kOptional, 3),
      Node::Float("f", R::kOptional, 4),
      Node::Double("d", R::kOptional, 5),
      Node::Decimal("dec9", R::kOptional, 6, 9, 2),
      Node::Decimal("dec18", R::kOptional, 7, 18, 3),
      Node::Decimal("dec38", R::kOptional, 8, 38, 10),
      Node::Date("date", R::kOptional, 9),
      Node::Time("time", R::kOptional, 10),
      Node::Timestamp("ts", R::kOptional, 11, false),
      Node::Timestamp("tstz", R::kRequired, 12, true),
      Node::String("s", R::kOptional, 13),
      Node::Uuid("u", R::kOptional, 14),
      Node::Fixed("fx", R::kOptional, 15, 3),
      Node::Binary("bin", R::kOptional, 16),
      Node::Struct("st", R::kOptional, 17,
                   {Node::Int64("x", R::kRequired, 18), Node::String("y", R::kOptional, 19)}),
      Node::List("tags", R::kOptional, 20, Node::String("element", R::kOptional, 21)),
      Node::Map("attrs", R::kOptional, 22, Node::String("key", R::kRequired, 23),
                Node::Int32("value", R::kOptional, 24)),
      Node::List("nested", R::kOptional, 25,
                 Node::List("element", R::kOptional, 26, Node::Int64("element", R::kRequired, 27))),
      Node::List(
          "structs", R::kRequired, 28,
          Node::Struct("element", R::kOptional, 29,
                       {Node::Double("p", R::kOptional, 30),
                        Node::Map("m", R::kOptional, 31, Node::Int32("key", R::kRequired, 32),
                                  Node::Boolean("value", R::kRequired, 33))})),
  });
}

Value OrNull(bool present, Value v) { return present ? std::move(v) : Value::Null(); }

Value AllTypesRow(int i) {
  Value::List tags;
  for (int k = 0; k < i % 4; ++k) {
    tags.push_back(k == 2 ? Value::Null() : Value::String("t" + std::to_string((i * 7 + k) % 9)));
  }
  Value::Map attrs;
  for (int k = 0; k < i % 3; ++k) {
    attrs.emplace_back(Value::String("k" + std::to_string(k)),
                       k == 1 ? Value::Null() : Value::Int32(i * k));
  }
  Value::List nested;
  for (int k = 0; k < i % 3; ++k) {
    Value::List inner;
    for (int j = 0; j < (i + k) % 3; ++j) inner.push_back(Value::Int64(i * 100 + j));
    nested.push_back(k == 1 && i % 2 == 0 ? Value::Null() : Value::MakeList(std::move(inner)));
  }
  Value::List structs;
  for (int k = 0; k < i % 2 + 1; ++k) {
    Value::Map m;
    for (int j = 0; j < k; ++j) m.emplace_back(Value::Int32(j), Value::Bool((i + j) % 2 == 0));
    structs.push_back(i % 9 == 0 ? Value::Null()
                                 : Value::MakeStruct({OrNull(i % 5 != 0, Value::Double(i * 0.5)),
                                                      OrNull(k != 0, Value::MakeMap(m))}));
  }
  const std::string uuid(16, static_cast<char>(i % 251));
  std::string bin;
  for (int k = 0; k < i % 6; ++k) bin.push_back(static_cast<char>((i + k) * 37));
  const Int128 big = static_cast<Int128>(i - 500) * static_cast<Int128>(1000000000000LL) * 1000000;
  return Value::MakeStruct({
      OrNull(i % 3 != 0, Value::Bool(i % 2 == 0)),
      Value::Int32(i * 3 - 1000),
      OrNull(i % 4 != 1, Value::Int64(static_cast<int64_t>(i) * 1234567891011LL)),
      OrNull(i % 5 != 2, Value::Float(static_cast<float>(i) / 8)),
      OrNull(i % 6 != 3, Value::Double(i * -1.25)),
      OrNull(i % 7 != 0, Value::Decimal(i * 13 - 9999)),
      OrNull(i % 7 != 1, Value::Decimal(static_cast<Int128>(i) * 987654321987LL)),
      OrNull(i % 7 != 2, Value::Decimal(big)),
      OrNull(i % 8 != 0, Value::Int32(19000 + i)),
      OrNull(i % 8 != 1, Value::Int64(static_cast<int64_t>(i) * 1000000)),
      OrNull(i % 8 != 2, Value::Int64(1700000000000000LL + i)),
      Value::Int64(1700000000000000LL + i * 1000LL),
      OrNull(i % 10 != 0, Value::String("str-" + std::to_string(i % 37))),
      OrNull(i % 11 != 0, Value::Binary(uuid)),
      OrNull(i % 12 != 0, Value::Binary(std::string(3, static_cast<char>(i)))),
      OrNull(i % 13 != 0, Value::Binary(bin)),
      OrNull(i % 14 != 0,
             Value::MakeStruct(
                 {Value::Int64(i), OrNull(i % 3 != 1, Value::String("y" + std::to_string(i)))})),
      OrNull(i % 15 != 0, Value::MakeList(std::move(tags))),
      OrNull(i % 16 != 0, Value::MakeMap(std::move(attrs))),
      OrNull(i % 17 != 0, Value::MakeList(std::move(nested))),
      Value::MakeList(std::move(structs)),
  });
}

std::string WriteFile(const Schema& schema, const WriterOptions& options,
                      const std::vector<Value>& rows) {
  MemoryOutputStream sink;
  auto w = FileWriter::Make(schema, options, &sink);
  EXPECT_TRUE(w.has_value());
  for (const Value& row : rows) EXPECT_TRUE((*w)->WriteRow(row).ok());
  auto summary = (*w)->Close();
  EXPECT_TRUE(summary.has_value());
  return sink.Release();
}

std::vector<Value> ReadAll(const FileReader& reader) {
  std::vector<Value> rows;
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    auto part = reader.ReadRows(g);
    EXPECT_TRUE(part.has_value()) << part.error().ToString();
    if (!part.has_value()) return rows;
    for (Value& v : *part) rows.push_back(std::move(v));
  }
  return rows;
}

std::vector<Value> Rows(int n) {
  std::vector<Value> rows;
  for (int i = 0; i < n; ++i) rows.push_back(AllTypesRow(i));
  return rows;
}

struct Case {
  Codec codec;
  bool dictionary;
};

class FileReaderRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(FileReaderRoundTrip, EveryTypeNullPatternAndNesting) {
  WriterOptions options;
  options.codec = GetParam().codec;
  options.enable_dictionary = GetParam().dictionary;
  options.page_row_limit = 300;             // Several pages per chunk.
  options.row_group_size_bytes = 64 << 10;  // Several row groups.
  options.key_value_metadata = {{"iceberg.schema", "{}"}, {"k", "v"}};
  const std::vector<Value> rows = Rows(3000);
  const std::string file = WriteFile(AllTypesSchema(), options, rows);
  auto reader = FileReader::Open(file);
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  const FileMetadata& m = (*reader)->metadata();
  EXPECT_EQ(m.num_rows, 3000);
  EXPECT_GT((*reader)->num_row_groups(), 1);
  EXPECT_EQ(m.created_by, kCreatedBy);
  EXPECT_EQ(m.key_value_metadata, options.key_value_metadata);
  const Schema expected = AllTypesSchema();
  ASSERT_EQ(m.schema.num_columns(), expected.num_columns());
  for (int c = 0; c < m.schema.num_columns(); ++c) {
    const ColumnDescriptor& got = m.schema.columns()[c];
    const ColumnDescriptor& want = expected.columns()[c];
    EXPECT_EQ(got.path, want.path);
    EXPECT_EQ(got.field_id, want.field_id);
    EXPECT_EQ(got.physical_type, want.physical_type);
    EXPECT_EQ(got.logical_type, want.logical_type) << got.DottedPath();
    EXPECT_EQ(got.type_length, want.type_length);
    EXPECT_EQ(got.max_def_level, want.max_def_level);
    EXPECT_EQ(got.max_rep_level, want.max_rep_level);
  }
  const std::vector<Value> back = ReadAll(**reader);
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(back[i], rows[i]) << "row " << i;
}

INSTANTIATE_TEST_SUITE_P(Codecs, FileReaderRoundTrip,
                         ::testing::Values(Case{Codec::kUncompressed, true},
                                           Case{Codec::kUncompressed, false},
                                           Case{Codec::kSnappy, true}, Case{Codec::kGzip, false},
                                           Case{Codec::kZstd, true}, Case{Codec::kZstd, false}));

TEST(FileReaderTest, StatisticsMatchTheWritersSummary) {
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(AllTypesSchema(), {}, &sink);
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(w->WriteRow(AllTypesRow(i)).ok());
  auto summary = *w->Close();
  auto reader = *FileReader::Open(sink.buffer());
  ASSERT_EQ(reader->num_row_groups(), 1);
  const RowGroupInfo& rg = reader->metadata().row_groups[0];
  EXPECT_EQ(rg.num_rows, 500);
  for (size_t c = 0; c < summary.columns.size(); ++c) {
    const ColumnChunkInfo& cc = rg.columns[c];
    ASSERT_TRUE(cc.statistics.has_value());
    EXPECT_EQ(cc.statistics->null_count, summary.columns[c].null_count);
    EXPECT_EQ(cc.statistics->min_value, summary.columns[c].min_value) << c;
    EXPECT_EQ(cc.statistics->max_value, summary.columns[c].max_value) << c;
    EXPECT_EQ(cc.num_values, summary.columns[c].value_count);
    EXPECT_EQ(cc.codec, Codec::kZstd);
  }
}

TEST(FileReaderTest, BatchesRewriteThroughTheWritersBatchApi) {
  WriterOptions options;
  options.row_group_size_bytes = 32 << 10;
  const std::vector<Value> rows = Rows(2000);
  const std::string file = WriteFile(AllTypesSchema(), options, rows);
  auto reader = *FileReader::Open(file);
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(reader->schema(), {}, &sink);
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    for (int c = 0; c < reader->schema().num_columns(); ++c) {
      auto batch = reader->ReadColumn(g, c);
      ASSERT_TRUE(batch.has_value()) << batch.error().ToString();
      EXPECT_EQ(batch->num_rows, reader->metadata().row_groups[g].num_rows);
      ASSERT_TRUE(WriteColumnBatch(w.get(), *batch).ok());
    }
    ASSERT_TRUE(w->EndRows(reader->metadata().row_groups[g].num_rows).ok());
  }
  ASSERT_TRUE(w->Close().has_value());
  auto again = *FileReader::Open(sink.buffer());
  EXPECT_EQ(ReadAll(*again), rows);
}

// Row groups carried over encoded, interleaved with re-encoded rows: the
// same rows read back, and the summary (counts, bounds) equals the one of
// writing every row through WriteRow.
TEST(FileReaderTest, EncodedRowGroupsAppendWithRowsAndTheSummaryMatches) {
  WriterOptions options;
  options.row_group_size_bytes = 32 << 10;
  const std::vector<Value> rows = Rows(2000);
  const std::string file = WriteFile(AllTypesSchema(), options, rows);
  auto reader = *FileReader::Open(file);
  ASSERT_GT(reader->num_row_groups(), 2);
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(reader->schema(), {}, &sink);
  std::vector<Value> expected;
  int64_t first = 0;
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    const int64_t n = reader->metadata().row_groups[g].num_rows;
    std::vector<ColumnBatch> batches;
    for (int c = 0; c < reader->schema().num_columns(); ++c) {
      batches.push_back(*reader->ReadColumn(g, c));
    }
    if (g % 2 == 0) {
      std::vector<EncodedChunk> chunks;
      std::string scratch;
      for (int c = 0; c < reader->schema().num_columns(); ++c) {
        auto chunk = reader->EncodedChunkOf(g, c, batches[static_cast<size_t>(c)], &scratch);
        ASSERT_TRUE(chunk.has_value()) << chunk.error().ToString();
        chunks.push_back(*std::move(chunk));
      }
      ASSERT_TRUE(w->AppendEncodedRowGroup(chunks, n).ok());
    } else {
      for (const ColumnBatch& batch : batches) ASSERT_TRUE(WriteColumnBatch(w.get(), batch).ok());
      ASSERT_TRUE(w->EndRows(n).ok());
    }
    for (int64_t i = 0; i < n; ++i) expected.push_back(rows[static_cast<size_t>(first + i)]);
    first += n;
  }
  auto summary = w->Close();
  ASSERT_TRUE(summary.has_value()) << summary.error().ToString();
  auto again = *FileReader::Open(sink.buffer());
  EXPECT_EQ(again->num_row_groups(), reader->num_row_groups());
  EXPECT_EQ(ReadAll(*again), expected);
  for (int g = 0; g < reader->num_row_groups(); g += 2) {
    for (int c = 0; c < reader->schema().num_columns(); ++c) {
      const ColumnChunkInfo& in = reader->metadata().row_groups[g].columns[c];
      const ColumnChunkInfo& out = again->metadata().row_groups[g].columns[c];
      EXPECT_EQ(out.total_uncompressed_size, in.total_uncompressed_size) << g << " " << c;
      EXPECT_EQ(out.total_compressed_size, in.total_compressed_size) << g << " " << c;
      EXPECT_EQ(out.statistics->null_count, in.statistics->null_count) << g << " " << c;
      EXPECT_EQ(out.statistics->min_value, in.statistics->min_value) << g << " " << c;
    }
  }

  MemoryOutputStream direct_sink;
  auto direct = *FileWriter::Make(AllTypesSchema(), {}, &direct_sink);
  for (const Value& row : rows) ASSERT_TRUE(direct->WriteRow(row).ok());
  const FileSummary want = *direct->Close();
  ASSERT_EQ(summary->columns.size(), want.columns.size());
  EXPECT_EQ(summary->row_count, want.row_count);
  for (size_t c = 0; c < want.columns.size(); ++c) {
    EXPECT_EQ(summary->columns[c].value_count, want.columns[c].value_count) << c;
    EXPECT_EQ(summary->columns[c].null_count, want.columns[c].null_count) << c;
    EXPECT_EQ(summary->columns[c].nan_count, want.columns[c].nan_count) << c;
    EXPECT_EQ(summary->columns[c].min_value, want.columns[c].min_value) << c;
    EXPECT_EQ(summary->columns[c].max_value, want.columns[c].max_value) << c;
  }
}

TEST(FileReaderTest, AppendEncodedRowGroupRejectsMisfits) {
  MemoryOutputStream sink;
  auto w = *FileWriter::Make(*Schema::Make({Node::Int64("x", R::kRequired, 1)}), {}, &sink);
  EXPECT_EQ(w->AppendEncodedRowGroup({}, 1).code(), StatusCode::kInvalidArgument);
  MemoryOutputStream sink2;
  auto w2 = *FileWriter::Make(*Schema::Make({Node::Int64("x", R::kRequired, 1)}), {}, &sink2);
  EncodedChunk chunk;
  chunk.pages = "abcd";
  chunk.num_values = 3;
  chunk.min_value = "short";  // Not 8 bytes.
  chunk.max_value = "short";
  EXPECT_EQ(w2->AppendEncodedRowGroup({chunk}, 2).code(), StatusCode::kInvalidArgument);
}

// A budget smaller than what a chunk decodes to fails the read before the
// pages are decompressed, and a batch gives its charge back when it dies.
TEST(FileReaderTest, ADecodeBudgetBoundsWhatBatchesHold) {
  const std::vector<Value> rows = Rows(2000);
  const std::string file = WriteFile(AllTypesSchema(), {}, rows);
  DecodeBudget small(1024, "the test budget");
  ReaderOptions tight;
  tight.budget = &small;
  auto reader = *FileReader::Open(file, tight);
  auto batch = reader->ReadColumn(0, 2);  // 2000 optional int64s: > 1 KiB decoded.
  ASSERT_FALSE(batch.has_value());
  EXPECT_EQ(batch.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(batch.error().message().find("exceeds the test budget of 1024 bytes"),
            std::string::npos)
      << batch.error().ToString();
  EXPECT_EQ(small.used_bytes(), 0);

  DecodeBudget roomy(64 << 20, "the test budget");
  ReaderOptions loose;
  loose.budget = &roomy;
  auto reader2 = *FileReader::Open(file, loose);
  {
    auto held = reader2->ReadColumn(0, 2);
    ASSERT_TRUE(held.has_value()) << held.error().ToString();
    EXPECT_GE(roomy.used_bytes(), 2000 * 8);
    EXPECT_EQ(roomy.used_bytes(), held->charge.bytes());
    ColumnBatch moved = *std::move(held);
    EXPECT_EQ(roomy.used_bytes(), moved.charge.bytes());
  }
  EXPECT_EQ(roomy.used_bytes(), 0);
}

// A source that copies into the scratch buffer, as a remote object would.
class CopyingSource final : public RandomAccessSource {
 public:
  explicit CopyingSource(std::string bytes) : bytes_(std::move(bytes)) {}
  int64_t size_bytes() const override { return static_cast<int64_t>(bytes_.size()); }
  Status ReadAt(int64_t offset, int64_t length, std::string* scratch,
                std::string_view* out) const override {
    scratch->assign(bytes_, static_cast<size_t>(offset), static_cast<size_t>(length));
    *out = *scratch;
    return Status::OK();
  }

 private:
  std::string bytes_;
};

TEST(FileReaderTest, BatchesOutliveACopyingSourcesReads) {
  WriterOptions options;
  options.codec = Codec::kUncompressed;
  const std::vector<Value> rows = Rows(400);
  auto reader = *FileReader::Open(
      std::make_unique<CopyingSource>(WriteFile(AllTypesSchema(), options, rows)));
  EXPECT_EQ(ReadAll(*reader), rows);
}

TEST(FileReaderTest, TimeUnitsOtherThanMicrosSurviveTheSchema) {
  auto schema = *Schema::Make({
      Node::Leaf("ms", R::kOptional, PhysicalType::kInt64,
                 LogicalType::TimestampWithUnit(true, TimeUnit::kMillis), 1),
      Node::Leaf("ns", R::kOptional, PhysicalType::kInt64,
                 LogicalType::TimestampWithUnit(false, TimeUnit::kNanos), 2),
      Node::Leaf("tms", R::kOptional, PhysicalType::kInt32,
                 LogicalType::TimeWithUnit(true, TimeUnit::kMillis), 3),
  });
  const std::vector<Value> rows = {
      Value::MakeStruct({Value::Int64(1), Value::Int64(2), Value::Int32(3)})};
  const std::string file = WriteFile(schema, {}, rows);
  auto reader = *FileReader::Open(file);
  EXPECT_EQ(reader->schema().columns()[0].logical_type.unit, TimeUnit::kMillis);
  EXPECT_EQ(reader->schema().columns()[1].logical_type.unit, TimeUnit::kNanos);
  EXPECT_FALSE(reader->schema().columns()[1].logical_type.adjusted_to_utc);
  EXPECT_EQ(reader->schema().columns()[2].logical_type.unit, TimeUnit::kMillis);
  EXPECT_EQ(ReadAll(*reader), rows);
}

TEST(FileReaderTest, BadArgumentsAndMagic) {
  const std::string file = WriteFile(AllTypesSchema(), {}, Rows(10));
  auto reader = *FileReader::Open(file);
  EXPECT_EQ(reader->ReadColumn(1, 0).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(reader->ReadColumn(0, 99).error().code(), StatusCode::kInvalidArgument);
  std::string bad = file;
  bad[0] = 'X';
  EXPECT_EQ(FileReader::Open(bad).error().code(), StatusCode::kCorruption);
  bad = file;
  bad[bad.size() - 1] = '2';
  EXPECT_EQ(FileReader::Open(bad).error().code(), StatusCode::kCorruption);
  bad = file;
  std::memcpy(bad.data() + bad.size() - 4, "PARE", 4);
  EXPECT_EQ(FileReader::Open(bad).error().code(), StatusCode::kUnsupported);
  bad = file;
  const uint32_t huge = 0x7FFFFFF0;
  std::memcpy(bad.data() + bad.size() - 8, &huge, 4);
  auto r = FileReader::Open(bad);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("footer length"), std::string::npos);
  EXPECT_EQ(FileReader::Open("PAR1").error().code(), StatusCode::kCorruption);
}

TEST(FileReaderTest, ABadPageHeaderIsCorruption) {
  WriterOptions options;
  options.codec = Codec::kUncompressed;
  std::string file = WriteFile(AllTypesSchema(), options, Rows(50));
  auto reader = *FileReader::Open(file);
  const ColumnChunkInfo& cc = reader->metadata().row_groups[0].columns[1];
  // The first page header of column 1, overwritten with an unknown field type.
  const auto at = static_cast<size_t>(cc.dictionary_page_offset.value_or(cc.data_page_offset));
  std::string bad = file;
  std::memset(bad.data() + at, 0xFF, 6);
  auto bad_reader = *FileReader::Open(bad);
  auto batch = bad_reader->ReadColumn(0, 1);
  ASSERT_FALSE(batch.has_value());
  EXPECT_EQ(batch.error().code(), StatusCode::kCorruption);
  EXPECT_NE(batch.error().message().find("parquet column i"), std::string::npos)
      << batch.error().message();
}

// Reads everything a reader can; any outcome but a crash is fine.
bool ReadsCompletely(std::string_view bytes) {
  ReaderOptions options;
  options.max_page_bytes = 8 << 20;
  options.max_chunk_values = 1 << 20;
  auto reader = FileReader::Open(bytes, options);
  if (!reader.has_value()) return false;
  bool ok = true;
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    for (int c = 0; c < (*reader)->schema().num_columns(); ++c) {
      ok &= (*reader)->ReadColumn(g, c).has_value();
    }
    ok &= (*reader)->ReadRows(g).has_value();
  }
  return ok;
}

TEST(FileReaderTest, TruncationAtEveryByteOfTheFooterAndLastKilobyteFails) {
  WriterOptions options;
  options.codec = Codec::kSnappy;
  const std::string file = WriteFile(AllTypesSchema(), options, Rows(200));
  uint32_t footer_len = 0;
  std::memcpy(&footer_len, file.data() + file.size() - 8, 4);
  const size_t from = file.size() - std::min<size_t>(file.size(), footer_len + 8 + 1024);
  for (size_t cut = from; cut < file.size(); ++cut) {
    const std::string_view prefix(file.data(), cut);
    ASSERT_FALSE(ReadsCompletely(prefix)) << "cut at " << cut;
    // The same cut with a valid-looking tail: the footer parser sees the
    // truncated bytes.
    if (cut + 8 > file.size() - footer_len) {
      const size_t footer_start = file.size() - 8 - footer_len;
      if (cut < footer_start) continue;
      std::string patched(file.data(), cut);
      const auto len = static_cast<uint32_t>(cut - footer_start);
      patched.append(reinterpret_cast<const char*>(&len), 4);
      patched.append("PAR1");
      if (len < footer_len) {
        ASSERT_FALSE(ReadsCompletely(patched)) << "footer cut at " << len;
      }
    }
  }
}

TEST(FileReaderTest, RandomBitFlipsNeverCrash) {
  for (Codec codec : {Codec::kUncompressed, Codec::kZstd, Codec::kSnappy, Codec::kGzip}) {
    WriterOptions options;
    options.codec = codec;
    options.page_row_limit = 64;
    const std::string file = WriteFile(AllTypesSchema(), options, Rows(150));
    std::mt19937_64 rng(42 + static_cast<int>(codec));
    int failures = 0;
    for (int round = 0; round < 150; ++round) {
      std::string bad = file;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < flips; ++k) {
        // Half the flips in the footer, where structure lives.
        const size_t footer_zone = std::min<size_t>(bad.size(), 2048);
        const size_t at =
            (rng() % 2 == 0) ? bad.size() - 1 - rng() % footer_zone : rng() % bad.size();
        bad[at] = static_cast<char>(bad[at] ^ (1 << (rng() % 8)));
      }
      failures += ReadsCompletely(bad) ? 0 : 1;
    }
    EXPECT_GT(failures, 0);
  }
}

// The fuzz seeds are pyarrow files (tests/fuzz/make_parquet_seeds.py): data
// page v1/v2, dictionary and PLAIN, DELTA_* and BYTE_STREAM_SPLIT, every
// codec (LZ4_RAW too), nesting. Under ASan here; value equality is the integration test's.
TEST(FileReaderTest, ReadsThePyarrowSeedFiles) {
  const char* seeds[] = {
      "112d9b6a4782cc2ca160c26d25841561599a5540", "2b7596b00221447b287fe1479022d7ec4c1c1f47",
      "2d805077f7bbe45e78c74cb5333c0935a29ea7fa", "3cb0ef1389f7508e99322e848bfa61cd0299d972",
      "4abf27a566976a23d3b744b83869afac944b4e1e", "7bcc0dc6ad5a42df0b34331a4e9814cb1bd6ea29",
      "4a78d8bc24cf076f9c3194860e37ab558a0aaee2"};
  for (const char* seed : seeds) {
    const std::string path =
        std::string(ST_SOURCE_DIR) + "/tests/fuzz/corpus/parquet_reader/" + seed;
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in.good()) << path;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto reader = FileReader::Open(bytes);
    ASSERT_TRUE(reader.has_value()) << seed << ": " << reader.error().ToString();
    EXPECT_EQ((*reader)->metadata().num_rows, 40);
    EXPECT_EQ(ReadAll(**reader).size(), 40u) << seed;
    EXPECT_TRUE(ReadsCompletely(bytes)) << seed;
  }
}

TEST(DecodersTest, DeltaBinaryPackedSpecExample) {
  // Encodings.md: 1, 2, 3, 4, 5 -> block 128, 4 miniblocks, 5 values, first 1,
  // min delta 1, all widths 0.
  const uint8_t data[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
  int64_t out[5] = {};
  size_t consumed = 0;
  ASSERT_TRUE(internal::DecodeDeltaBinaryPacked(data, sizeof(data), 5, out, &consumed).ok());
  EXPECT_EQ(std::vector<int64_t>(out, out + 5), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(consumed, sizeof(data));
  EXPECT_FALSE(internal::DecodeDeltaBinaryPacked(data, 4, 5, out, &consumed).ok());
}

TEST(DecodersTest, RleHybridRunsAndBitPacking) {
  // RLE run of 3 x 5 (bit width 3), then one bit-packed group 0..7.
  const uint8_t data[] = {0x06, 0x05, 0x03, 0x88, 0xC6, 0xFA};
  uint32_t out[11] = {};
  internal::RleDecoder d(data, sizeof(data), 3);
  ASSERT_TRUE(d.Decode(out, 11).ok());
  EXPECT_EQ(std::vector<uint32_t>(out, out + 11),
            (std::vector<uint32_t>{5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7}));
  internal::RleDecoder short_decoder(data, 2, 3);
  EXPECT_FALSE(short_decoder.Decode(out, 4).ok());
}

TEST(DecodersTest, OneBitRunsDecodeTheSameInAnySplit) {
  // A bit-packed run of 2 groups (16 one-bit values), then an RLE run of 5 ones.
  const uint8_t data[] = {0x05, 0xB2, 0x67, 0x0A, 0x01};
  std::vector<int16_t> want;
  for (uint8_t b : {uint8_t{0xB2}, uint8_t{0x67}}) {
    for (int k = 0; k < 8; ++k) want.push_back((b >> k) & 1);
  }
  for (int k = 0; k < 5; ++k) want.push_back(1);
  for (size_t split : {size_t{1}, size_t{3}, size_t{8}, size_t{13}}) {
    internal::RleDecoder d(data, sizeof(data), 1);
    std::vector<int16_t> got(want.size());
    size_t at = 0;
    while (at < got.size()) {
      const size_t n = std::min(split, got.size() - at);
      ASSERT_TRUE(d.Decode(got.data() + at, n).ok());
      at += n;
    }
    EXPECT_EQ(got, want) << "split " << split;
  }
}

}  // namespace
}  // namespace st::parquet
