// The KMS ciphertext blob (README.md "Ciphertext blob format") and the
// AES-256-GCM that seals it. A blob names the key and key version that
// sealed it, so Decrypt needs no KeyId and a rotated key still decrypts
// what its older versions sealed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "common/status.h"

namespace st::kms {

// Encryption context: string pairs bound to a ciphertext as AAD. An ordered
// map, so the AAD does not depend on the order a client sent the pairs in.
using EncryptionContext = std::map<std::string, std::string>;

inline constexpr size_t kKeyMaterialBytes = 32;  // AES-256.
inline constexpr size_t kIvBytes = 12;
inline constexpr size_t kTagBytes = 16;
inline constexpr size_t kKeyIdBytes = 36;  // A UUID in text form.
// magic (3) + format version (1) + key id (36) + key version (4) + IV (12).
inline constexpr size_t kHeaderBytes = 4 + kKeyIdBytes + 4 + kIvBytes;
inline constexpr size_t kMaxPlaintextBytes = 4096;   // As AWS KMS Encrypt.
inline constexpr size_t kMaxCiphertextBytes = 6144;  // As AWS KMS Decrypt.

struct BlobHeader {
  std::string key_id;        // The key's UUID.
  uint32_t key_version = 0;  // 1 for the material CreateKey made; +1 per rotation.
  std::string iv;            // kIvBytes bytes.
};

// The associated data of a blob: its header bytes, then each context pair
// as u32-BE length + key + u32-BE length + value, in key order.
std::string AssociatedData(std::string_view header_bytes, const EncryptionContext& context);

// Reads the header of `blob` without authenticating it (the key id is needed
// to find the key). Errors: InvalidArgument when it is not a blob of this
// format (too short or long, wrong magic or version, a key id that is not a
// UUID, version 0).
Result<BlobHeader> ParseBlobHeader(std::string_view blob);

// Seals `plaintext` under `key` (kKeyMaterialBytes) with `iv` (kIvBytes,
// fresh for every call: the caller draws it from the CSPRNG).
// Errors: InvalidArgument (sizes), Internal (OpenSSL failed).
Result<std::string> SealBlob(std::string_view key, const BlobHeader& header,
                             std::string_view plaintext, const EncryptionContext& context);

// The plaintext of `blob`, whose header is `header` (from ParseBlobHeader),
// under `key`. Errors: Corruption when it does not authenticate (changed
// bytes, another key, another encryption context); never partial plaintext.
Result<std::string> OpenBlob(std::string_view key, std::string_view blob,
                             const EncryptionContext& context);

// Overwrites `secret` (key material, plaintext) before it is freed.
void Wipe(std::string& secret);

}  // namespace st::kms
