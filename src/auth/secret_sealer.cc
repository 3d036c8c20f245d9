#include "auth/secret_sealer.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "auth/secure_random.h"

namespace st::auth {

namespace {

struct CipherContext {
  CipherContext() : ctx(EVP_CIPHER_CTX_new()) {}
  ~CipherContext() { EVP_CIPHER_CTX_free(ctx); }
  CipherContext(const CipherContext&) = delete;
  CipherContext& operator=(const CipherContext&) = delete;
  EVP_CIPHER_CTX* ctx;
};

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}
unsigned char* Bytes(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }

std::string AssociatedData(std::string_view context) {
  std::string aad(1, static_cast<char>(AesGcmSecretSealer::kVersion));
  aad.append(context);
  return aad;
}

Status CipherFailed(const char* step) {
  return Internal(std::string("AES-256-GCM ") + step +
                  " failed inside OpenSSL; the secret was not sealed");
}

Status NotAuthentic() {
  return Corruption(
      "sealed secret does not authenticate: it was sealed under another master key, or its "
      "bytes were changed");
}

}  // namespace

Result<std::unique_ptr<AesGcmSecretSealer>> AesGcmSecretSealer::Make(std::string_view key) {
  if (key.size() != kKeyBytes) {
    return Err(InvalidArgument("an AES-256-GCM sealing key is " + std::to_string(kKeyBytes) +
                               " bytes, got " + std::to_string(key.size())));
  }
  return std::unique_ptr<AesGcmSecretSealer>(new AesGcmSecretSealer(key));
}

AesGcmSecretSealer::~AesGcmSecretSealer() { OPENSSL_cleanse(key_.data(), key_.size()); }

Result<std::string> AesGcmSecretSealer::Seal(std::string_view secret,
                                             std::string_view context) const {
  ST_ASSIGN_OR_RETURN(std::string nonce, SecureRandomBytes(kNonceBytes));
  std::string aad = AssociatedData(context);
  std::string out(1 + kNonceBytes + secret.size() + kTagBytes, '\0');
  out[0] = static_cast<char>(kVersion);
  out.replace(1, kNonceBytes, nonce);
  unsigned char* cipher_text = Bytes(out) + 1 + kNonceBytes;

  CipherContext c;
  int len = 0;
  if (c.ctx == nullptr ||
      EVP_EncryptInit_ex(c.ctx, EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) != 1 ||
      EVP_EncryptInit_ex(c.ctx, nullptr, nullptr, Bytes(key_), Bytes(nonce)) != 1) {
    return Err(CipherFailed("setup"));
  }
  if (EVP_EncryptUpdate(c.ctx, nullptr, &len, Bytes(aad), static_cast<int>(aad.size())) != 1 ||
      EVP_EncryptUpdate(c.ctx, cipher_text, &len, Bytes(secret), static_cast<int>(secret.size())) !=
          1 ||
      EVP_EncryptFinal_ex(c.ctx, cipher_text + len, &len) != 1 ||
      EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_GCM_GET_TAG, kTagBytes, cipher_text + secret.size()) !=
          1) {
    return Err(CipherFailed("encryption"));
  }
  return out;
}

Result<std::string> AesGcmSecretSealer::Unseal(std::string_view sealed,
                                               std::string_view context) const {
  if (sealed.empty()) return Err(Corruption("sealed secret is empty"));
  if (static_cast<unsigned char>(sealed[0]) != kVersion) {
    return Err(Corruption("sealed secret has format version " +
                          std::to_string(static_cast<unsigned char>(sealed[0])) +
                          ", this server reads version " + std::to_string(kVersion) +
                          "; run the release that wrote it"));
  }
  if (sealed.size() < 1 + kNonceBytes + kTagBytes) {
    return Err(
        Corruption("sealed secret is truncated (" + std::to_string(sealed.size()) + " bytes)"));
  }
  std::string_view nonce = sealed.substr(1, kNonceBytes);
  std::string_view cipher_text =
      sealed.substr(1 + kNonceBytes, sealed.size() - 1 - kNonceBytes - kTagBytes);
  std::string tag(sealed.substr(sealed.size() - kTagBytes));
  std::string aad = AssociatedData(context);
  std::string out(cipher_text.size(), '\0');

  CipherContext c;
  int len = 0;
  if (c.ctx == nullptr ||
      EVP_DecryptInit_ex(c.ctx, EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) != 1 ||
      EVP_DecryptInit_ex(c.ctx, nullptr, nullptr, Bytes(key_), Bytes(nonce)) != 1) {
    return Err(Internal("AES-256-GCM setup failed inside OpenSSL"));
  }
  if (EVP_DecryptUpdate(c.ctx, nullptr, &len, Bytes(aad), static_cast<int>(aad.size())) != 1 ||
      EVP_DecryptUpdate(c.ctx, Bytes(out), &len, Bytes(cipher_text),
                        static_cast<int>(cipher_text.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_GCM_SET_TAG, kTagBytes, Bytes(tag)) != 1) {
    OPENSSL_cleanse(out.data(), out.size());
    return Err(NotAuthentic());
  }
  // The tag is checked here; before it passes the plaintext must not be used.
  if (EVP_DecryptFinal_ex(c.ctx, Bytes(out) + len, &len) != 1) {
    OPENSSL_cleanse(out.data(), out.size());
    return Err(NotAuthentic());
  }
  return out;
}

}  // namespace st::auth
