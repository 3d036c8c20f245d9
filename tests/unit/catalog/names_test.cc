#include "catalog/names.h"

#include <gtest/gtest.h>

#include <string>

#include "catalog/arns.h"
#include "catalog/id_generation.h"
#include "common/random.h"

namespace st::catalog {
namespace {

struct NameCase {
  std::string name;
  bool valid;
};

TEST(NamesTest, TableBucketNames) {
  const NameCase cases[] = {
      {"abc", true},           {"my-bucket-1", true},         {std::string(63, 'a'), true},
      {"ab", false},           {std::string(64, 'a'), false}, {"My-Bucket", false},
      {"under_score", false},  {"-leading", false},           {"trailing-", false},
      {"xn--punycode", false}, {"sthree-x", false},           {"amzn-s3-demo-bucket", false},
      {"awsbucket", false},    {"data-s3alias", false},       {"data--ol-s3", false},
      {"data--x-s3", false},   {"data--table-s3", false},     {"a.b.c", false},
  };
  for (const NameCase& c : cases) {
    Status status = ValidateTableBucketName(c.name);
    EXPECT_EQ(status.ok(), c.valid) << c.name << ": " << status.ToString();
    if (!c.valid) {
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    }
  }
}

TEST(NamesTest, NamespaceAndTableNames) {
  const NameCase cases[] = {
      {"a", true},         {"sales_2024", true},
      {"0abc", true},      {std::string(255, 'x'), true},
      {"", false},         {std::string(256, 'x'), false},
      {"Sales", false},    {"with-dash", false},
      {"_leading", false}, {"dot.ted", false},
      {"sp ace", false},
  };
  for (const NameCase& c : cases) {
    EXPECT_EQ(ValidateTableName(c.name).ok(), c.valid) << c.name;
    EXPECT_EQ(ValidateNamespaceName(c.name).ok(), c.valid) << c.name;
  }
  EXPECT_FALSE(ValidateNamespaceName("aws_internal").ok());
  EXPECT_TRUE(ValidateTableName("aws_internal").ok());
}

TEST(NamesTest, AccountIamAndTags) {
  EXPECT_TRUE(ValidateAccountId("111122223333").ok());
  EXPECT_FALSE(ValidateAccountId("11112222333").ok());
  EXPECT_FALSE(ValidateAccountId("11112222333a").ok());
  EXPECT_TRUE(ValidateIamName("admin").ok());
  EXPECT_TRUE(ValidateIamName("Deploy+Bot=1,a.b@c_d-e").ok());
  EXPECT_FALSE(ValidateIamName("").ok());
  EXPECT_FALSE(ValidateIamName("has space").ok());
  EXPECT_FALSE(ValidateIamName(std::string(65, 'a')).ok());
  EXPECT_TRUE(ValidateTag("team", "").ok());
  EXPECT_FALSE(ValidateTag("", "v").ok());
  EXPECT_FALSE(ValidateTag("aws:reserved", "v").ok());
  EXPECT_FALSE(ValidateTag("k", std::string(257, 'v')).ok());
}

// AWS's tag character set, as one table for every tagging path.
TEST(NamesTest, TagCharacterSet) {
  using namespace std::string_literals;
  struct Case {
    std::string key;
    std::string value;
    const char* error;  // nullptr: valid.
  };
  const std::string e_acute = "\xC3\xA9";              // é
  const std::string cjk = "\xE6\x97\xA5\xE6\x9C\xAC";  // 日本
  const std::string arabic_digit = "\xD9\xA3";         // ٣
  const std::string nbsp = "\xC2\xA0";
  const Case cases[] = {
      {"team", "", nullptr},
      {"Team Name_1.a:b/c=d+e-f@g", "Value with spaces _.:/=+-@", nullptr},
      {"caf" + e_acute, cjk + arabic_digit + nbsp, nullptr},
      {std::string(128, 'k'), std::string(256, 'v'), nullptr},
      {std::string(64, 'k') +
           [&] {
             std::string s;
             for (int i = 0; i < 64; ++i) s += e_acute;
             return s;
           }(),
       "", nullptr},  // 128 characters in 192 bytes.
      {"", "v", "1 to 128 characters"},
      {std::string(129, 'k'), "v", "1 to 128 characters"},
      {"k", std::string(257, 'v'), "at most 256 characters"},
      {"aws:reserved", "v", "prefix 'aws:' is reserved"},
      {"k\0ey"s, "v", "contains U+0000"},
      {"k", "v\0"s, "value of tag 'k' contains U+0000"},
      {"tab\tkey", "v", "contains U+0009"},
      {"new\nline", "v", "contains U+000A"},
      {"k", "v\x7F", "contains U+007F"},
      {"semi;colon", "v", "contains U+003B"},
      {"k", "a,b", "contains U+002C"},
      {"star*", "v", "contains U+002A"},
      {"quote\"", "v", "contains U+0022"},
      {"k", "<script>", "contains U+003C"},
      {"k\xC2\x85", "v", "contains U+0085"},              // NEL (C1 control)
      {"zero\xE2\x80\x8Bwidth", "v", "contains U+200B"},  // Zero-width space (format)
      {"bidi\xE2\x80\xAE", "v", "contains U+202E"},       // Right-to-left override
      {"k", "\xEF\xBB\xBF", "contains U+FEFF"},           // BOM
      {"k", "\xEE\x80\x80", "contains U+E000"},           // Private use
      {"k", "\xF0\x9F\x98\x80", "contains U+1F600"},      // Emoji
      {"k", "\xE2\x82\xAC", "contains U+20AC"},           // Euro sign
      {"bad\xFF", "v", "not valid UTF-8 at byte 3"},
      {"k", "\xC0\xAF", "not valid UTF-8 at byte 0"},      // Overlong '/'
      {"k", "\xED\xA0\x80", "not valid UTF-8 at byte 0"},  // Surrogate
      {"k", "\xE6\x97", "not valid UTF-8 at byte 0"},      // Truncated
  };
  for (const Case& c : cases) {
    Status status = ValidateTag(c.key, c.value);
    if (c.error == nullptr) {
      EXPECT_TRUE(status.ok()) << c.key << ": " << status.ToString();
      continue;
    }
    ASSERT_FALSE(status.ok()) << c.key;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find(c.error), std::string::npos) << status.message();
    // The message shows control bytes escaped, never raw.
    EXPECT_EQ(status.message().find('\0'), std::string::npos);
    EXPECT_EQ(status.message().find('\n'), std::string::npos);
  }
}

TEST(ArnsTest, BuildAndParse) {
  std::string bucket = TableBucketArn("us-east-1", "111122223333", "analytics");
  EXPECT_EQ(bucket, "arn:aws:s3tables:us-east-1:111122223333:bucket/analytics");
  auto parts = ParseTableBucketArn(bucket);
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->region, "us-east-1");
  EXPECT_EQ(parts->account_id, "111122223333");
  EXPECT_EQ(parts->bucket_name, "analytics");

  std::string table = TableArn(bucket, "5f1c0a4e-1111-4222-8333-444455556666");
  auto table_parts = ParseTableArn(table);
  ASSERT_TRUE(table_parts.has_value());
  EXPECT_EQ(table_parts->bucket_arn, bucket);
  EXPECT_EQ(table_parts->table_id, "5f1c0a4e-1111-4222-8333-444455556666");

  EXPECT_FALSE(ParseTableBucketArn(table).has_value());
  EXPECT_FALSE(ParseTableArn(bucket).has_value());
  for (const char* bad : {"", "arn:aws:s3:::bucket", "arn:aws:s3tables:us-east-1:123:bucket/abc",
                          "arn:aws:s3tables:us-east-1:111122223333:bucket/a",
                          "arn:aws:s3tables:us-east-1:111122223333:table/abc",
                          "arn:aws:s3tables:us-east-1:111122223333:bucket/abc/table/",
                          "arn:aws:s3tables:us-east-1:111122223333:bucket/abc/table/a b"}) {
    EXPECT_FALSE(ParseTableBucketArn(bad).has_value() && ParseTableArn(bad).has_value()) << bad;
    EXPECT_EQ(ParseTableArn(bad).error().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(IamUserArn("111122223333", "admin"), "arn:aws:iam::111122223333:user/admin");
  EXPECT_EQ(IamRoleArn("111122223333", "r"), "arn:aws:iam::111122223333:role/r");
}

TEST(IdGenerationTest, Shapes) {
  DefaultRandom random(7);
  std::string wh = NewWarehouseLocation(random);
  std::string bucket = WarehouseBucketName(wh);
  EXPECT_EQ(wh, "s3://" + bucket);
  EXPECT_EQ(bucket.size(), 63u);
  EXPECT_EQ(bucket.substr(53), "--table-s3");
  for (char c : bucket) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  std::string key = NewAccessKeyId(random);
  EXPECT_EQ(key.size(), 20u);
  EXPECT_EQ(key.substr(0, 4), "AKIA");
  EXPECT_EQ(NewSecretAccessKey(random).size(), 40u);
  std::string token = NewVersionToken(random);
  EXPECT_EQ(token.size(), 20u);
  EXPECT_NE(token, NewVersionToken(random));
  EXPECT_EQ(NewEntityId(random).size(), 36u);
}

}  // namespace
}  // namespace st::catalog
