// ASCII-only case folding for protocol tokens (header names, hex digests,
// IAM action and condition names), which are ASCII by their specs; not for
// user text, whose case rules are locale- and Unicode-dependent.
#pragma once

#include <string>
#include <string_view>

namespace st {

inline char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

}  // namespace st
