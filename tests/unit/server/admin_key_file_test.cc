#include "server/admin_key_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace st::server {
namespace {

TEST(AdminKeyFileTest, WritesMode0600JsonAndReplaces) {
  std::string pattern = (std::filesystem::temp_directory_path() / "st-keys-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  std::string path = AdminKeyFilePath(pattern);
  AdminKeyFile file{{"arn:aws:iam::111122223333:user/admin", "AKIAEXAMPLE", "secret", true},
                    "us-east-1",
                    "111122223333",
                    "http://127.0.0.1:1",
                    "http://127.0.0.1:2"};
  ASSERT_TRUE(WriteAdminKeyFile(path, file).ok());
  file.api_url = "http://127.0.0.1:3";
  ASSERT_TRUE(WriteAdminKeyFile(path, file).ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto doc = nlohmann::json::parse(text.str());
  EXPECT_EQ(doc["access_key_id"], "AKIAEXAMPLE");
  EXPECT_EQ(doc["secret_access_key"], "secret");
  EXPECT_EQ(doc["region"], "us-east-1");
  EXPECT_EQ(doc["account_id"], "111122223333");
  EXPECT_EQ(doc["endpoints"]["api"], "http://127.0.0.1:3");
  EXPECT_EQ(doc["endpoints"]["iceberg"], "http://127.0.0.1:3/iceberg");
  EXPECT_EQ(doc["endpoints"]["s3"], "http://127.0.0.1:2");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove_all(pattern);
}

}  // namespace
}  // namespace st::server
