#include "iceberg/rewrite.h"

#include "file_table_fixture.h"
#include "iceberg/append.h"
#include "iceberg/delete.h"

namespace st::iceberg {
namespace {

class RewriteTest : public FileTableTest {
 protected:
  // Two appends: a, b (books) then c (toys).
  TableMetadata TwoAppends() {
    TableMetadata m =
        FastAppend(metadata_,
                   {MakeFile("a", 20089, "books", 1, 10), MakeFile("b", 20089, "books", 1, 5)}, {},
                   Ctx())
            ->metadata;
    Tick();
    return FastAppend(m, {MakeFile("c", 20090, "toys", 2, 7)}, {}, Ctx())->metadata;
  }
};

TEST_F(RewriteTest, ReplaceMarksRemovedFilesDeletedWithExplicitSequenceNumbers) {
  TableMetadata base = TwoAppends();
  Tick();
  DataFile compacted = MakeFile("ab", 20089, "books", 1, 15);
  SnapshotCommit c = ReplaceFiles(base, {"/wh/db/t/data/a.parquet", "/wh/db/t/data/b.parquet"},
                                  {compacted}, {}, Ctx())
                         .value();
  const Snapshot& s = *c.metadata.CurrentSnapshot();
  EXPECT_EQ(s.sequence_number, 3);
  EXPECT_EQ(s.parent_snapshot_id, base.current_snapshot_id);
  EXPECT_EQ(s.summary.at("operation"), "replace");
  EXPECT_EQ(s.summary.at("added-data-files"), "1");
  EXPECT_EQ(s.summary.at("deleted-data-files"), "2");
  EXPECT_EQ(s.summary.at("added-records"), "15");
  EXPECT_EQ(s.summary.at("deleted-records"), "15");
  EXPECT_EQ(s.summary.at("removed-files-size"), "2150");
  EXPECT_EQ(s.summary.at("changed-partition-count"), "1");
  EXPECT_EQ(s.summary.at("total-records"), "22");
  EXPECT_EQ(s.summary.at("total-data-files"), "2");
  EXPECT_EQ(s.summary.at("manifests-created"), "2");
  EXPECT_EQ(s.summary.at("manifests-kept"), "1");
  EXPECT_EQ(s.summary.at("manifests-replaced"), "1");
  EXPECT_EQ(LivePaths(c.metadata),
            (std::vector<std::string>{"/wh/db/t/data/ab.parquet", "/wh/db/t/data/c.parquet"}));

  int deleted = 0;
  for (const ManifestEntry& e : Entries(c.metadata)) {
    if (e.status != ManifestEntryStatus::kDeleted) continue;
    ++deleted;
    EXPECT_EQ(e.snapshot_id, c.snapshot_id);
    EXPECT_EQ(e.sequence_number, 1);  // The data's own number, not the replace's.
    EXPECT_EQ(e.file_sequence_number, 1);
  }
  EXPECT_EQ(deleted, 2);
}

// Files from two manifests: the two rewritten manifests become one (per
// spec), so a compaction of N one-file manifests does not leave N manifests
// for every reader to open until the next append.
TEST_F(RewriteTest, ReplaceMergesTheTouchedManifestsIntoOne) {
  TableMetadata base = TwoAppends();
  Tick();
  DataFile compacted = MakeFile("ac", 20089, "books", 1, 17);
  SnapshotCommit c = ReplaceFiles(base, {"/wh/db/t/data/a.parquet", "/wh/db/t/data/c.parquet"},
                                  {compacted}, {}, Ctx())
                         .value();
  const Snapshot& s = *c.metadata.CurrentSnapshot();
  EXPECT_EQ(s.summary.at("manifests-created"), "2");  // The added one and the merged one.
  EXPECT_EQ(s.summary.at("manifests-replaced"), "2");
  EXPECT_EQ(s.summary.at("manifests-kept"), "0");
  EXPECT_EQ(s.summary.at("deleted-data-files"), "2");
  EXPECT_EQ(LivePaths(c.metadata),
            (std::vector<std::string>{"/wh/db/t/data/ac.parquet", "/wh/db/t/data/b.parquet"}));
  int deleted = 0, existing = 0;
  for (const ManifestEntry& e : Entries(c.metadata)) {
    if (e.status == ManifestEntryStatus::kDeleted) ++deleted;
    if (e.status == ManifestEntryStatus::kExisting) {
      ++existing;
      EXPECT_EQ(e.sequence_number, 1);  // b keeps its own numbers.
    }
  }
  EXPECT_EQ(deleted, 2);
  EXPECT_EQ(existing, 1);
}

TEST_F(RewriteTest, OverwriteIsAReplaceWithFewerRowsUnderItsOwnOperation) {
  TableMetadata base = TwoAppends();
  Tick();
  // b loses two rows; c loses all of its rows.
  DataFile smaller = MakeFile("b2", 20089, "books", 1, 3);
  SnapshotCommit c = OverwriteFiles(base, {"/wh/db/t/data/b.parquet", "/wh/db/t/data/c.parquet"},
                                    {smaller}, {{"reason", "ttl"}}, Ctx())
                         .value();
  const Snapshot& s = *c.metadata.CurrentSnapshot();
  EXPECT_EQ(s.summary.at("operation"), "overwrite");
  EXPECT_EQ(s.summary.at("added-data-files"), "1");
  EXPECT_EQ(s.summary.at("deleted-data-files"), "2");
  EXPECT_EQ(s.summary.at("added-records"), "3");
  EXPECT_EQ(s.summary.at("deleted-records"), "12");
  EXPECT_EQ(s.summary.at("total-records"), "13");
  EXPECT_EQ(s.summary.at("changed-partition-count"), "2");
  EXPECT_EQ(s.summary.at("reason"), "ttl");
  EXPECT_EQ(LivePaths(c.metadata),
            (std::vector<std::string>{"/wh/db/t/data/a.parquet", "/wh/db/t/data/b2.parquet"}));
  // Nothing added: still an overwrite.
  SnapshotCommit none =
      OverwriteFiles(c.metadata, {"/wh/db/t/data/a.parquet"}, {}, {}, Ctx()).value();
  EXPECT_EQ(none.metadata.CurrentSnapshot()->summary.at("operation"), "overwrite");
  EXPECT_EQ(LivePaths(none.metadata), (std::vector<std::string>{"/wh/db/t/data/b2.parquet"}));
  EXPECT_EQ(OverwriteFiles(base, {}, {smaller}, {}, Ctx()).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(
      OverwriteFiles(none.metadata, {"/wh/db/t/data/a.parquet"}, {}, {}, Ctx()).error().code(),
      StatusCode::kConflict);
  // ReplaceFiles keeps its own operation.
  EXPECT_EQ(ReplaceFiles(base, {"/wh/db/t/data/c.parquet"}, {MakeFile("c2", 20090, "toys", 2, 7)},
                         {}, Ctx())
                ->metadata.CurrentSnapshot()
                ->summary.at("operation"),
            "replace");
}

TEST_F(RewriteTest, RemovingAFileThatIsNotLiveIsAConflict) {
  TableMetadata base = TwoAppends();
  SnapshotCommit first = DeleteFiles(base, {"/wh/db/t/data/a.parquet"}, {}, Ctx()).value();
  // A compaction planned on `first`'s parent that still removes a.
  auto conflict = ReplaceFiles(first.metadata, {"/wh/db/t/data/a.parquet"},
                               {MakeFile("z", 20089, "books", 1, 1)}, {}, Ctx());
  ASSERT_FALSE(conflict.has_value());
  EXPECT_EQ(conflict.error().code(), StatusCode::kConflict);
  EXPECT_NE(conflict.error().message().find("a.parquet"), std::string::npos);
  EXPECT_EQ(DeleteFiles(base, {"/wh/db/t/data/nope.parquet"}, {}, Ctx()).error().code(),
            StatusCode::kConflict);
  EXPECT_EQ(DeleteFiles(base, {}, {}, Ctx()).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(DeleteFiles(base, {"/wh/db/t/data/c.parquet", "/wh/db/t/data/c.parquet"}, {}, Ctx())
                .error()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(DeleteFiles(metadata_, {"/wh/db/t/data/c.parquet"}, {}, Ctx()).error().code(),
            StatusCode::kConflict);
}

TEST_F(RewriteTest, DeleteRemovesWholeFiles) {
  TableMetadata base = TwoAppends();
  Tick();
  SnapshotCommit c =
      DeleteFiles(base, {"/wh/db/t/data/c.parquet"}, {{"reason", "ttl"}}, Ctx()).value();
  const Snapshot& s = *c.metadata.CurrentSnapshot();
  EXPECT_EQ(s.summary, (SnapshotSummary{{"operation", "delete"},
                                        {"deleted-data-files", "1"},
                                        {"deleted-records", "7"},
                                        {"removed-files-size", "1070"},
                                        {"changed-partition-count", "1"},
                                        {"total-records", "15"},
                                        {"total-files-size", "2150"},
                                        {"total-data-files", "2"},
                                        {"total-delete-files", "0"},
                                        {"total-position-deletes", "0"},
                                        {"total-equality-deletes", "0"},
                                        {"manifests-created", "1"},
                                        {"manifests-kept", "1"},
                                        {"manifests-replaced", "1"},
                                        {"reason", "ttl"}}));
  EXPECT_EQ(LivePaths(c.metadata),
            (std::vector<std::string>{"/wh/db/t/data/a.parquet", "/wh/db/t/data/b.parquet"}));
  // The next snapshot leaves out the manifest that only records c's deletion.
  SnapshotCommit again = DeleteFiles(c.metadata, {"/wh/db/t/data/a.parquet"}, {}, Ctx()).value();
  int deleted = 0;
  for (const ManifestEntry& e : Entries(again.metadata))
    deleted += e.status == ManifestEntryStatus::kDeleted;
  EXPECT_EQ(deleted, 1);
  EXPECT_EQ(CurrentManifests(again.metadata).size(), 1u);
  EXPECT_EQ(LivePaths(again.metadata), (std::vector<std::string>{"/wh/db/t/data/b.parquet"}));
}

}  // namespace
}  // namespace st::iceberg
