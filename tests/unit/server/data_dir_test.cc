// The data dir is the server user's alone: created 0700 with 0600 files, and
// an existing one with looser modes is tightened (and the changes reported).
#include "server/data_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "common/random.h"

namespace st::server {
namespace {

namespace fs = std::filesystem;

mode_t ModeOf(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

class DataDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "st-datadir-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    parent_ = pattern;
    old_umask_ = ::umask(022);  // Permissive, as a default login shell has.
  }
  void TearDown() override {
    ::umask(old_umask_);
    fs::remove_all(parent_);
  }

  fs::path parent_;
  mode_t old_umask_ = 0;
  DefaultRandom random_{1};
};

TEST_F(DataDirTest, FreshDataDirIsOwnerOnly) {
  fs::path root = parent_ / "data";
  auto layout = PrepareDataDir(root.string(), "", random_);
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  EXPECT_EQ(layout->repaired.files + layout->repaired.dirs, 0);
  EXPECT_EQ(layout->master_key_path, (root / "keys" / "master.key").string());
  for (const char* dir : {"", "catalog", "objects", "keys"}) {
    EXPECT_EQ(ModeOf(root / dir), 0700u) << dir;
  }
  EXPECT_EQ(ModeOf(root / "account-id"), 0600u);
}

TEST_F(DataDirTest, ExistingLooseModesAreTightenedAndReported) {
  fs::path root = parent_ / "data";
  ASSERT_TRUE(PrepareDataDir(root.string(), "", random_).has_value());
  // What an older release left: 0755 folders, 0644 files.
  fs::create_directories(root / "objects" / "wh" / "data");
  std::ofstream(root / "objects" / "wh" / "data" / "f.parquet") << "x";
  std::ofstream(root / "catalog" / "catalog.db") << "x";
  std::ofstream(parent_ / "outside") << "x";
  fs::create_symlink(parent_ / "outside", root / "objects" / "link");
  ::chmod(root.c_str(), 0755);
  ::chmod((root / "catalog").c_str(), 0755);
  ::chmod((root / "objects" / "wh").c_str(), 0755);
  ::chmod((root / "objects" / "wh" / "data").c_str(), 0755);
  ::chmod((root / "catalog" / "catalog.db").c_str(), 0644);
  ::chmod((root / "objects" / "wh" / "data" / "f.parquet").c_str(), 0664);
  ::chmod((root / "account-id").c_str(), 0644);
  ::chmod((parent_ / "outside").c_str(), 0644);

  auto layout = PrepareDataDir(root.string(), "", random_);
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  EXPECT_EQ(layout->repaired.dirs, 4);
  EXPECT_EQ(layout->repaired.files, 3);
  ASSERT_EQ(layout->repaired.examples.size(), 7u);
  bool named = false;
  for (const std::string& example : layout->repaired.examples) {
    named |= example == (root / "catalog" / "catalog.db").string() + " 0644";
  }
  EXPECT_TRUE(named);
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_symlink()) continue;
    EXPECT_EQ(ModeOf(entry.path()), entry.is_directory() ? 0700u : 0600u) << entry.path();
  }
  EXPECT_EQ(ModeOf(parent_ / "outside"), 0644u) << "a link's target outside is not ours";

  auto again = PrepareDataDir(root.string(), "", random_);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->repaired.files + again->repaired.dirs, 0);
}

TEST_F(DataDirTest, ReplicaIdIsGeneratedOnceThenKeptOrRenamedByTheFlag) {
  fs::path root = parent_ / "data";
  auto layout = PrepareDataDir(root.string(), "", random_);
  ASSERT_TRUE(layout.has_value()) << layout.error().ToString();
  auto first = SettleReplicaId(*layout, "", random_);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_TRUE(first->starts_with("r-")) << *first;
  EXPECT_EQ(first->size(), 14u);
  EXPECT_EQ(ModeOf(root / "replica-id"), 0600u);
  auto again = SettleReplicaId(*layout, "", random_);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *first);  // Kept across restarts.
  auto renamed = SettleReplicaId(*layout, "replica-b.2", random_);
  ASSERT_TRUE(renamed.has_value());
  EXPECT_EQ(*renamed, "replica-b.2");
  auto kept = SettleReplicaId(*layout, "", random_);
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(*kept, "replica-b.2");
}

TEST_F(DataDirTest, ReplicaIdsAreValidated) {
  EXPECT_TRUE(IsValidReplicaId("a"));
  EXPECT_TRUE(IsValidReplicaId(std::string(64, 'x')));
  EXPECT_FALSE(IsValidReplicaId(""));
  EXPECT_FALSE(IsValidReplicaId(std::string(65, 'x')));
  EXPECT_FALSE(IsValidReplicaId("a b"));
  EXPECT_FALSE(IsValidReplicaId("a/b"));
  EXPECT_FALSE(IsValidReplicaId("a\nb"));
  fs::path root = parent_ / "data";
  auto layout = PrepareDataDir(root.string(), "", random_);
  ASSERT_TRUE(layout.has_value());
  std::ofstream(root / "replica-id") << "bad id!";
  auto stored = SettleReplicaId(*layout, "", random_);
  ASSERT_FALSE(stored.has_value());
  EXPECT_EQ(stored.error().code(), StatusCode::kCorruption);
  auto flag = SettleReplicaId(*layout, "../x", random_);
  ASSERT_FALSE(flag.has_value());
  EXPECT_EQ(flag.error().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace st::server
