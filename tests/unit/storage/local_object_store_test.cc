#include "storage/local_object_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

namespace st::storage {
namespace {

class LocalObjectStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(::testing::TempDir()) /
            ("st-store-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
    store_ = OpenLocalObjectStore(root_.string()).value();
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::filesystem::path root_;
  std::unique_ptr<ObjectStore> store_;
};

// Objects are tenants' data: owner-only whatever the umask (an older store
// wrote 0644 files in 0755 folders).
TEST_F(LocalObjectStoreTest, ObjectsAndTheirFoldersAreOwnerOnly) {
  std::filesystem::remove_all(root_);
  mode_t old = ::umask(022);
  store_ = OpenLocalObjectStore((root_ / "objects").string()).value();
  Status put = store_->Put("wh/metadata/deep/v1.metadata.json", "{}");
  ::umask(old);
  ASSERT_TRUE(put.ok()) << put.ToString();
  auto mode = [](const std::filesystem::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return st.st_mode & 07777;
  };
  for (const char* dir :
       {"", "/objects", "/objects/wh", "/objects/wh/metadata", "/objects/wh/metadata/deep"}) {
    EXPECT_EQ(mode(root_.string() + dir), 0700u) << dir;
  }
  EXPECT_EQ(mode(root_ / "objects/wh/metadata/deep/v1.metadata.json"), 0600u);
}

TEST_F(LocalObjectStoreTest, ReaderStreamsTheVersionItOpened) {
  ASSERT_TRUE(store_->Put("t/data/a.bin", "hello world").ok());
  auto reader = store_->OpenReader("t/data/a.bin");
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  EXPECT_EQ((*reader)->info().key, "t/data/a.bin");
  EXPECT_EQ((*reader)->info().size_bytes, 11);
  // Replaced and then deleted while the reader is open: it keeps the old bytes.
  ASSERT_TRUE(store_->Put("t/data/a.bin", "replaced").ok());
  ASSERT_TRUE(store_->Delete("t/data/a.bin").ok());
  char buffer[8];
  EXPECT_EQ((*reader)->ReadAt(0, buffer, 5).value(), 5u);
  EXPECT_EQ(std::string(buffer, 5), "hello");
  EXPECT_EQ((*reader)->ReadAt(6, buffer, sizeof buffer).value(), 5u);
  EXPECT_EQ(std::string(buffer, 5), "world");
  EXPECT_EQ((*reader)->ReadAt(11, buffer, sizeof buffer).value(), 0u);
  EXPECT_EQ((*reader)->ReadAt(-1, buffer, 1).error().code(), StatusCode::kInvalidArgument);

  EXPECT_EQ(store_->OpenReader("t/data/a.bin").error().code(), StatusCode::kNotFound);
  ASSERT_TRUE(store_->Put("t/data/b.bin", "x").ok());
  EXPECT_EQ(store_->OpenReader("t/data/b.bin/c").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->OpenReader("t/data").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->OpenReader("t/../x").error().code(), StatusCode::kInvalidArgument);
}

// The interface's default reader, as a store without its own override gets it.
TEST_F(LocalObjectStoreTest, DefaultReaderGoesThroughGetRange) {
  ASSERT_TRUE(store_->Put("t/a", "0123456789").ok());
  auto reader = store_->ObjectStore::OpenReader("t/a");
  ASSERT_TRUE(reader.has_value()) << reader.error().ToString();
  EXPECT_EQ((*reader)->info().size_bytes, 10);
  char buffer[16];
  EXPECT_EQ((*reader)->ReadAt(7, buffer, sizeof buffer).value(), 3u);
  EXPECT_EQ(std::string(buffer, 3), "789");
  EXPECT_EQ((*reader)->ReadAt(10, buffer, sizeof buffer).value(), 0u);
  EXPECT_EQ(store_->ObjectStore::OpenReader("t/missing").error().code(), StatusCode::kNotFound);
}

TEST_F(LocalObjectStoreTest, PutGetHeadRangeListDelete) {
  ASSERT_TRUE(store_->Put("t/data/a.bin", "hello world").ok());
  ASSERT_TRUE(store_->Put("t/metadata/m.json", "{}").ok());
  EXPECT_EQ(store_->Get("t/data/a.bin").value(), "hello world");
  EXPECT_EQ(store_->GetRange("t/data/a.bin", 6, 100).value(), "world");
  EXPECT_EQ(store_->GetRange("t/data/a.bin", 11, 5).value(), "");
  EXPECT_EQ(store_->GetRange("t/data/a.bin", 12, 5).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Head("t/data/a.bin")->size_bytes, 11);
  auto all = store_->List("t/").value();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].key, "t/data/a.bin");
  EXPECT_EQ(store_->List("t/da").value().size(), 1u);
  EXPECT_TRUE(store_->List("nope/").value().empty());
  ASSERT_TRUE(store_->Delete("t/data/a.bin").ok());
  ASSERT_TRUE(store_->Delete("t/data/a.bin").ok());
  EXPECT_EQ(store_->Get("t/data/a.bin").error().code(), StatusCode::kNotFound);
}

TEST_F(LocalObjectStoreTest, PutIfAbsentNeverOverwrites) {
  ASSERT_TRUE(store_->PutIfAbsent("m/v1.json", "one").ok());
  EXPECT_EQ(store_->PutIfAbsent("m/v1.json", "two").code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->Get("m/v1.json").value(), "one");
}

TEST_F(LocalObjectStoreTest, UncommittedWriterIsInvisibleAndDiscarded) {
  {
    auto w = store_->NewWriter("d/f.parquet").value();
    ASSERT_TRUE(w->Write("partial", 7).ok());
    EXPECT_EQ(store_->Head("d/f.parquet").error().code(), StatusCode::kNotFound);
    EXPECT_TRUE(store_->List("d/").value().empty());
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(root_ / "d"),
                          std::filesystem::directory_iterator()),
            0);
  auto w = store_->NewWriter("d/f.parquet").value();
  ASSERT_TRUE(w->Write("whole", 5).ok());
  EXPECT_EQ(w->Position(), 5);
  ASSERT_TRUE(w->Commit().ok());
  EXPECT_EQ(store_->Get("d/f.parquet").value(), "whole");
}

TEST_F(LocalObjectStoreTest, RejectsBadKeys) {
  for (const char* key : {"", "/abs", "a//b", "a/../b", "./a", "a/", ".st-tmp-x"}) {
    EXPECT_EQ(store_->Put(key, "x").code(), StatusCode::kInvalidArgument) << key;
  }
}

}  // namespace
}  // namespace st::storage
