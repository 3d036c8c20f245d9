#include <algorithm>
#include <charconv>

#include "api/iceberg_rest/rest_identifiers_internal.h"
#include "catalog/arns.h"

namespace st::api::iceberg_rest {

Result<std::string> BucketArnFromPrefix(std::string_view prefix) {
  Result<catalog::TableBucketArnParts> parts = catalog::ParseTableBucketArn(prefix);
  if (!parts.has_value()) {
    return Err(InvalidArgument("Invalid table bucket ARN '" + std::string(prefix) +
                               "' in the path: the prefix must be the percent-encoded warehouse "
                               "ARN that GET /v1/config returned (arn:aws:s3tables:<region>:"
                               "<account>:bucket/<name>)."));
  }
  return std::string(prefix);
}

Result<std::string> NamespaceFromPath(std::string_view value) {
  if (value.find('\x1F') != std::string_view::npos) {
    return Err(InvalidArgument("Nested namespace '" + std::string(value) +
                               "' is not supported: table bucket namespaces have one level."));
  }
  return std::string(value);
}

Result<std::string> NamespaceFromLevels(const std::vector<std::string>& levels) {
  if (levels.size() != 1) {
    return Err(InvalidArgument("A namespace must have exactly one level in a table bucket; got " +
                               std::to_string(levels.size()) + "."));
  }
  return levels[0];
}

Result<bool> ParseQueryBool(std::string_view name, std::string_view value) {
  auto equals = [&](std::string_view word) {
    if (value.size() != word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i) {
      char c = value[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != word[i]) return false;
    }
    return true;
  };
  if (equals("true")) return true;
  if (equals("false")) return false;
  return Err(InvalidArgument("Query parameter " + std::string(name) + "='" + std::string(value) +
                             "' must be true or false."));
}

Result<ListPaging> PagingFromQuery(const http::QueryParams& query) {
  ListPaging paging;
  if (auto token = query.Get("pageToken"); token.has_value()) {
    paging.all = false;
    paging.page.continuation_token = std::string(*token);
  }
  if (auto size = query.Get("pageSize"); size.has_value()) {
    int value = 0;
    auto [end, error] = std::from_chars(size->data(), size->data() + size->size(), value);
    if (error != std::errc() || end != size->data() + size->size() || value < 1) {
      return Err(InvalidArgument("Query parameter pageSize='" + std::string(*size) +
                                 "' must be a positive integer."));
    }
    paging.page.limit = std::min(value, catalog::kMaxPageSize);
    paging.all = false;
  }
  return paging;
}

}  // namespace st::api::iceberg_rest
