// IAM's two pattern forms: '*'/'?' globs (Action, StringLike) and ARN
// patterns matched per colon-separated component (Resource, ArnLike).
#pragma once

#include <string_view>

namespace st::auth {

// '*' matches any run of characters (including none), '?' exactly one.
bool WildcardMatch(std::string_view pattern, std::string_view text, bool ignore_case);
// Splits both at their first five ':' and glob-matches component by
// component, so a wildcard cannot stretch across a component; the sixth
// (resource) component may itself contain ':' and '/'. "*" matches anything.
bool ArnMatch(std::string_view pattern, std::string_view arn);

}  // namespace st::auth
