#include "catalog/id_generation.h"

#include <cstdio>
#include <cstdlib>

#include "auth/secure_random.h"
#include "common/uuid.h"

namespace st::catalog {

namespace {

std::string RandomChars(Random& random, std::string_view alphabet, size_t count) {
  std::string out;
  out.reserve(count);
  while (out.size() < count) {
    uint64_t bits = random.Next64();
    // 8 draws of 8 bits each; the modulo bias is irrelevant for identifiers.
    for (int i = 0; i < 8 && out.size() < count; ++i, bits >>= 8) {
      out.push_back(alphabet[(bits & 0xFF) % alphabet.size()]);
    }
  }
  return out;
}

// Key material comes from OpenSSL's CSPRNG, never from `random` (seeded and
// predictable from the ids it also produces). Without entropy there is no
// safe key to hand out, so the process stops rather than issue a guessable one.
std::string CredentialChars(std::string_view alphabet, size_t count) {
  Result<std::string> chars = auth::SecureRandomChars(alphabet, count);
  if (!chars.has_value()) {
    std::fprintf(stderr, "fatal: %s\n", chars.error().ToString().c_str());
    std::abort();
  }
  return std::move(chars).value();
}

constexpr std::string_view kHex = "0123456789abcdef";
constexpr std::string_view kLowerAlnum = "0123456789abcdefghijklmnopqrstuvwxyz";

}  // namespace

std::string NewEntityId(Random& random) { return Uuid::Generate(random).ToString(); }

std::string NewVersionToken(Random& random) { return RandomChars(random, kHex, 20); }

std::string NewWarehouseLocation(Random& random) {
  // 36 (UUID) + 1 + 16 + 10 ("--table-s3") = 63, the S3 bucket-name maximum.
  return "s3://" + Uuid::Generate(random).ToString() + "-" + RandomChars(random, kLowerAlnum, 16) +
         "--table-s3";
}

std::string NewAccessKeyId(Random& /*random*/) {
  return "AKIA" + CredentialChars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16);
}

std::string NewSecretAccessKey(Random& /*random*/) {
  return CredentialChars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 40);
}

std::string WarehouseBucketName(std::string_view warehouse_location) {
  constexpr std::string_view kScheme = "s3://";
  if (warehouse_location.substr(0, kScheme.size()) != kScheme) return "";
  std::string_view rest = warehouse_location.substr(kScheme.size());
  return std::string(rest.substr(0, rest.find('/')));
}

}  // namespace st::catalog
