#include <charconv>
#include <string>

#include "api/s3tables/page_request_internal.h"

namespace st::api::s3tables {

Result<catalog::PageRequest> PageFromQuery(const http::QueryParams& query,
                                           std::string_view limit_name) {
  catalog::PageRequest page;
  if (auto prefix = query.Get("prefix")) page.prefix = std::string(*prefix);
  if (auto token = query.Get("continuationToken")) {
    if (token->empty() || token->size() > 2048) {
      return Err(InvalidArgument("The continuationToken must have 1 to 2048 characters."));
    }
    page.continuation_token = std::string(*token);
  }
  if (auto limit = query.Get(limit_name)) {
    int value = 0;
    auto [end, error] = std::from_chars(limit->data(), limit->data() + limit->size(), value);
    if (error != std::errc() || end != limit->data() + limit->size() || value < 1 ||
        value > catalog::kMaxPageSize) {
      return Err(InvalidArgument(
          "The parameter " + std::string(limit_name) + " must be an integer from 1 to " +
          std::to_string(catalog::kMaxPageSize) + ", not '" + std::string(*limit) + "'."));
    }
    page.limit = value;
  }
  return page;
}

}  // namespace st::api::s3tables
