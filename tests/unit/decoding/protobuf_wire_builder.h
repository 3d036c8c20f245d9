// A tiny Protobuf wire encoder for the decoding tests' payloads. Shared, not
// copied per test file: the unity build compiles several test files as one
// translation unit, where two anonymous-namespace copies would collide.
#pragma once

#include <cstdint>
#include <string>

namespace st::decoding::wire_builder {

inline std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
inline std::string Tag(int n, int wire) {
  return Varint((static_cast<uint64_t>(n) << 3) | static_cast<uint64_t>(wire));
}
// Field n as a varint (wire type 0).
inline std::string V(int n, uint64_t v) { return Tag(n, 0) + Varint(v); }
// Field n as length-delimited bytes (wire type 2).
inline std::string L(int n, const std::string& bytes) {
  return Tag(n, 2) + Varint(bytes.size()) + bytes;
}
// Field n as 64 bits (wire type 1), little-endian.
inline std::string F64(int n, uint64_t bits) {
  std::string out = Tag(n, 1);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  return out;
}

}  // namespace st::decoding::wire_builder
