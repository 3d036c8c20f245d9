// 128-bit UUIDs as Iceberg and S3 Tables use them (RFC 4122 text form).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/random.h"
#include "common/status.h"

namespace st {

struct Uuid {
  std::array<uint8_t, 16> bytes{};  // Big-endian, as in the text form.

  // A random version-4 UUID.
  static Uuid Generate(Random& random);
  // Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (case-insensitive).
  static Result<Uuid> Parse(std::string_view text);
  // Lower-case canonical text form.
  std::string ToString() const;

  friend bool operator==(const Uuid&, const Uuid&) = default;
  friend auto operator<=>(const Uuid&, const Uuid&) = default;
};

}  // namespace st
