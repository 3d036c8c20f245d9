// How the Iceberg REST path names S3 Tables objects (docs/api-contract-notes.md §2.1,
// §3.3): {prefix} is the table bucket ARN (one segment, percent-encoded on
// the wire, decoded by the router), {namespace} is a single level (S3 Tables
// has no nested namespaces), {table} a table name. Also the paging and
// boolean query parameters.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/pagination.h"
#include "common/status.h"
#include "http/request_target.h"

namespace st::api::iceberg_rest {

// The decoded {prefix} as a table bucket ARN. Errors: InvalidArgument naming
// the prefix and the expected form.
Result<std::string> BucketArnFromPrefix(std::string_view prefix);

// The namespace a decoded {namespace} capture names. Levels are separated by
// 0x1F; more than one level is InvalidArgument (S3 Tables namespaces are flat).
Result<std::string> NamespaceFromPath(std::string_view value);
// The same for a namespace given as a JSON array of levels.
Result<std::string> NamespaceFromLevels(const std::vector<std::string>& levels);

// Query booleans as every client spells them: pyiceberg sends "True"/"False",
// Java and DuckDB lower case. Errors: InvalidArgument naming the parameter.
Result<bool> ParseQueryBool(std::string_view name, std::string_view value);

// pageToken / pageSize. Without pageToken the whole listing is returned
// (spec: a paging server must return everything when the client does not
// page); with it (Java sends it empty on the first call) one page of pageSize
// (default kMaxPageSize). Errors: InvalidArgument for a bad pageSize.
struct ListPaging {
  bool all = true;
  catalog::PageRequest page;
};
Result<ListPaging> PagingFromQuery(const http::QueryParams& query);

// Runs `fetch(PageRequest) -> Result<Page<T>>` once, or until the last page
// when `paging.all`.
template <typename T, typename Fetch>
Result<catalog::Page<T>> FetchListing(const ListPaging& paging, Fetch fetch) {
  catalog::PageRequest request = paging.page;
  catalog::Page<T> out;
  while (true) {
    ST_ASSIGN_OR_RETURN(catalog::Page<T> page, fetch(request));
    for (T& item : page.items) out.items.push_back(std::move(item));
    out.continuation_token = std::move(page.continuation_token);
    if (!paging.all || out.continuation_token.empty()) return out;
    request.continuation_token = out.continuation_token;
  }
}

}  // namespace st::api::iceberg_rest
