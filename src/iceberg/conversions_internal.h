// Decimal byte forms shared by single-value serialization and bucket hashing.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "common/value.h"

namespace st::iceberg::internal {

__extension__ typedef unsigned __int128 UInt128;

// The fewest big-endian two's complement bytes that hold `unscaled` with its
// sign (Java BigInteger.toByteArray); zero is one 0x00 byte.
std::string DecimalToMinimalBytes(Int128 unscaled);
// Sign-extends 1..16 big-endian bytes. Errors: Corruption for 0 or >16 bytes.
Result<Int128> DecimalFromBytes(std::string_view bytes);

}  // namespace st::iceberg::internal
