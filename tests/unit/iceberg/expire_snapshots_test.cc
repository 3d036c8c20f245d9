#include "iceberg/expire_snapshots.h"

#include "file_table_fixture.h"
#include "iceberg/append.h"
#include "iceberg/delete.h"
#include "iceberg/rewrite.h"

namespace st::iceberg {
namespace {

class ExpireSnapshotsTest : public FileTableTest {};

TEST_F(ExpireSnapshotsTest, ReportsOnlyFilesNoRemainingSnapshotReaches) {
  // s1: append a, b.  s2: append c.  s3: replace a+b by ab.  s4: delete c.
  TableMetadata m = metadata_;
  std::vector<SnapshotCommit> commits;
  auto step = [&](Result<SnapshotCommit> c) {
    ASSERT_TRUE(c.has_value()) << c.error().ToString();
    commits.push_back(*c);
    m = c->metadata;
    clock_.Advance(std::chrono::hours(1));
  };
  step(FastAppend(m, {MakeFile("a", 1, "x", 0, 1), MakeFile("b", 1, "x", 0, 2)}, {}, Ctx()));
  step(FastAppend(m, {MakeFile("c", 2, "y", 1, 3)}, {}, Ctx()));
  step(ReplaceFiles(m, {"/wh/db/t/data/a.parquet", "/wh/db/t/data/b.parquet"},
                    {MakeFile("ab", 1, "x", 0, 3)}, {}, Ctx()));
  step(DeleteFiles(m, {"/wh/db/t/data/c.parquet"}, {}, Ctx()));
  ASSERT_EQ(m.snapshots.size(), 4u);

  // Nothing is old enough: unchanged.
  ExpireResult none = ExpireSnapshots(m, {kStartMs - 1, 1}, *io_, clock_).value();
  EXPECT_TRUE(none.expired_snapshot_ids.empty());
  EXPECT_EQ(none.metadata, m);

  // Expire s1 and s2 (older than s3); s3 and s4 stay.
  int64_t cutoff = commits[2].metadata.CurrentSnapshot()->timestamp_ms;
  ExpireResult r = ExpireSnapshots(m, {cutoff, 1}, *io_, clock_).value();
  EXPECT_EQ(r.expired_snapshot_ids,
            (std::vector<int64_t>{commits[0].snapshot_id, commits[1].snapshot_id}));
  ASSERT_EQ(r.metadata.snapshots.size(), 2u);
  EXPECT_EQ(r.metadata.current_snapshot_id, m.current_snapshot_id);
  EXPECT_EQ(r.metadata.snapshot_log.size(), 2u);
  EXPECT_TRUE(r.metadata.Validate().ok()) << r.metadata.Validate().ToString();
  std::vector<std::string> lists = {commits[0].manifest_list, commits[1].manifest_list};
  std::sort(lists.begin(), lists.end());
  EXPECT_EQ(r.manifest_lists, lists);
  // a and b were replaced in s3 (still reached as DELETED entries only); c is
  // live in s3 and stays.
  EXPECT_EQ(r.data_files,
            (std::vector<std::string>{"/wh/db/t/data/a.parquet", "/wh/db/t/data/b.parquet"}));
  // s1's manifest (a, b) was rewritten by s3; s2's manifest (c) by s4... but
  // s3 still lists it, so only s1's original manifest is unreachable.
  ASSERT_EQ(r.manifests.size(), 1u);
  EXPECT_EQ(r.manifests[0], commits[0].written_files[0]);

  // retain_last keeps history regardless of age.
  ExpireResult keep3 = ExpireSnapshots(m, {clock_.NowMillis(), 3}, *io_, clock_).value();
  EXPECT_EQ(keep3.expired_snapshot_ids, (std::vector<int64_t>{commits[0].snapshot_id}));
  EXPECT_TRUE(keep3.data_files.empty());  // a, b still live in s2.

  // Everything but the head: c is gone too (deleted in s4).
  ExpireResult all = ExpireSnapshots(m, {clock_.NowMillis(), 1}, *io_, clock_).value();
  EXPECT_EQ(all.expired_snapshot_ids.size(), 3u);
  EXPECT_EQ(all.data_files,
            (std::vector<std::string>{"/wh/db/t/data/a.parquet", "/wh/db/t/data/b.parquet",
                                      "/wh/db/t/data/c.parquet"}));
  EXPECT_EQ(all.metadata.snapshots.size(), 1u);
  EXPECT_EQ(ExpireSnapshots(m, {0, 0}, *io_, clock_).error().code(), StatusCode::kInvalidArgument);
}

TEST_F(ExpireSnapshotsTest, NeverExpiresReferencedSnapshots) {
  TableMetadata m = FastAppend(metadata_, {MakeFile("a", 1, "x", 0, 1)}, {}, Ctx())->metadata;
  int64_t tagged = *m.current_snapshot_id;
  m.refs["audit"] = SnapshotRef{tagged, SnapshotRefType::kTag};
  clock_.Advance(std::chrono::hours(1));
  m = FastAppend(m, {MakeFile("b", 1, "x", 0, 1)}, {}, Ctx())->metadata;
  clock_.Advance(std::chrono::hours(1));
  ExpireResult r = ExpireSnapshots(m, {clock_.NowMillis(), 1}, *io_, clock_).value();
  EXPECT_TRUE(r.expired_snapshot_ids.empty());
  EXPECT_EQ(r.metadata.snapshots.size(), 2u);
}

}  // namespace
}  // namespace st::iceberg
