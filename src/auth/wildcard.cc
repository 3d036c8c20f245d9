#include <array>
#include <cctype>

#include "auth/wildcard_internal.h"

namespace st::auth {
namespace {

bool SameChar(char a, char b, bool ignore_case) {
  if (!ignore_case) return a == b;
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

// Component i of an ARN: the text between the i-th and (i+1)-th ':', the
// last one running to the end. False when there are fewer than six.
bool SplitArn(std::string_view arn, std::array<std::string_view, 6>& parts) {
  size_t start = 0;
  for (size_t i = 0; i < 5; ++i) {
    size_t colon = arn.find(':', start);
    if (colon == std::string_view::npos) return false;
    parts[i] = arn.substr(start, colon - start);
    start = colon + 1;
  }
  parts[5] = arn.substr(start);
  return true;
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
  std::array<std::string_view, 6> want, have;
  if (!SplitArn(pattern, want) || !SplitArn(arn, have)) {
    return WildcardMatch(pattern, arn, /*ignore_case=*/false);
  }
  for (size_t i = 0; i < 6; ++i) {
    if (!WildcardMatch(want[i], have[i], /*ignore_case=*/false)) return false;
  }
  return true;
}

}  // namespace st::auth
