#include "common/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace st::common {
namespace {

TEST(Base64Test, EncodesTheRfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode(std::string("\xff\x00\xfe", 3)), "/wD+");
}

TEST(Base64Test, UrlAlphabetWithoutPadding) {
  const std::string bytes("\xfb\xff\xbf", 3);
  EXPECT_EQ(Base64Encode(bytes), "+/+/");
  EXPECT_EQ(Base64Encode(bytes, Base64Alphabet::kUrl), "-_-_");
  EXPECT_EQ(Base64Encode("fo", Base64Alphabet::kUrl, Base64Padding::kOptional), "Zm8");
  EXPECT_EQ(Base64Decode("-_-_", Base64Alphabet::kUrl), bytes);
  EXPECT_FALSE(Base64Decode("-_-_").has_value());  // Not the standard alphabet.
  EXPECT_FALSE(Base64Decode("+/+/", Base64Alphabet::kUrl).has_value());
}

TEST(Base64Test, EveryByteStringRoundTripsInBothPaddingModes) {
  std::string bytes;
  for (int n = 0; n < 300; ++n) {
    for (Base64Padding padding : {Base64Padding::kRequired, Base64Padding::kOptional}) {
      std::string text = Base64Encode(bytes, Base64Alphabet::kStandard, padding);
      EXPECT_EQ(Base64Decode(text, Base64Alphabet::kStandard, padding), bytes) << text;
    }
    bytes.push_back(static_cast<char>((n * 37 + 11) & 0xff));
  }
}

TEST(Base64Test, RefusesWhatNoCanonicalEncodingGives) {
  EXPECT_FALSE(Base64Decode("Zm8").has_value());  // Padding required.
  EXPECT_EQ(Base64Decode("Zm8", Base64Alphabet::kStandard, Base64Padding::kOptional), "fo");
  EXPECT_EQ(Base64Decode("Zm8=", Base64Alphabet::kStandard, Base64Padding::kOptional), "fo");
  for (const char* bad :
       {"Z=8=", "Zm8=Zm8=", "Zm!=", "Zm9=", "Zh==", "Z===", "=", "Zm8==", "Zm 8", "Zm8\n"}) {
    EXPECT_FALSE(Base64Decode(bad).has_value()) << bad;
    EXPECT_FALSE(Base64Decode(bad, Base64Alphabet::kStandard, Base64Padding::kOptional)) << bad;
  }
  EXPECT_FALSE(Base64Decode("Zm9vY", Base64Alphabet::kStandard, Base64Padding::kOptional));
}

TEST(Base64Test, DecodeAppendKeepsWhatWasThere) {
  std::string out = "x";
  EXPECT_TRUE(Base64DecodeAppend("Zm9v", &out));
  EXPECT_EQ(out, "xfoo");
}

}  // namespace
}  // namespace st::common
