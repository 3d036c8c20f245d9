#include "common/percent_encoding.h"

namespace st {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

bool IsAsciiAlnum(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

void AppendEscape(unsigned char c, std::string& out) {
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

}  // namespace

std::string PercentEncode(std::string_view bytes, std::string_view also_keep) {
  std::string out;
  out.reserve(bytes.size() * 3);
  for (unsigned char c : bytes) {
    bool unreserved = IsAsciiAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved || also_keep.find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      AppendEscape(c, out);
    }
  }
  return out;
}

std::string JavaUrlEncoderCompatibleEncode(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3);
  for (unsigned char c : text) {
    if (IsAsciiAlnum(c) || c == '.' || c == '-' || c == '*' || c == '_') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      AppendEscape(c, out);
    }
  }
  return out;
}

}  // namespace st
