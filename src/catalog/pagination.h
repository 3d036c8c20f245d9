// Paged listing (docs/api-contract-notes.md §1.1): results come in a stable order, at
// most `limit` per page, and a page that is not the last carries an opaque
// continuation token that resumes right after its last item.
#pragma once

#include <string>
#include <vector>

namespace st::catalog {

inline constexpr int kMaxPageSize = 1000;

struct PageRequest {
  // Only names starting with this are listed (empty: all).
  std::string prefix;
  // From the previous page; empty for the first page. A token is bound to the
  // listing and prefix it came from: reusing it elsewhere is InvalidArgument.
  std::string continuation_token;
  // 1..kMaxPageSize; anything else is InvalidArgument.
  int limit = kMaxPageSize;
};

template <typename T>
struct Page {
  std::vector<T> items;
  // Empty on the last page.
  std::string continuation_token;
};

}  // namespace st::catalog
