#include "registry/glue_arns.h"

#include <gtest/gtest.h>

namespace st::registry {
namespace {

TEST(GlueArns, BuildAndParse) {
  EXPECT_EQ(RegistryArn("us-east-1", "111122223333", "reg"),
            "arn:aws:glue:us-east-1:111122223333:registry/reg");
  std::string arn = SchemaArn("us-east-1", "111122223333", "reg", "s.1");
  EXPECT_EQ(arn, "arn:aws:glue:us-east-1:111122223333:schema/reg/s.1");
  auto parts = ParseSchemaArn(arn);
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->region, "us-east-1");
  EXPECT_EQ(parts->account_id, "111122223333");
  EXPECT_EQ(parts->registry_name, "reg");
  EXPECT_EQ(parts->schema_name, "s.1");
  auto registry = ParseRegistryArn("arn:aws:glue:eu-west-1:111122223333:registry/r$#");
  ASSERT_TRUE(registry.has_value());
  EXPECT_EQ(registry->registry_name, "r$#");
}

TEST(GlueArns, RejectsOtherShapes) {
  for (const char* bad : {"arn:aws:glue:us-east-1:111122223333:schema/reg",
                          "arn:aws:glue:us-east-1:111122223333:schema/reg/s/extra",
                          "arn:aws:s3tables:us-east-1:111122223333:schema/reg/s",
                          "arn:aws:glue:us-east-1:111122223333:registry/reg",
                          "arn:aws:glue:us-east-1:111122223333:schema/reg/bad name", "nonsense"}) {
    auto parsed = ParseSchemaArn(bad);
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_EQ(parsed.error().code(), StatusCode::kInvalidArgument);
  }
  EXPECT_FALSE(ParseRegistryArn("arn:aws:glue:us-east-1:111122223333:registry/a/b").has_value());
}

TEST(GlueArns, Names) {
  EXPECT_TRUE(ValidateGlueName("schema name", "a-b_c$d#e.f9").ok());
  EXPECT_FALSE(ValidateGlueName("schema name", "").ok());
  EXPECT_FALSE(ValidateGlueName("schema name", std::string(256, 'a')).ok());
  Status bad = ValidateGlueName("schema name", "a/b");
  EXPECT_NE(bad.message().find("schema name 'a/b'"), std::string::npos);
}

}  // namespace
}  // namespace st::registry
