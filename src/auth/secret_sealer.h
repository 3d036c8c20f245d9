// Sealing of secrets kept at rest (the secret access keys in the catalog):
// authenticated encryption under a key held apart from the stored values.
// The interface is what stores depend on; AesGcmSecretSealer is the adapter
// over OpenSSL. Where the key comes from is not this module's concern (the
// server loads its master key and hands the bytes in).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace st::auth {

// Thread-safe: Seal and Unseal may be called concurrently.
class SecretSealer {
 public:
  virtual ~SecretSealer() = default;

  // Encrypts `secret` and binds it to `context` (authenticated, not stored:
  // e.g. the access key id, so a sealed value copied to another row does not
  // unseal there). The result is binary. Errors: Internal (the cipher or the
  // CSPRNG failed).
  virtual Result<std::string> Seal(std::string_view secret, std::string_view context) const = 0;

  // The secret that Seal(secret, context) sealed. Errors: Corruption when
  // `sealed` is not a sealed value of a known format version, or does not
  // authenticate under this key and `context` (another key, changed bytes,
  // or a value moved to another context); the message never holds secret
  // bytes.
  virtual Result<std::string> Unseal(std::string_view sealed, std::string_view context) const = 0;
};

// AES-256-GCM with a fresh random 96-bit nonce per value. Sealed form:
//   byte 0      format version, 0x01
//   bytes 1-12  nonce
//   then        ciphertext (as long as the secret), 16-byte tag
// The associated data is the version byte followed by the context, so the
// version byte is authenticated too.
class AesGcmSecretSealer final : public SecretSealer {
 public:
  static constexpr size_t kKeyBytes = 32;
  static constexpr unsigned char kVersion = 0x01;
  static constexpr size_t kNonceBytes = 12;
  static constexpr size_t kTagBytes = 16;

  // `key` must be kKeyBytes bytes (it is copied and wiped on destruction).
  // Errors: InvalidArgument naming the expected length.
  static Result<std::unique_ptr<AesGcmSecretSealer>> Make(std::string_view key);
  ~AesGcmSecretSealer() override;
  AesGcmSecretSealer(const AesGcmSecretSealer&) = delete;
  AesGcmSecretSealer& operator=(const AesGcmSecretSealer&) = delete;

  Result<std::string> Seal(std::string_view secret, std::string_view context) const override;
  Result<std::string> Unseal(std::string_view sealed, std::string_view context) const override;

 private:
  explicit AesGcmSecretSealer(std::string_view key) : key_(key) {}
  std::string key_;
};

}  // namespace st::auth
