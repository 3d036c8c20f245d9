#include <cstdint>

#include "catalog/page_token_internal.h"
#include "catalog/pagination.h"
#include "common/base64.h"

namespace st::catalog {

namespace {

// Fields are length-prefixed ("<len>:<bytes>") so any byte may appear in them.
void AppendField(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out.push_back(':');
  out.append(field);
}

bool ReadField(std::string_view& in, std::string* field) {
  size_t colon = in.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 9) return false;
  size_t size = 0;
  for (char c : in.substr(0, colon)) {
    if (c < '0' || c > '9') return false;
    size = size * 10 + static_cast<size_t>(c - '0');
  }
  in.remove_prefix(colon + 1);
  if (in.size() < size) return false;
  *field = std::string(in.substr(0, size));
  in.remove_prefix(size);
  return true;
}

Status BadToken() {
  return InvalidArgument(
      "The continuation token is not valid for this request; repeat the request with the same "
      "parameters and the token from the previous page, or start again without a token.");
}

}  // namespace

std::string EncodePageToken(std::string_view listing, std::string_view filter,
                            const std::vector<std::string>& last_key) {
  std::string raw;
  AppendField(raw, listing);
  AppendField(raw, filter);
  for (const std::string& part : last_key) AppendField(raw, part);
  return common::Base64Encode(raw, common::Base64Alphabet::kUrl, common::Base64Padding::kOptional);
}

Result<std::vector<std::string>> DecodePageToken(std::string_view token, std::string_view listing,
                                                 std::string_view filter) {
  if (token.empty()) return std::vector<std::string>{};
  if (token.size() > 2048) return Err(BadToken());
  std::string raw;
  if (!common::Base64DecodeAppend(token, &raw, common::Base64Alphabet::kUrl,
                                  common::Base64Padding::kOptional)) {
    return Err(BadToken());
  }
  std::string_view in(raw);
  std::string got_listing, got_filter;
  if (!ReadField(in, &got_listing) || !ReadField(in, &got_filter) || got_listing != listing ||
      got_filter != filter) {
    return Err(BadToken());
  }
  std::vector<std::string> key;
  while (!in.empty()) {
    std::string part;
    if (!ReadField(in, &part)) return Err(BadToken());
    key.push_back(std::move(part));
  }
  if (key.empty()) return Err(BadToken());
  return key;
}

Status ValidatePageLimit(int limit) {
  if (limit < 1 || limit > kMaxPageSize) {
    return InvalidArgument("The page size " + std::to_string(limit) +
                           " is not valid: ask for 1 to " + std::to_string(kMaxPageSize) +
                           " items.");
  }
  return Status::OK();
}

}  // namespace st::catalog
