#include "iceberg/file_io.h"

#include "file_table_fixture.h"
#include "iceberg/table_paths.h"

namespace st::iceberg {
namespace {

class FileIOTest : public FileTableTest {};

TEST_F(FileIOTest, MapsUrisUnderThePrefixToKeys) {
  FileIO s3(*store_, "s3://abc--table-s3", "buckets/abc");
  EXPECT_EQ(s3.KeyFor("s3://abc--table-s3/db/t/data/x.parquet").value(),
            "buckets/abc/db/t/data/x.parquet");
  EXPECT_EQ(s3.UriFor("buckets/abc/m.json").value(), "s3://abc--table-s3/m.json");
  EXPECT_EQ(s3.KeyFor("s3://abc--table-s3x/y").error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s3.KeyFor("s3://other/y").error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s3.KeyFor("s3://abc--table-s3/a/../b").error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s3.UriFor("elsewhere/k").error().code(), StatusCode::kInvalidArgument);

  FileIO local(*store_, "/wh", "");
  EXPECT_EQ(local.KeyFor("/wh/db/t/x").value(), "db/t/x");
  EXPECT_EQ(local.KeyFor("/wh2/x").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(FileIOTest, ReadWriteDeleteByUri) {
  const std::string uri = "/wh/db/t/metadata/00000-a.metadata.json";
  ASSERT_TRUE(io_->WriteIfAbsent(uri, "v0").ok());
  EXPECT_EQ(io_->WriteIfAbsent(uri, "v1").code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(io_->Read(uri).value(), "v0");
  EXPECT_TRUE(io_->Exists(uri).value());
  ASSERT_TRUE(io_->Write(uri, "v2").ok());
  EXPECT_EQ(store_->Get("db/t/metadata/00000-a.metadata.json").value(), "v2");
  auto writer = io_->NewWriter("/wh/db/t/data/big").value();
  ASSERT_TRUE(writer->Write("abc").ok());
  ASSERT_TRUE(writer->Commit().ok());
  EXPECT_EQ(io_->Read("/wh/db/t/data/big").value(), "abc");
  ASSERT_TRUE(io_->Delete(uri).ok());
  EXPECT_FALSE(io_->Exists(uri).value());
  EXPECT_EQ(io_->Read(uri).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(io_->Read("relative/x").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(FileIOTest, TablePathsFollowJavaConventions) {
  EXPECT_EQ(MetadataDirectory(metadata_), "/wh/db/t/metadata");
  EXPECT_EQ(DataDirectory(metadata_), "/wh/db/t/data");
  EXPECT_EQ(ManifestListPath(metadata_, 42, 1, "u"), "/wh/db/t/metadata/snap-42-1-u.avro");
  EXPECT_EQ(ManifestPath(metadata_, "u", 3), "/wh/db/t/metadata/u-m3.avro");
  EXPECT_EQ(MetadataFilePath(metadata_, 7, "u"), "/wh/db/t/metadata/00007-u.metadata.json");
  EXPECT_EQ(MetadataFileVersion("/wh/db/t/metadata/00012-u.metadata.json"), 12);
  EXPECT_EQ(MetadataFileVersion("/wh/db/t/metadata/v3.metadata.json"), -1);
  TableMetadata custom = metadata_;
  custom.properties["write.metadata.path"] = "/wh/meta/";
  custom.properties["write.data.path"] = "/wh/data";
  EXPECT_EQ(MetadataDirectory(custom), "/wh/meta");
  EXPECT_EQ(DataDirectory(custom), "/wh/data");
}

}  // namespace
}  // namespace st::iceberg
