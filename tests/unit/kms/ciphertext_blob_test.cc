// The blob format and AES-256-GCM: round trips, and every kind of tampering
// (body, tag, header, context) fails to authenticate.
#include "kms/ciphertext_blob.h"

#include <gtest/gtest.h>

namespace st::kms {
namespace {

const std::string kKey(32, '\x42');
const std::string kKeyId = "0b8f9a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b";

BlobHeader Header(uint32_t version = 1) {
  return BlobHeader{kKeyId, version, std::string(12, '\x07')};
}

TEST(CiphertextBlobTest, RoundTripWithContext) {
  EncryptionContext context = {{"table", "orders"}, {"bucket", "b1"}};
  auto blob = SealBlob(kKey, Header(3), "hello world", context);
  ASSERT_TRUE(blob.has_value()) << blob.error().ToString();
  EXPECT_EQ(blob->size(), kHeaderBytes + 11 + kTagBytes);
  EXPECT_EQ(blob->find("hello world"), std::string::npos);
  auto header = ParseBlobHeader(*blob);
  ASSERT_TRUE(header.has_value());
  EXPECT_EQ(header->key_id, kKeyId);
  EXPECT_EQ(header->key_version, 3u);
  auto opened = OpenBlob(kKey, *blob, context);
  ASSERT_TRUE(opened.has_value());
  EXPECT_EQ(*opened, "hello world");
}

TEST(CiphertextBlobTest, ContextOrderDoesNotMatterButContentDoes) {
  EncryptionContext context = {{"a", "1"}, {"b", "2"}};
  auto blob = SealBlob(kKey, Header(), "x", context);
  ASSERT_TRUE(blob.has_value());
  EXPECT_TRUE(OpenBlob(kKey, *blob, {{"b", "2"}, {"a", "1"}}).has_value());
  for (const EncryptionContext& wrong :
       std::vector<EncryptionContext>{{},
                                      {{"a", "1"}},
                                      {{"a", "1"}, {"b", "3"}},
                                      {{"a", "1"}, {"b", "2"}, {"c", ""}},
                                      // Length-prefixing: "a"+"12" must not equal "a1"+"2".
                                      {{"a1", ""}, {"b", "2"}}}) {
    auto opened = OpenBlob(kKey, *blob, wrong);
    ASSERT_FALSE(opened.has_value());
    EXPECT_EQ(opened.error().code(), StatusCode::kCorruption);
  }
}

TEST(CiphertextBlobTest, EveryTamperedByteFails) {
  auto blob = SealBlob(kKey, Header(), "sixteen byte msg", {{"k", "v"}});
  ASSERT_TRUE(blob.has_value());
  for (size_t i = 0; i < blob->size(); ++i) {
    std::string tampered = *blob;
    tampered[i] = static_cast<char>(tampered[i] ^ 0x01);
    EXPECT_FALSE(OpenBlob(kKey, tampered, {{"k", "v"}}).has_value()) << "byte " << i;
  }
  EXPECT_FALSE(OpenBlob(std::string(32, '\x43'), *blob, {{"k", "v"}}).has_value());
  EXPECT_FALSE(OpenBlob(kKey, blob->substr(0, blob->size() - 1), {{"k", "v"}}).has_value());
}

TEST(CiphertextBlobTest, HeaderValidation) {
  EXPECT_FALSE(ParseBlobHeader("").has_value());
  EXPECT_FALSE(ParseBlobHeader(std::string(100, 'x')).has_value());
  EXPECT_FALSE(ParseBlobHeader(std::string(kMaxCiphertextBytes + 1, 'x')).has_value());
  auto blob = SealBlob(kKey, Header(), "x", {});
  ASSERT_TRUE(blob.has_value());
  std::string zero_version = *blob;
  zero_version.replace(4 + kKeyIdBytes, 4, std::string(4, '\0'));
  EXPECT_FALSE(ParseBlobHeader(zero_version).has_value());
  std::string bad_id = *blob;
  bad_id[5] = 'z';
  EXPECT_FALSE(ParseBlobHeader(bad_id).has_value());
}

TEST(CiphertextBlobTest, Bounds) {
  EXPECT_TRUE(SealBlob(kKey, Header(), std::string(kMaxPlaintextBytes, 'p'), {}).has_value());
  EXPECT_FALSE(SealBlob(kKey, Header(), std::string(kMaxPlaintextBytes + 1, 'p'), {}).has_value());
  EXPECT_FALSE(SealBlob("short", Header(), "p", {}).has_value());
}

}  // namespace
}  // namespace st::kms
