// Loading the server master key: created once in the data dir (0600), read
// back unchanged, taken from the operator's file by flag or environment, and
// refused with a message naming the file when malformed.
#include "server/master_key.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace st::server {
namespace {

class MasterKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-mkey-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& bytes, mode_t mode = 0600) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    ::chmod(path.c_str(), mode);
    return path;
  }

  std::string dir_;
};

TEST_F(MasterKeyTest, DefaultFileIsCreatedOnceOwnerOnlyAndReadBack) {
  mode_t old = ::umask(022);
  std::string path = dir_ + "/master.key";
  auto first = LoadMasterKey({"", "", path});
  ::umask(old);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_TRUE(first->created);
  EXPECT_EQ(first->bytes.size(), 32u);
  EXPECT_EQ(first->origin, "data dir");
  EXPECT_TRUE(first->warning.empty());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(st.st_size, 65);  // 64 hex digits and a newline.

  auto second = LoadMasterKey({"", "", path});
  ASSERT_TRUE(second.has_value());
  EXPECT_FALSE(second->created);
  EXPECT_EQ(second->bytes, first->bytes);
  // No temporary file left behind.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST_F(MasterKeyTest, OperatorFileRawOrHexFlagBeforeEnvironment) {
  std::string raw(32, '\x07');
  std::string raw_path = Write("raw.key", raw);
  std::string hex_path = Write("hex.key", std::string(64, 'a') + "\n");
  std::string default_path = dir_ + "/master.key";

  auto flag = LoadMasterKey({raw_path, hex_path, default_path});
  ASSERT_TRUE(flag.has_value()) << flag.error().ToString();
  EXPECT_EQ(flag->bytes, raw);
  EXPECT_EQ(flag->origin, "--master-key-file");
  EXPECT_FALSE(flag->created);

  auto env = LoadMasterKey({"", hex_path, default_path});
  ASSERT_TRUE(env.has_value()) << env.error().ToString();
  EXPECT_EQ(env->bytes, std::string(32, '\xaa'));
  EXPECT_EQ(env->origin, "STREAMTABLES_MASTER_KEY_FILE");
  EXPECT_FALSE(std::filesystem::exists(default_path)) << "an operator's key never makes a file";
}

TEST_F(MasterKeyTest, BadOperatorFilesAreRefusedNamingTheFile) {
  std::string short_path = Write("short.key", std::string(31, 'x'));
  std::string not_hex = Write("nothex.key", std::string(63, 'a') + "g");
  std::string missing = dir_ + "/missing.key";
  for (const std::string& path : {short_path, not_hex, missing}) {
    auto key = LoadMasterKey({path, "", dir_ + "/master.key"});
    ASSERT_FALSE(key.has_value()) << path;
    EXPECT_EQ(key.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(key.error().message().find(path), std::string::npos) << key.error().message();
    EXPECT_NE(key.error().message().find("--master-key-file"), std::string::npos);
  }
  // A damaged default file is not replaced by a new key (that would orphan the secrets).
  std::string damaged = Write("master.key", "abc");
  auto key = LoadMasterKey({"", "", damaged});
  ASSERT_FALSE(key.has_value());
  EXPECT_EQ(key.error().code(), StatusCode::kCorruption);
  EXPECT_NE(key.error().message().find("backup"), std::string::npos);
}

TEST_F(MasterKeyTest, ReadableByOthersWarnsAndDiscardRemovesOnlyCreated) {
  std::string path = Write("open.key", std::string(32, 'k'), 0644);
  auto key = LoadMasterKey({path, "", ""});
  ASSERT_TRUE(key.has_value());
  EXPECT_NE(key->warning.find("0644"), std::string::npos) << key->warning;
  DiscardCreatedMasterKey(*key);
  EXPECT_TRUE(std::filesystem::exists(path));

  auto created = LoadMasterKey({"", "", dir_ + "/master.key"});
  ASSERT_TRUE(created.has_value());
  DiscardCreatedMasterKey(*created);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/master.key"));
}

}  // namespace
}  // namespace st::server
