#include "common/uuid.h"

#include <gtest/gtest.h>

namespace st {
namespace {

TEST(UuidTest, RoundTripsAndIsVersion4) {
  DefaultRandom random(42);
  Uuid u = Uuid::Generate(random);
  std::string text = u.ToString();
  EXPECT_EQ(text.size(), 36u);
  EXPECT_EQ(text[14], '4');
  auto parsed = Uuid::Parse(text);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, u);
}

TEST(UuidTest, RejectsMalformed) {
  EXPECT_FALSE(Uuid::Parse("not-a-uuid").has_value());
  EXPECT_FALSE(Uuid::Parse("9c12d441-03fe-4693-9a96-a0705ddf69cZ").has_value());
  EXPECT_EQ(Uuid::Parse("9C12D441-03FE-4693-9A96-A0705DDF69C1")->ToString(),
            "9c12d441-03fe-4693-9a96-a0705ddf69c1");
}

}  // namespace
}  // namespace st
