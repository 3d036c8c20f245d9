// AES-256-GCM through OpenSSL's EVP interface; the blob layout is in
// README.md. Every failure path returns before any plaintext leaves.
#include "kms/ciphertext_blob.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <memory>

#include "common/base64.h"
#include "common/uuid.h"

namespace st::kms {

namespace {

constexpr std::array<unsigned char, 4> kMagic = {'S', 'T', 'K', 0x01};

void PutU32(std::string& out, uint32_t value) {
  out.push_back(static_cast<char>((value >> 24) & 0xff));
  out.push_back(static_cast<char>((value >> 16) & 0xff));
  out.push_back(static_cast<char>((value >> 8) & 0xff));
  out.push_back(static_cast<char>(value & 0xff));
}

uint32_t GetU32(std::string_view bytes) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

std::string HeaderBytes(const BlobHeader& header) {
  std::string out(reinterpret_cast<const char*>(kMagic.data()), kMagic.size());
  out += header.key_id;
  PutU32(out, header.key_version);
  out += header.iv;
  return out;
}

struct CipherDeleter {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherPtr = std::unique_ptr<EVP_CIPHER_CTX, CipherDeleter>;

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::string AssociatedData(std::string_view header_bytes, const EncryptionContext& context) {
  std::string aad(header_bytes);
  for (const auto& [key, value] : context) {
    PutU32(aad, static_cast<uint32_t>(key.size()));
    aad += key;
    PutU32(aad, static_cast<uint32_t>(value.size()));
    aad += value;
  }
  return aad;
}

Result<BlobHeader> ParseBlobHeader(std::string_view blob) {
  if (blob.size() < kHeaderBytes + kTagBytes || blob.size() > kMaxCiphertextBytes) {
    return Err(InvalidArgument("the ciphertext blob has " + std::to_string(blob.size()) +
                               " bytes; a blob of this service has " +
                               std::to_string(kHeaderBytes + kTagBytes) + " to " +
                               std::to_string(kMaxCiphertextBytes)));
  }
  if (blob.substr(0, kMagic.size()) !=
      std::string_view(reinterpret_cast<const char*>(kMagic.data()), kMagic.size())) {
    return Err(InvalidArgument("the ciphertext blob was not made by this KMS (unknown format)"));
  }
  BlobHeader header;
  header.key_id = std::string(blob.substr(4, kKeyIdBytes));
  if (!Uuid::Parse(header.key_id).has_value()) {
    return Err(InvalidArgument("the ciphertext blob names no valid key id"));
  }
  header.key_version = GetU32(blob.substr(4 + kKeyIdBytes, 4));
  if (header.key_version == 0) {
    return Err(InvalidArgument("the ciphertext blob names key version 0"));
  }
  header.iv = std::string(blob.substr(4 + kKeyIdBytes + 4, kIvBytes));
  return header;
}

Result<std::string> SealBlob(std::string_view key, const BlobHeader& header,
                             std::string_view plaintext, const EncryptionContext& context) {
  if (key.size() != kKeyMaterialBytes || header.iv.size() != kIvBytes ||
      header.key_id.size() != kKeyIdBytes || plaintext.size() > kMaxPlaintextBytes) {
    return Err(InvalidArgument("SealBlob: bad key, IV, key id or plaintext size"));
  }
  std::string blob = HeaderBytes(header);
  std::string aad = AssociatedData(blob, context);
  CipherPtr ctx(EVP_CIPHER_CTX_new());
  int len = 0;
  size_t offset = blob.size();
  blob.resize(offset + plaintext.size() + kTagBytes);
  auto* out = reinterpret_cast<unsigned char*>(blob.data() + offset);
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kIvBytes), nullptr) !=
          1 ||
      EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, Bytes(key), Bytes(header.iv)) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &len, Bytes(aad), static_cast<int>(aad.size())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), out, &len, Bytes(plaintext),
                        static_cast<int>(plaintext.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), out + len, &len) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes),
                          out + plaintext.size()) != 1) {
    return Err(Internal("AES-256-GCM encryption failed in OpenSSL"));
  }
  return blob;
}

Result<std::string> OpenBlob(std::string_view key, std::string_view blob,
                             const EncryptionContext& context) {
  if (key.size() != kKeyMaterialBytes || blob.size() < kHeaderBytes + kTagBytes) {
    return Err(Corruption("the ciphertext blob does not authenticate"));
  }
  std::string_view header = blob.substr(0, kHeaderBytes);
  std::string_view iv = header.substr(4 + kKeyIdBytes + 4, kIvBytes);
  std::string_view body = blob.substr(kHeaderBytes, blob.size() - kHeaderBytes - kTagBytes);
  std::string tag(blob.substr(blob.size() - kTagBytes));
  std::string aad = AssociatedData(header, context);
  std::string plaintext(body.size(), '\0');
  auto* out = reinterpret_cast<unsigned char*>(plaintext.data());
  CipherPtr ctx(EVP_CIPHER_CTX_new());
  int len = 0;
  int final_len = 0;
  bool ok =
      ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kIvBytes), nullptr) ==
          1 &&
      EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, Bytes(key), Bytes(iv)) == 1 &&
      EVP_DecryptUpdate(ctx.get(), nullptr, &len, Bytes(aad), static_cast<int>(aad.size())) == 1 &&
      EVP_DecryptUpdate(ctx.get(), out, &len, Bytes(body), static_cast<int>(body.size())) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes),
                          tag.data()) == 1 &&
      EVP_DecryptFinal_ex(ctx.get(), out + len, &final_len) == 1;
  if (!ok) {
    // Wipe what was decrypted before the tag check failed.
    OPENSSL_cleanse(plaintext.data(), plaintext.size());
    return Err(
        Corruption("the ciphertext blob does not authenticate under its key with this "
                   "encryption context"));
  }
  return plaintext;
}

void Wipe(std::string& secret) {
  if (!secret.empty()) OPENSSL_cleanse(secret.data(), secret.size());
}

}  // namespace st::kms
