#include "iceberg/table_commit.h"

#include "file_table_fixture.h"
#include "iceberg/append.h"

namespace st::iceberg {
namespace {

class TableCommitTest : public FileTableTest {};

TEST_F(TableCommitTest, WritesVersionsWithMetadataLog) {
  MetadataVersion v0 = WriteInitialMetadata(*io_, metadata_, random_).value();
  EXPECT_EQ(v0.location.rfind("/wh/db/t/metadata/00000-", 0), 0u);
  EXPECT_NE(v0.location.find(".metadata.json"), std::string::npos);
  EXPECT_EQ(ReadMetadata(*io_, v0.location).value().metadata, metadata_);

  Tick();
  SnapshotCommit c = FastAppend(v0.metadata, {MakeFile("a", 1, "x", 0, 1)}, {}, Ctx()).value();
  NewVersion v1 = WriteNextMetadata(*io_, v0, c.metadata, random_).value();
  EXPECT_EQ(v1.version.location.rfind("/wh/db/t/metadata/00001-", 0), 0u);
  ASSERT_EQ(v1.version.metadata.metadata_log.size(), 1u);
  EXPECT_EQ(v1.version.metadata.metadata_log[0].metadata_file, v0.location);
  EXPECT_EQ(v1.version.metadata.metadata_log[0].timestamp_ms, kStartMs);
  MetadataVersion read = ReadMetadata(*io_, v1.version.location).value();
  EXPECT_EQ(read.metadata, v1.version.metadata);
  EXPECT_EQ(read.metadata.CurrentSnapshot()->summary.at("total-data-files"), "1");
  EXPECT_TRUE(v1.dropped_from_log.empty());
}

TEST_F(TableCommitTest, TrimsTheMetadataLog) {
  metadata_.properties[kMetadataPreviousVersionsMax] = "2";
  MetadataVersion v = WriteInitialMetadata(*io_, metadata_, random_).value();
  std::vector<std::string> locations = {v.location};
  std::vector<std::string> dropped;
  for (int i = 0; i < 4; ++i) {
    NewVersion next = WriteNextMetadata(*io_, v, v.metadata, random_).value();
    for (auto& d : next.dropped_from_log) dropped.push_back(d);
    v = next.version;
    locations.push_back(v.location);
  }
  EXPECT_EQ(v.location.rfind("/wh/db/t/metadata/00004-", 0), 0u);
  ASSERT_EQ(v.metadata.metadata_log.size(), 2u);
  EXPECT_EQ(v.metadata.metadata_log[0].metadata_file, locations[2]);
  EXPECT_EQ(v.metadata.metadata_log[1].metadata_file, locations[3]);
  EXPECT_EQ(dropped, (std::vector<std::string>{locations[0], locations[1]}));
}

TEST_F(TableCommitTest, NeverOverwritesAndRefusesInvalidMetadata) {
  DefaultRandom a(7), b(7);
  ASSERT_TRUE(WriteInitialMetadata(*io_, metadata_, a).has_value());
  EXPECT_EQ(WriteInitialMetadata(*io_, metadata_, b).error().code(), StatusCode::kAlreadyExists);
  TableMetadata bad = metadata_;
  bad.current_schema_id = 5;
  EXPECT_EQ(WriteInitialMetadata(*io_, bad, random_).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadMetadata(*io_, "/wh/db/t/metadata/none.metadata.json").error().code(),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace st::iceberg
