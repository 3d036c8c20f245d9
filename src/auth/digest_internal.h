// SHA-256 and HMAC-SHA256 through OpenSSL's EVP interface, as SigV4 needs them.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace st::auth {

// Raw 32-byte digest of `data`.
std::string Sha256(std::string_view data);
// Lower-case hex of Sha256(data): SigV4's HashedPayload and canonical-request hash.
std::string Sha256Hex(std::string_view data);
// Raw 32-byte HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);
// Lower-case hex of arbitrary bytes.
std::string HexEncode(std::string_view bytes);
// Compares without an early exit, so timing does not leak how many leading
// signature characters an attacker guessed right.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace st::auth
