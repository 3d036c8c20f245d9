#include "common/percent_encoding.h"

#include <gtest/gtest.h>

namespace st {
namespace {

struct EncodeCase {
  std::string_view text;
  std::string_view also_keep;
  std::string_view want;
};

TEST(PercentEncodeTest, KeepsOnlyUnreservedAndAskedFor) {
  const EncodeCase cases[] = {
      {"AZaz09-._~", "", "AZaz09-._~"},
      {"a b+c*", "", "a%20b%2Bc%2A"},
      {"arn:aws:s3tables:us-east-1:111122223333:bucket/b", "",
       "arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fb"},
      {"dir/sub key", "/", "dir/sub%20key"},
      {"\xC3\xA9\x01\xFF", "", "%C3%A9%01%FF"},
      {"", "", ""},
  };
  for (const EncodeCase& c : cases) {
    EXPECT_EQ(PercentEncode(c.text, c.also_keep), c.want) << c.text;
  }
}

TEST(JavaUrlEncoderCompatibleEncodeTest, MatchesJavaUrlEncoder) {
  // Outputs of java.net.URLEncoder.encode(text, StandardCharsets.UTF_8).
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"AZaz09.-*_", "AZaz09.-*_"},
      {"a b", "a+b"},
      {"~/:+", "%7E%2F%3A%2B"},
      {"\xC3\xA9", "%C3%A9"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(JavaUrlEncoderCompatibleEncode(text), want);
}

}  // namespace
}  // namespace st
