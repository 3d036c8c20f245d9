#include "auth/secure_random.h"

#include <openssl/rand.h>

namespace st::auth {

Result<std::string> SecureRandomBytes(size_t count) {
  std::string out(count, '\0');
  if (count == 0) return out;
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1) {
    return Err(
        Internal("OpenSSL RAND_bytes failed: the CSPRNG has no entropy source; key "
                 "material cannot be generated on this host"));
  }
  return out;
}

Result<std::string> SecureRandomChars(std::string_view alphabet, size_t count) {
  if (alphabet.empty() || alphabet.size() > 256) {
    return Err(InvalidArgument("SecureRandomChars needs 1-256 alphabet characters, got " +
                               std::to_string(alphabet.size())));
  }
  // Bytes at or above the largest multiple of the alphabet size are redrawn,
  // so every character has the same probability.
  const unsigned limit = 256 - (256 % alphabet.size());
  std::string out;
  out.reserve(count);
  while (out.size() < count) {
    ST_ASSIGN_OR_RETURN(std::string bytes, SecureRandomBytes(count - out.size() + 8));
    for (unsigned char byte : bytes) {
      if (byte >= limit) continue;
      out.push_back(alphabet[byte % alphabet.size()]);
      if (out.size() == count) break;
    }
  }
  return out;
}

}  // namespace st::auth
