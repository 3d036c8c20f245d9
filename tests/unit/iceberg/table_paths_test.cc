#include "iceberg/table_paths.h"

#include <gtest/gtest.h>

namespace st::iceberg {
namespace {

constexpr const char* kRoot = "s3://0123abcd-x--table-s3";

TEST(TablePathsTest, PlainLocationsUnderTheRootPass) {
  for (const char* ok : {
           "s3://0123abcd-x--table-s3/metadata/00001-abc.metadata.json",
           "s3://0123abcd-x--table-s3/metadata/v.metadata.json.gz",
           "s3://0123abcd-x--table-s3/x",
           "s3://0123abcd-x--table-s3/data/name=a%20b/f.parquet",  // Only '.', '/', '\', '%'
                                                                   // encodings are refused.
           "s3://0123abcd-x--table-s3/a..b/.hidden/c.",
       }) {
    EXPECT_TRUE(CheckLocationUnder(ok, kRoot, "location").ok()) << ok;
    EXPECT_TRUE(CheckLocationUnder(ok, std::string(kRoot) + "/", "location").ok()) << ok;
  }
}

TEST(TablePathsTest, TraversalAndItsEncodingsAreRefused) {
  struct Case {
    const char* location;
    const char* reason;
  };
  const Case cases[] = {
      {"s3://0123abcd-x--table-s3/../other--table-s3/metadata/x.metadata.json", "'..'"},
      {"s3://0123abcd-x--table-s3/metadata/../../other/x.metadata.json", "'..'"},
      {"s3://0123abcd-x--table-s3/./metadata/x.metadata.json", "'.'"},
      {"s3://0123abcd-x--table-s3/%2e%2e/other/metadata/x.metadata.json", "percent-encoded"},
      {"s3://0123abcd-x--table-s3/%2E%2E/other/x.metadata.json", "percent-encoded"},
      {"s3://0123abcd-x--table-s3/..%2Fother/x.metadata.json", "percent-encoded"},
      {"s3://0123abcd-x--table-s3/%252e%252e/x.metadata.json", "percent-encoded"},
      {"s3://0123abcd-x--table-s3/..\\other\\x.metadata.json", "backslash"},
      {"s3://0123abcd-x--table-s3/a%5c..%5cb/x.metadata.json", "percent-encoded"},
      {"s3://0123abcd-x--table-s3//other/x.metadata.json", "empty path segment"},
      {"s3://0123abcd-x--table-s3/metadata/", "empty path segment"},
      {"s3://0123abcd-x--table-s3/a\nb", "control character"},
      {"s3://0123abcd-x--table-s3/a%00b", "percent-encoded"},
      {"s3://0123abcd-x--table-s3", "not under"},
      {"s3://0123abcd-x--table-s3/", "names the root"},
      {"s3://0123abcd-x--table-s3-other/metadata/x.metadata.json", "not under"},
      {"s3://other--table-s3/metadata/x.metadata.json", "not under"},
      {"S3://0123abcd-x--table-s3/metadata/x.metadata.json", "not under"},
  };
  for (const Case& c : cases) {
    Status status = CheckLocationUnder(c.location, kRoot, "The metadata location");
    ASSERT_FALSE(status.ok()) << c.location;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find(c.reason), std::string::npos)
        << c.location << " -> " << status.message();
    EXPECT_NE(status.message().find("The metadata location '"), std::string::npos);
  }
}

TEST(TablePathsTest, LocationPropertiesMustStayUnderTheTable) {
  EXPECT_TRUE(CheckLocationProperties({{"write.data.path", std::string(kRoot) + "/data/"},
                                       {"write.metadata.path", std::string(kRoot) + "/meta"},
                                       {"other", "s3://elsewhere/.."}},
                                      kRoot)
                  .ok());
  for (const char* name : {"write.data.path", "write.metadata.path", "write.object-storage.path",
                           "write.folder-storage.path"}) {
    Status bad =
        CheckLocationProperties({{name, std::string(kRoot) + "/../victim--table-s3"}}, kRoot);
    ASSERT_FALSE(bad.ok()) << name;
    EXPECT_NE(bad.message().find(std::string("table property ") + name), std::string::npos)
        << bad.message();
    EXPECT_FALSE(CheckLocationProperties({{name, "s3://victim--table-s3/data"}}, kRoot).ok());
  }
}

}  // namespace
}  // namespace st::iceberg
