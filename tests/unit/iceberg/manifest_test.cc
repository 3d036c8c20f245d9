#include "iceberg/manifest.h"

#include <cmath>
#include <limits>

#include "avro/container.h"
#include "file_table_fixture.h"
#include "iceberg/conversions.h"

namespace st::iceberg {
namespace {

class ManifestTest : public FileTableTest {
 protected:
  ManifestWriterOptions Options(const std::string& name) {
    ManifestWriterOptions o;
    o.path = "/wh/db/t/metadata/" + name;
    o.schema = metadata_.CurrentSchema();
    o.spec = *metadata_.DefaultSpec();
    o.snapshot_id = 77;
    o.sequence_number = 7;
    o.random = &random_;
    return o;
  }
};

std::string FileMetadata(const Manifest& m, const std::string& key) {
  for (const auto& [k, v] : m.metadata) {
    if (k == key) return v;
  }
  return "<absent>";
}

TEST_F(ManifestTest, RoundTripResolvesInheritedValues) {
  auto writer = ManifestWriter::Make(*io_, Options("a-m0.avro")).value();
  DataFile added = MakeFile("a", 20089, "books", 1, 10);
  ManifestEntry existing{ManifestEntryStatus::kExisting, 11, 3, 4,
                         MakeFile("b", 20090, "toys", 2, 5)};
  ManifestEntry deleted{ManifestEntryStatus::kAdded, 12, 5, 5, MakeFile("c", 20091, "food", 3, 7)};
  ASSERT_TRUE(writer->Add(added).ok());
  ASSERT_TRUE(writer->AddExisting(existing).ok());
  ASSERT_TRUE(writer->AddDeleted(deleted).ok());
  ManifestFile m = writer->Close().value();

  EXPECT_EQ(m.manifest_path, "/wh/db/t/metadata/a-m0.avro");
  EXPECT_EQ(m.manifest_length, store_->Head("db/t/metadata/a-m0.avro")->size_bytes);
  EXPECT_EQ(m.added_snapshot_id, 77);
  EXPECT_EQ(m.sequence_number, 7);
  EXPECT_EQ(m.min_sequence_number, 3);  // Live entries only: the deleted one's 5 is ignored.
  EXPECT_EQ(m.added_files_count, 1);
  EXPECT_EQ(m.existing_files_count, 1);
  EXPECT_EQ(m.deleted_files_count, 1);
  EXPECT_EQ(m.added_rows_count, 10);
  EXPECT_EQ(m.existing_rows_count, 5);
  EXPECT_EQ(m.deleted_rows_count, 7);

  Manifest read = ReadManifest(*io_, m).value();
  ASSERT_EQ(read.entries.size(), 3u);
  EXPECT_EQ(read.entries[0].status, ManifestEntryStatus::kAdded);
  EXPECT_EQ(read.entries[0].snapshot_id, 77);
  EXPECT_EQ(read.entries[0].sequence_number, 7);  // Inherited.
  EXPECT_EQ(read.entries[0].file_sequence_number, 7);
  EXPECT_EQ(read.entries[0].data_file, added);
  EXPECT_EQ(read.entries[1], existing);
  EXPECT_EQ(read.entries[2].status, ManifestEntryStatus::kDeleted);
  EXPECT_EQ(read.entries[2].snapshot_id, 77);  // Deleted by the writing snapshot.
  EXPECT_EQ(read.entries[2].sequence_number, 5);
  EXPECT_EQ(read.entries[2].data_file, deleted.data_file);

  EXPECT_EQ(FileMetadata(read, "format-version"), "2");
  EXPECT_EQ(FileMetadata(read, "content"), "data");
  EXPECT_EQ(FileMetadata(read, "partition-spec-id"), "0");
  EXPECT_EQ(FileMetadata(read, "partition-spec"),
            R"([{"field-id":1000,"name":"ts_day","source-id":2,"transform":"day"},)"
            R"({"field-id":1001,"name":"category","source-id":3,"transform":"identity"},)"
            R"({"field-id":1002,"name":"id_bucket","source-id":1,"transform":"bucket[4]"}])");
  EXPECT_NE(FileMetadata(read, "schema").find("\"timestamptz\""), std::string::npos);
}

TEST_F(ManifestTest, AddedEntriesAreWrittenWithNullSequenceNumbers) {
  auto writer = ManifestWriter::Make(*io_, Options("n-m0.avro")).value();
  ASSERT_TRUE(writer->Add(MakeFile("a", 1, "x", 0, 1)).ok());
  ManifestFile m = writer->Close().value();
  std::string bytes = io_->Read(m.manifest_path).value();
  auto reader = avro::ContainerReader::Open(bytes).value();
  auto records = reader->ReadAll().value();
  ASSERT_EQ(records.size(), 1u);
  const auto& entry = records[0].struct_value();
  EXPECT_EQ(entry[1], Value::Int64(77));  // snapshot_id written, as Java does.
  EXPECT_TRUE(entry[2].is_null());        // sequence_number inherits.
  EXPECT_TRUE(entry[3].is_null());        // file_sequence_number inherits.
}

TEST_F(ManifestTest, AvroSchemaMatchesTheSpec) {
  auto writer = ManifestWriter::Make(*io_, Options("s-m0.avro")).value();
  ManifestFile m = writer->Close().value();
  EXPECT_EQ(m.added_files_count, 0);
  EXPECT_EQ(m.min_sequence_number, 7);
  std::string bytes = io_->Read(m.manifest_path).value();
  auto reader = avro::ContainerReader::Open(bytes).value();
  EXPECT_EQ(reader->codec(), avro::Codec::kDeflate);
  std::string json = reader->schema().ToJson();
  for (
      const char* expected :
      {R"("name":"manifest_entry")", R"("name":"r2")", R"("name":"r102")", R"("name":"k117_v118")",
       R"("name":"k126_v127")", R"("logicalType":"map")",
       R"("name":"ts_day","type":["null",{"type":"int","logicalType":"date"}],"default":null,"field-id":1000)",
       R"("name":"category","type":["null","string"],"default":null,"field-id":1001)",
       R"("element-id":133)", R"("field-id":143)"}) {
    EXPECT_NE(json.find(expected), std::string::npos) << expected << " not in " << json;
  }
}

TEST_F(ManifestTest, PartitionSummariesTrackNullsNaNsAndBounds) {
  Schema schema = Schema::Make(0, {{1, "d", false, Type::Double(), ""},
                                   {2, "ts", false, Type::TimestampTz(), ""},
                                   {3, "u", false, Type::Uuid(), ""},
                                   {4, "p", false, Type::Decimal(9, 2), ""}})
                      .value();
  ManifestWriterOptions o = Options("p-m0.avro");
  o.schema = &schema;
  o.spec = PartitionSpec::Make(schema, 3,
                               {{1, 1000, "d", Transform::Identity()},
                                {2, 1001, "ts", Transform::Identity()},
                                {3, 1002, "u", Transform::Identity()},
                                {4, 1003, "p", Transform::Identity()}})
               .value();
  auto writer = ManifestWriter::Make(*io_, o).value();
  auto file = [&](Value d, int64_t ts, Value p) {
    DataFile f;
    f.file_path = "/wh/db/t/data/x" + std::to_string(ts);
    f.spec_id = 3;
    f.partition = Value::MakeStruct(
        {std::move(d), Value::Int64(ts), Value::Binary(std::string(16, '\x11')), std::move(p)});
    f.record_count = 1;
    return f;
  };
  ASSERT_TRUE(writer->Add(file(Value::Double(2.5), 100, Value::Decimal(-5))).ok());
  ASSERT_TRUE(writer->Add(file(Value::Double(std::nan("")), 50, Value::Decimal(1234))).ok());
  ASSERT_TRUE(writer->Add(file(Value::Null(), 300, Value::Null())).ok());
  ASSERT_TRUE(writer->Add(file(Value::Double(-1.0), 200, Value::Decimal(7))).ok());
  ManifestFile m = writer->Close().value();
  ASSERT_EQ(m.partitions.size(), 4u);
  EXPECT_TRUE(m.partitions[0].contains_null);
  EXPECT_EQ(m.partitions[0].contains_nan, true);
  EXPECT_EQ(m.partitions[0].lower_bound,
            ToSingleValueBytes(*Type::Double(), Value::Double(-1.0)).value());
  EXPECT_EQ(m.partitions[0].upper_bound,
            ToSingleValueBytes(*Type::Double(), Value::Double(2.5)).value());
  EXPECT_FALSE(m.partitions[1].contains_null);
  EXPECT_EQ(m.partitions[1].contains_nan, false);
  EXPECT_EQ(m.partitions[1].lower_bound, std::string("\x32\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(m.partitions[1].upper_bound, std::string("\x2c\x01\0\0\0\0\0\0", 8));
  EXPECT_EQ(m.partitions[2].lower_bound, std::string(16, '\x11'));
  EXPECT_EQ(m.partitions[3].lower_bound, std::string("\xfb", 1));
  EXPECT_EQ(m.partitions[3].upper_bound, std::string("\x04\xd2", 2));

  auto reader = avro::ContainerReader::Open(io_->Read(m.manifest_path).value()).value();
  std::string json = reader->schema().ToJson();
  EXPECT_NE(json.find(R"({"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"({"type":"fixed","name":"uuid_fixed","size":16,"logicalType":"uuid"})"),
            std::string::npos)
      << json;
  EXPECT_NE(
      json.find(R"("name":"decimal_9_2","size":4,"logicalType":"decimal","precision":9,"scale":2)"),
      std::string::npos)
      << json;
  Manifest read = ReadManifest(*io_, m).value();
  ASSERT_EQ(read.entries.size(), 4u);
  EXPECT_EQ(read.entries[0].data_file.partition.struct_value()[3], Value::Decimal(-5));
  EXPECT_TRUE(std::isnan(read.entries[1].data_file.partition.struct_value()[0].double_value()));
}

TEST_F(ManifestTest, RejectsBadEntriesAndStaysFailed) {
  auto writer = ManifestWriter::Make(*io_, Options("e-m0.avro")).value();
  DataFile wrong_arity = MakeFile("a", 1, "x", 0, 1);
  wrong_arity.partition = Value::MakeStruct({Value::Int32(1)});
  EXPECT_EQ(writer->Add(wrong_arity).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(writer->Add(MakeFile("b", 1, "x", 0, 1)).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(writer->Close().error().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(io_->Exists("/wh/db/t/metadata/e-m0.avro").value());

  auto w2 = ManifestWriter::Make(*io_, Options("e-m1.avro")).value();
  ManifestEntry no_seq{ManifestEntryStatus::kExisting, 1, std::nullopt, std::nullopt,
                       MakeFile("c", 1, "x", 0, 1)};
  EXPECT_EQ(w2->AddEntry(no_seq).code(), StatusCode::kInvalidArgument);

  auto w3 = ManifestWriter::Make(*io_, Options("e-m2.avro")).value();
  DataFile wrong_type = MakeFile("d", 1, "x", 0, 1);
  wrong_type.partition =
      Value::MakeStruct({Value::String("2025-01-01"), Value::String("x"), Value::Int32(0)});
  EXPECT_EQ(w3->Add(wrong_type).code(), StatusCode::kInvalidArgument);

  ManifestWriterOptions outside = Options("x");
  outside.path = "/elsewhere/m.avro";
  EXPECT_EQ(ManifestWriter::Make(*io_, outside).error().code(), StatusCode::kInvalidArgument);
}

TEST_F(ManifestTest, CorruptFilesAreReportedAsCorruption) {
  auto writer = ManifestWriter::Make(*io_, Options("c-m0.avro")).value();
  ASSERT_TRUE(writer->Add(MakeFile("a", 1, "x", 0, 1)).ok());
  ManifestFile m = writer->Close().value();
  std::string bytes = io_->Read(m.manifest_path).value();
  for (size_t cut : {size_t{0}, size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
    auto r = ParseManifest(std::string_view(bytes).substr(0, cut), m);
    ASSERT_FALSE(r.has_value()) << cut;
    EXPECT_EQ(r.error().code(), StatusCode::kCorruption) << r.error().ToString();
    EXPECT_NE(r.error().message().find("c-m0.avro"), std::string::npos);
  }
  ManifestFile missing = m;
  missing.manifest_path = "/wh/db/t/metadata/missing.avro";
  EXPECT_EQ(ReadManifest(*io_, missing).error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace st::iceberg
