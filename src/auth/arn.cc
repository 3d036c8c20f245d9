#include "auth/arn.h"

namespace st::auth {

std::string Arn::ToString() const {
  return "arn:" + partition + ":" + service + ":" + region + ":" + account_id + ":" + resource;
}

std::optional<std::array<std::string_view, 6>> SplitArnFields(std::string_view text) {
  std::array<std::string_view, 6> fields;
  size_t start = 0;
  for (size_t i = 0; i < 5; ++i) {
    size_t colon = text.find(':', start);
    if (colon == std::string_view::npos) return std::nullopt;
    fields[i] = text.substr(start, colon - start);
    start = colon + 1;
  }
  fields[5] = text.substr(start);
  return fields;
}

Result<Arn> ParseArn(std::string_view text) {
  std::optional<std::array<std::string_view, 6>> fields = SplitArnFields(text);
  if (!fields.has_value() || (*fields)[0] != "arn") {
    return Err(InvalidArgument("'" + std::string(text) +
                               "' is not an ARN (arn:<partition>:<service>:<region>:<account>:"
                               "<resource>)"));
  }
  return Arn{std::string((*fields)[1]), std::string((*fields)[2]), std::string((*fields)[3]),
             std::string((*fields)[4]), std::string((*fields)[5])};
}

std::string ArnAccount(std::string_view text) {
  Result<Arn> arn = ParseArn(text);
  return arn.has_value() ? std::move(arn->account_id) : std::string();
}

std::vector<std::string_view> SplitArnResource(std::string_view resource, char separator,
                                               size_t max_parts) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    size_t at = resource.find(separator);
    if (at == std::string_view::npos) break;
    parts.push_back(resource.substr(0, at));
    resource.remove_prefix(at + 1);
  }
  parts.push_back(resource);
  return parts;
}

}  // namespace st::auth
