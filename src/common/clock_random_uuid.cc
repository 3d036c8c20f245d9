#include <cstdio>

#include "common/clock.h"
#include "common/random.h"
#include "common/uuid.h"

namespace st {

SystemClock& SystemClock::Default() {
  static SystemClock clock;
  return clock;
}

DefaultRandom::DefaultRandom()
    : engine_((static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}()) {}

DefaultRandom& DefaultRandom::Default() {
  static DefaultRandom random;
  return random;
}

Uuid Uuid::Generate(Random& random) {
  Uuid u;
  uint64_t hi = random.Next64();
  uint64_t lo = random.Next64();
  for (int i = 0; i < 8; ++i) {
    u.bytes[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
    u.bytes[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
  }
  u.bytes[6] = static_cast<uint8_t>((u.bytes[6] & 0x0F) | 0x40);  // version 4
  u.bytes[8] = static_cast<uint8_t>((u.bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return u;
}

static int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<Uuid> Uuid::Parse(std::string_view text) {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
      text[23] != '-') {
    return Err(InvalidArgument("not a UUID (want xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx): '" +
                               std::string(text) + "'"));
  }
  Uuid u;
  size_t pos = 0;
  for (int i = 0; i < 16; ++i) {
    // Hyphens only where the size check saw them: a '-' anywhere else is a
    // bad digit (skipping it would walk past the end of `text`).
    if (pos == 8 || pos == 13 || pos == 18 || pos == 23) ++pos;
    int h = HexValue(text[pos]), l = HexValue(text[pos + 1]);
    if (h < 0 || l < 0)
      return Err(InvalidArgument("not a UUID (bad hex digit): '" + std::string(text) + "'"));
    u.bytes[i] = static_cast<uint8_t>(h << 4 | l);
    pos += 2;
  }
  return u;
}

std::string Uuid::ToString() const {
  char buf[37];
  std::snprintf(buf, sizeof buf,
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return std::string(buf, 36);
}

}  // namespace st
