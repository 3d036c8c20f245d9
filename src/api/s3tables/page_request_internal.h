// The paging query parameters of ListTableBuckets / ListNamespaces /
// ListTables (docs/api-contract-notes.md §1.1): prefix, continuationToken (1–2048
// characters) and a limit parameter of 1–1000 (default 1000).
#pragma once

#include <string_view>

#include "catalog/pagination.h"
#include "http/request_target.h"

namespace st::api::s3tables {

// Errors: InvalidArgument naming the parameter and its allowed range.
Result<catalog::PageRequest> PageFromQuery(const http::QueryParams& query,
                                           std::string_view limit_name);

}  // namespace st::api::s3tables
