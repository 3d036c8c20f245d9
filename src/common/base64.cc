#include "common/base64.h"

#include <cstdint>

namespace st::common {

namespace {

constexpr std::string_view kStandardChars =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kUrlChars =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// The 6-bit value of `c`, or -1. A switch-free table lookup would be faster,
// but the only hot caller (JSON binary columns) is bound by the JSON parse.
int Base64Digit(unsigned char c, Base64Alphabet alphabet) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  const bool url = alphabet == Base64Alphabet::kUrl;
  if (c == (url ? '-' : '+')) return 62;
  if (c == (url ? '_' : '/')) return 63;
  return -1;
}

}  // namespace

std::string Base64Encode(std::string_view bytes, Base64Alphabet alphabet, Base64Padding padding) {
  const std::string_view chars = alphabet == Base64Alphabet::kUrl ? kUrlChars : kStandardChars;
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t n = (uint32_t{static_cast<unsigned char>(bytes[i])} << 16) |
                       (uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8) |
                       uint32_t{static_cast<unsigned char>(bytes[i + 2])};
    out += chars[(n >> 18) & 63];
    out += chars[(n >> 12) & 63];
    out += chars[(n >> 6) & 63];
    out += chars[n & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  uint32_t n = uint32_t{static_cast<unsigned char>(bytes[i])} << 16;
  if (rest == 2) n |= uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8;
  out += chars[(n >> 18) & 63];
  out += chars[(n >> 12) & 63];
  if (rest == 2) out += chars[(n >> 6) & 63];
  if (padding == Base64Padding::kRequired) out.append(rest == 2 ? 1 : 2, '=');
  return out;
}

bool Base64DecodeAppend(std::string_view text, std::string* out, Base64Alphabet alphabet,
                        Base64Padding padding) {
  size_t end = text.size();
  if (padding == Base64Padding::kRequired && end % 4 != 0) return false;
  if (end % 4 == 0 && end > 0) {
    if (text[end - 1] == '=') --end;
    if (text[end - 1] == '=') --end;
  }
  if (end % 4 == 1) return false;  // No byte string encodes to this length.
  out->reserve(out->size() + end / 4 * 3 + 2);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < end; ++i) {
    const int v = Base64Digit(static_cast<unsigned char>(text[i]), alphabet);
    if (v < 0) return false;  // Also a '=' before the end.
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return (acc & ((1u << bits) - 1)) == 0;
}

std::optional<std::string> Base64Decode(std::string_view text, Base64Alphabet alphabet,
                                        Base64Padding padding) {
  std::string out;
  if (!Base64DecodeAppend(text, &out, alphabet, padding)) return std::nullopt;
  return out;
}

}  // namespace st::common
