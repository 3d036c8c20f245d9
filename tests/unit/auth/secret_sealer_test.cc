// AES-256-GCM sealing of secrets at rest: round trip, format, tamper and
// wrong-key detection, and a vector from an independent implementation.
#include "auth/secret_sealer.h"

#include <gtest/gtest.h>

#include <set>

namespace st::auth {
namespace {

constexpr std::string_view kSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
constexpr std::string_view kKeyId = "AKIAEXAMPLEEXAMPLE01";

std::string KeyOf(char base) {
  std::string key(32, '\0');
  for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<char>(base + i);
  return key;
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::unique_ptr<AesGcmSecretSealer> Sealer(char base = 0) {
  auto sealer = AesGcmSecretSealer::Make(KeyOf(base));
  EXPECT_TRUE(sealer.has_value()) << sealer.error().ToString();
  return std::move(*sealer);
}

TEST(SecretSealerTest, RoundTripWithVersionByteAndFreshNonces) {
  auto sealer = Sealer();
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    auto sealed = sealer->Seal(kSecret, kKeyId);
    ASSERT_TRUE(sealed.has_value()) << sealed.error().ToString();
    ASSERT_EQ(sealed->size(), 1 + 12 + kSecret.size() + 16);
    EXPECT_EQ(static_cast<unsigned char>((*sealed)[0]), 0x01);
    EXPECT_EQ(sealed->find(kSecret), std::string::npos);
    EXPECT_TRUE(seen.insert(sealed->substr(1, 12)).second) << "nonce reused";
    auto opened = sealer->Unseal(*sealed, kKeyId);
    ASSERT_TRUE(opened.has_value()) << opened.error().ToString();
    EXPECT_EQ(*opened, kSecret);
  }
  auto empty = sealer->Seal("", kKeyId);
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(sealer->Unseal(*empty, kKeyId).value(), "");
}

// Made by pyca/cryptography (OpenSSL underneath, but not our code):
//   AESGCM(bytes(range(32))).encrypt(bytes(range(100, 112)), secret, b"\x01" + key_id)
TEST(SecretSealerTest, UnsealsAVectorFromAnIndependentImplementation) {
  std::string sealed = FromHex(
      "016465666768696a6b6c6d6e6f3f51bf0a0bb103ea50241aa5934a21ca0f864344cc439122df83ca21b8fae0"
      "10d5a4108c0959de5d961394ec1d0c980480c80effbb831b29");
  auto opened = Sealer()->Unseal(sealed, kKeyId);
  ASSERT_TRUE(opened.has_value()) << opened.error().ToString();
  EXPECT_EQ(*opened, kSecret);
}

TEST(SecretSealerTest, EveryChangedByteIsDetected) {
  auto sealer = Sealer();
  std::string sealed = sealer->Seal(kSecret, kKeyId).value();
  for (size_t i = 0; i < sealed.size(); ++i) {
    std::string tampered = sealed;
    tampered[i] = static_cast<char>(tampered[i] ^ 0x01);
    auto opened = sealer->Unseal(tampered, kKeyId);
    ASSERT_FALSE(opened.has_value()) << "byte " << i;
    EXPECT_EQ(opened.error().code(), StatusCode::kCorruption);
    EXPECT_EQ(opened.error().message().find(kSecret), std::string::npos);
  }
  for (size_t n : {size_t{0}, size_t{1}, size_t{12}, size_t{28}, sealed.size() - 1}) {
    auto opened = sealer->Unseal(sealed.substr(0, n), kKeyId);
    ASSERT_FALSE(opened.has_value()) << "truncated to " << n;
    EXPECT_EQ(opened.error().code(), StatusCode::kCorruption);
  }
}

TEST(SecretSealerTest, AnotherKeyOrContextDoesNotUnseal) {
  std::string sealed = Sealer()->Seal(kSecret, kKeyId).value();
  auto other_key = Sealer(1)->Unseal(sealed, kKeyId);
  ASSERT_FALSE(other_key.has_value());
  EXPECT_EQ(other_key.error().code(), StatusCode::kCorruption);
  EXPECT_NE(other_key.error().message().find("another master key"), std::string::npos);
  // A sealed value copied onto another access key's row.
  auto other_context = Sealer()->Unseal(sealed, "AKIAEXAMPLEEXAMPLE02");
  ASSERT_FALSE(other_context.has_value());
  EXPECT_EQ(other_context.error().code(), StatusCode::kCorruption);
}

TEST(SecretSealerTest, UnknownVersionIsNamed) {
  std::string sealed = Sealer()->Seal(kSecret, kKeyId).value();
  sealed[0] = 0x02;
  auto opened = Sealer()->Unseal(sealed, kKeyId);
  ASSERT_FALSE(opened.has_value());
  EXPECT_NE(opened.error().message().find("format version 2"), std::string::npos)
      << opened.error().message();
}

TEST(SecretSealerTest, KeyMustBe32Bytes) {
  for (size_t n : {size_t{0}, size_t{16}, size_t{31}, size_t{33}}) {
    auto sealer = AesGcmSecretSealer::Make(std::string(n, 'k'));
    ASSERT_FALSE(sealer.has_value()) << n;
    EXPECT_EQ(sealer.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(sealer.error().message().find("32 bytes"), std::string::npos);
  }
}

}  // namespace
}  // namespace st::auth
