#include "iceberg/append.h"

#include "file_table_fixture.h"

namespace st::iceberg {
namespace {

class AppendTest : public FileTableTest {};

TEST_F(AppendTest, FirstAndSecondAppendCarryTotals) {
  SnapshotCommit first =
      FastAppend(metadata_,
                 {MakeFile("a", 20089, "books", 1, 10), MakeFile("b", 20089, "books", 1, 5)},
                 {{"streamtables.channel", "orders"}}, Ctx())
          .value();
  const TableMetadata& m1 = first.metadata;
  ASSERT_EQ(m1.snapshots.size(), 1u);
  const Snapshot& s1 = m1.snapshots[0];
  EXPECT_EQ(s1.snapshot_id, first.snapshot_id);
  EXPECT_GT(s1.snapshot_id, 0);
  EXPECT_FALSE(s1.parent_snapshot_id.has_value());
  EXPECT_EQ(s1.sequence_number, 1);
  EXPECT_EQ(m1.last_sequence_number, 1);
  EXPECT_EQ(m1.current_snapshot_id, s1.snapshot_id);
  EXPECT_EQ(m1.refs.at("main").snapshot_id, s1.snapshot_id);
  ASSERT_EQ(m1.snapshot_log.size(), 1u);
  EXPECT_EQ(m1.last_updated_ms, kStartMs);
  EXPECT_EQ(s1.timestamp_ms, kStartMs);
  EXPECT_EQ(
      s1.manifest_list.rfind("/wh/db/t/metadata/snap-" + std::to_string(s1.snapshot_id) + "-1-", 0),
      0u);
  EXPECT_EQ(s1.summary, (SnapshotSummary{{"operation", "append"},
                                         {"added-data-files", "2"},
                                         {"added-records", "15"},
                                         {"added-files-size", "2150"},
                                         {"changed-partition-count", "1"},
                                         {"total-records", "15"},
                                         {"total-files-size", "2150"},
                                         {"total-data-files", "2"},
                                         {"total-delete-files", "0"},
                                         {"total-position-deletes", "0"},
                                         {"total-equality-deletes", "0"},
                                         {"manifests-created", "1"},
                                         {"manifests-kept", "0"},
                                         {"manifests-replaced", "0"},
                                         {"streamtables.channel", "orders"}}));
  EXPECT_EQ(first.written_files.size(), 2u);
  EXPECT_TRUE(m1.Validate().ok());

  Tick();
  SnapshotCommit second =
      FastAppend(m1, {MakeFile("c", 20090, "toys", 2, 7)}, {{"operation", "ignored"}}, Ctx())
          .value();
  const Snapshot& s2 = *second.metadata.CurrentSnapshot();
  EXPECT_EQ(s2.parent_snapshot_id, s1.snapshot_id);
  EXPECT_EQ(s2.sequence_number, 2);
  EXPECT_EQ(s2.summary.at("operation"), "append");
  EXPECT_EQ(s2.summary.at("total-records"), "22");
  EXPECT_EQ(s2.summary.at("total-data-files"), "3");
  EXPECT_EQ(s2.summary.at("total-files-size"), "3220");
  EXPECT_EQ(s2.summary.at("manifests-kept"), "1");
  EXPECT_EQ(second.metadata.snapshot_log.size(), 2u);
  EXPECT_EQ(second.metadata.last_updated_ms, kStartMs + 1000);

  auto manifests = CurrentManifests(second.metadata);
  ASSERT_EQ(manifests.size(), 2u);
  EXPECT_EQ(manifests[0].sequence_number, 2);  // New first, the reused one unchanged.
  EXPECT_EQ(manifests[1], CurrentManifests(m1)[0]);
  auto entries = Entries(second.metadata);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].sequence_number, 2);
  EXPECT_EQ(entries[1].sequence_number, 1);
  EXPECT_EQ(entries[1].snapshot_id, s1.snapshot_id);
}

TEST_F(AppendTest, RejectsUnknownSpecsAndDeleteFiles) {
  DataFile f = MakeFile("a", 1, "x", 0, 1);
  f.spec_id = 9;
  EXPECT_EQ(FastAppend(metadata_, {f}, {}, Ctx()).error().code(), StatusCode::kInvalidArgument);
  DataFile d = MakeFile("d", 1, "x", 0, 1);
  d.content = DataFileContent::kPositionDeletes;
  EXPECT_EQ(FastAppend(metadata_, {d}, {}, Ctx()).error().code(), StatusCode::kInvalidArgument);
}

TEST_F(AppendTest, MergesManifestsAtTheThreshold) {
  metadata_.properties[kManifestMinCountToMerge] = "4";
  TableMetadata m = metadata_;
  std::vector<std::string> expected;
  std::vector<size_t> manifest_counts;
  for (int i = 0; i < 10; ++i) {
    Tick();
    DataFile f = MakeFile("f" + std::to_string(i), 20089 + i % 3, "c", i % 4, i + 1);
    expected.push_back(f.file_path);
    SnapshotCommit c = FastAppend(m, {f}, {}, Ctx()).value();
    m = c.metadata;
    manifest_counts.push_back(CurrentManifests(m).size());
  }
  // 1, 2, 3 manifests, then the 4th commit folds all into one, and so on.
  EXPECT_EQ(manifest_counts, (std::vector<size_t>{1, 2, 3, 1, 2, 3, 1, 2, 3, 1}));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(LivePaths(m), expected);
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("manifests-replaced"), "3");
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("manifests-kept"), "0");
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-data-files"), "10");

  auto manifests = CurrentManifests(m);
  ASSERT_EQ(manifests.size(), 1u);
  EXPECT_EQ(manifests[0].added_files_count, 1);
  EXPECT_EQ(manifests[0].existing_files_count, 9);
  EXPECT_EQ(manifests[0].min_sequence_number, 1);
  EXPECT_EQ(manifests[0].sequence_number, 10);
  // Carried entries keep their own snapshot and sequence numbers.
  for (const ManifestEntry& e : Entries(m)) {
    const std::string& path = e.data_file.file_path;
    int i = std::stoi(path.substr(path.rfind("/f") + 2));
    EXPECT_EQ(e.sequence_number, i + 1) << path;
    EXPECT_EQ(e.status, i == 9 ? ManifestEntryStatus::kAdded : ManifestEntryStatus::kExisting);
    EXPECT_EQ(m.SnapshotById(*e.snapshot_id)->sequence_number, i + 1);
  }
}

TEST_F(AppendTest, MergeCanBeDisabled) {
  metadata_.properties[kManifestMinCountToMerge] = "2";
  metadata_.properties[kManifestMergeEnabled] = "false";
  TableMetadata m = metadata_;
  for (int i = 0; i < 5; ++i)
    m = FastAppend(m, {MakeFile(std::to_string(i), 1, "x", 0, 1)}, {}, Ctx())->metadata;
  EXPECT_EQ(CurrentManifests(m).size(), 5u);
}

TEST_F(AppendTest, LargeManifestsAreNotMerged) {
  metadata_.properties[kManifestMinCountToMerge] = "2";
  metadata_.properties[kManifestTargetSizeBytes] = "10";  // Every manifest is "large".
  TableMetadata m = metadata_;
  for (int i = 0; i < 3; ++i)
    m = FastAppend(m, {MakeFile(std::to_string(i), 1, "x", 0, 1)}, {}, Ctx())->metadata;
  EXPECT_EQ(CurrentManifests(m).size(), 3u);
}

}  // namespace
}  // namespace st::iceberg
