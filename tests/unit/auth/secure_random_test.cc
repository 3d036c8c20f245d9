// The CSPRNG behind key material, and the credential formats drawn from it.
#include "auth/secure_random.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "catalog/id_generation.h"
#include "common/random.h"

namespace st::auth {
namespace {

TEST(SecureRandomTest, BytesAndChars) {
  auto a = SecureRandomBytes(32);
  auto b = SecureRandomBytes(32);
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(a->size(), 32u);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(SecureRandomBytes(0)->size(), 0u);

  // 62 does not divide 256: rejection sampling keeps the counts even.
  constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  auto chars = SecureRandomChars(kAlphabet, 62 * 2000);
  ASSERT_TRUE(chars.has_value());
  ASSERT_EQ(chars->size(), 62u * 2000);
  std::map<char, int> counts;
  for (char c : *chars) ++counts[c];
  EXPECT_EQ(counts.size(), 62u);
  for (const auto& [c, n] : counts) {
    // Expected 2000 each, sd ~44: 6 sd either way.
    EXPECT_GT(n, 1730) << c;
    EXPECT_LT(n, 2270) << c;
  }
  EXPECT_FALSE(SecureRandomChars("", 4).has_value());
  EXPECT_EQ(SecureRandomChars("x", 3).value(), "xxx");
}

bool AllIn(const std::string& text, std::string_view alphabet) {
  for (char c : text) {
    if (alphabet.find(c) == std::string_view::npos) return false;
  }
  return true;
}

// The formats clients and the admin key file rely on are unchanged, and the
// seeded Random no longer decides them: two Randoms with the same seed give
// different keys (they used to give the same ones).
TEST(SecureRandomTest, CredentialFormatsUnchanged) {
  DefaultRandom first(7);
  DefaultRandom second(7);
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    std::string key = catalog::NewAccessKeyId(first);
    ASSERT_EQ(key.size(), 20u);
    EXPECT_EQ(key.substr(0, 4), "AKIA");
    EXPECT_TRUE(AllIn(key.substr(4), "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")) << key;
    std::string secret = catalog::NewSecretAccessKey(first);
    ASSERT_EQ(secret.size(), 40u);
    EXPECT_TRUE(AllIn(secret, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"))
        << secret;
    EXPECT_TRUE(seen.insert(key).second);
    EXPECT_TRUE(seen.insert(secret).second);
  }
  EXPECT_NE(catalog::NewAccessKeyId(first), catalog::NewAccessKeyId(second));
  EXPECT_NE(catalog::NewSecretAccessKey(first), catalog::NewSecretAccessKey(second));
  // Ids other than credentials stay deterministic for tests.
  DefaultRandom third(7);
  DefaultRandom fourth(7);
  EXPECT_EQ(catalog::NewEntityId(third), catalog::NewEntityId(fourth));
}

}  // namespace
}  // namespace st::auth
