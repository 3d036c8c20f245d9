#include "iceberg/manifest_list.h"

#include "avro/container.h"
#include "file_table_fixture.h"

namespace st::iceberg {
namespace {

class ManifestListTest : public FileTableTest {};

ManifestFile Sample(int n) {
  ManifestFile m;
  m.manifest_path = "/wh/db/t/metadata/u-m" + std::to_string(n) + ".avro";
  m.manifest_length = 1234 + n;
  m.partition_spec_id = n % 2;
  m.content = n == 2 ? ManifestContent::kDeletes : ManifestContent::kData;
  m.sequence_number = 9;
  m.min_sequence_number = 3;
  m.added_snapshot_id = 1000 + n;
  m.added_files_count = 1;
  m.existing_files_count = 2;
  m.deleted_files_count = 3;
  m.added_rows_count = 10;
  m.existing_rows_count = 20;
  m.deleted_rows_count = 30;
  m.partitions = {{true, false, std::string("\x01\0\0\0", 4), std::string("\x09\0\0\0", 4)},
                  {false, std::nullopt, std::nullopt, std::nullopt}};
  if (n == 1) m.key_metadata = "k";
  return m;
}

TEST_F(ManifestListTest, RoundTripWithFileMetadata) {
  std::vector<ManifestFile> manifests = {Sample(0), Sample(1), Sample(2)};
  std::string path = "/wh/db/t/metadata/snap-5-1-u.avro";
  ASSERT_TRUE(WriteManifestList(*io_, path, {5, 4, 9}, manifests, &random_).ok());
  EXPECT_EQ(ReadManifestList(*io_, path).value(), manifests);
  EXPECT_EQ(WriteManifestList(*io_, path, {5, 4, 9}, manifests).code(), StatusCode::kAlreadyExists);

  std::string bytes = io_->Read(path).value();
  auto reader = avro::ContainerReader::Open(bytes).value();
  EXPECT_EQ(reader->FindMetadata("snapshot-id"), "5");
  EXPECT_EQ(reader->FindMetadata("parent-snapshot-id"), "4");
  EXPECT_EQ(reader->FindMetadata("sequence-number"), "9");
  EXPECT_EQ(reader->FindMetadata("format-version"), "2");
  std::string json = reader->schema().ToJson();
  EXPECT_NE(json.find(R"("name":"manifest_file")"), std::string::npos);
  EXPECT_NE(json.find(R"("name":"r508")"), std::string::npos);
  EXPECT_NE(json.find(R"("element-id":508)"), std::string::npos);
  EXPECT_NE(json.find(R"("name":"min_sequence_number","type":"long","field-id":516)"),
            std::string::npos)
      << json;
}

TEST_F(ManifestListTest, NoParentIsWrittenAsNullString) {
  std::string bytes = EncodeManifestList({5, std::nullopt, 1}, {}).value();
  auto reader = avro::ContainerReader::Open(bytes).value();
  EXPECT_EQ(reader->FindMetadata("parent-snapshot-id"), "null");
  EXPECT_TRUE(ParseManifestList(bytes, "x").value().empty());
}

TEST_F(ManifestListTest, CorruptionAndMissingFiles) {
  std::string bytes = EncodeManifestList({5, 4, 9}, {Sample(0)}).value();
  auto r = ParseManifestList(bytes.substr(0, bytes.size() - 5), "manifest list L");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), StatusCode::kCorruption);
  EXPECT_NE(r.error().message().find("manifest list L"), std::string::npos);
  EXPECT_EQ(ReadManifestList(*io_, "/wh/db/t/metadata/none.avro").error().code(),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace st::iceberg
