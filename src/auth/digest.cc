#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "auth/digest_internal.h"
#include "common/status.h"

namespace st::auth {

std::string Sha256(std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int out_size = 0;
  // EVP_Digest fails only on allocation failure or a broken OpenSSL build.
  ST_CHECK(EVP_Digest(data.data(), data.size(), out, &out_size, EVP_sha256(), nullptr) == 1);
  return std::string(reinterpret_cast<const char*>(out), out_size);
}

std::string Sha256Hex(std::string_view data) { return HexEncode(Sha256(data)); }

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int out_size = 0;
  ST_CHECK(HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
                reinterpret_cast<const unsigned char*>(data.data()), data.size(), out,
                &out_size) != nullptr);
  return std::string(reinterpret_cast<const char*>(out), out_size);
}

std::string HexEncode(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex.push_back(kDigits[c >> 4]);
    hex.push_back(kDigits[c & 0xF]);
  }
  return hex;
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace st::auth
