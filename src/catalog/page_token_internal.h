// Continuation tokens shared by MetadataStore implementations: base64url of
// the listing's kind, its filter and the sort key of the last item returned,
// so a token resumes exactly after that item and cannot be replayed against
// another listing or prefix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace st::catalog {

std::string EncodePageToken(std::string_view listing, std::string_view filter,
                            const std::vector<std::string>& last_key);
// The last key of the previous page; empty for an empty token. Errors:
// InvalidArgument when the token is malformed or from another listing/filter.
Result<std::vector<std::string>> DecodePageToken(std::string_view token, std::string_view listing,
                                                 std::string_view filter);
// Errors: InvalidArgument unless 1 <= limit <= kMaxPageSize.
Status ValidatePageLimit(int limit);

}  // namespace st::catalog
