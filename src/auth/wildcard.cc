#include <array>
#include <cctype>

#include "auth/arn.h"
#include "auth/wildcard_internal.h"

namespace st::auth {
namespace {

bool SameChar(char a, char b, bool ignore_case) {
  if (!ignore_case) return a == b;
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

}  // namespace

bool WildcardMatch(std::string_view pattern, std::string_view text, bool ignore_case) {
  // Greedy match with one backtrack point: linear in practice, no recursion.
  size_t p = 0, t = 0, star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || SameChar(pattern[p], text[t], ignore_case))) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool ArnMatch(std::string_view pattern, std::string_view arn) {
  if (pattern == "*") return true;
  auto want = SplitArnFields(pattern);
  auto have = SplitArnFields(arn);
  if (!want.has_value() || !have.has_value()) {
    return WildcardMatch(pattern, arn, /*ignore_case=*/false);
  }
  for (size_t i = 0; i < 6; ++i) {
    if (!WildcardMatch((*want)[i], (*have)[i], /*ignore_case=*/false)) return false;
  }
  return true;
}

}  // namespace st::auth
