#include "common/uuid.h"

#include <gtest/gtest.h>

#include <string>

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

// Hyphens where digits belong, with the four separators in place: each used
// to be skipped too, walking the parse past the end of the text (a heap
// over-read under ASan, found by the kms_blob fuzz target).
TEST(UuidTest, RejectsHyphensWhereDigitsBelong) {
  EXPECT_FALSE(Uuid::Parse(std::string(36, '-')).has_value());
  // On the heap (37 bytes with the terminator), so ASan sees a read past it.
  const std::string extra_hyphens = "0b8f9a2e-3c1d-4e5e-3c1d-4e5f-8a9b-05";
  EXPECT_FALSE(Uuid::Parse(extra_hyphens).has_value());
  EXPECT_FALSE(Uuid::Parse("-c12d441-03fe-4693-9a96-a0705ddf69c1").has_value());
  EXPECT_FALSE(Uuid::Parse("9c12d441-03fe-4693-9a96-a0705ddf69-1").has_value());
}

}  // namespace
}  // namespace st
