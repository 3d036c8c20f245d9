// Unpredictable bytes for key material (access keys and secrets), from
// OpenSSL's CSPRNG. Ids elsewhere come from the injected st::Random, which is
// a seeded Mersenne Twister in production: its outputs (visible UUIDs) reveal
// its state, so it must never produce a credential.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace st::auth {

// `count` bytes from RAND_bytes. Thread-safe. Errors: Internal when OpenSSL
// cannot seed its generator (no entropy source); callers fail closed.
Result<std::string> SecureRandomBytes(size_t count);

// `count` characters drawn uniformly from `alphabet` (1–256 distinct
// characters), by rejection sampling so no character is favoured. Errors as
// SecureRandomBytes; InvalidArgument for an empty or oversized alphabet.
Result<std::string> SecureRandomChars(std::string_view alphabet, size_t count);

}  // namespace st::auth
