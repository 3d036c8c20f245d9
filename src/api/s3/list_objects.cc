// ListObjectsV2 (docs/api-contract-notes.md §4.2): prefix, delimiter, max-keys,
// continuation-token, start-after, CommonPrefixes, encoding-type=url.
#include "api/s3/object_etag_internal.h"
#include "api/s3/object_headers_internal.h"
#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"
#include "api/s3/xml_text_internal.h"
#include "common/percent_encoding.h"
#include "common/utc_time.h"

namespace st::api::s3 {

namespace {

constexpr int64_t kMaxKeys = 1000;

// Continuation tokens are hex of "K<last key>" or "P<last common prefix>":
// opaque to clients, exact for us.
std::string EncodeToken(std::string_view position) { return HexLower(position); }

std::optional<std::string> DecodeToken(std::string_view token) {
  if (token.empty() || token.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < token.size(); i += 2) {
    int value = 0;
    for (size_t j = i; j < i + 2; ++j) {
      char c = token[j];
      int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (digit < 0) return std::nullopt;
      value = value * 16 + digit;
    }
    out += static_cast<char>(value);
  }
  if (out[0] != 'K' && out[0] != 'P') return std::nullopt;
  return out;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

Result<http::Response> ListObjectsV2(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (!address.key.empty()) {
    return context.Fail(BadRequest("InvalidArgument",
                                   "ListObjectsV2 addresses a bucket, not '" + address.key + "'."));
  }
  ST_TRY(CheckBucketExists(state, address.bucket));
  const http::QueryParams& query = context.request.query();
  std::string prefix(query.Get("prefix").value_or(""));
  std::string delimiter(query.Get("delimiter").value_or(""));
  std::string start_after(query.Get("start-after").value_or(""));
  bool url_encoding = false;
  if (auto encoding = query.Get("encoding-type")) {
    if (*encoding != "url") {
      return context.Fail(BadRequest("InvalidArgument",
                                     "Invalid Encoding Method specified in "
                                     "Request; only 'url' is supported."));
    }
    url_encoding = true;
  }
  int64_t max_keys = kMaxKeys;
  if (auto text = query.Get("max-keys")) {
    int64_t value = 0;
    bool ok = !text->empty() && text->size() <= 9;
    for (char c : *text) ok = ok && c >= '0' && c <= '9';
    if (ok) value = std::stoll(std::string(*text));
    if (!ok) {
      return context.Fail(BadRequest("InvalidArgument",
                                     "Provided max-keys not an integer or within integer range."));
    }
    max_keys = std::min(value, kMaxKeys);
  }
  std::optional<std::string> token_text(query.Get("continuation-token"));
  std::string position;  // "K<key>" / "P<prefix>": entries at or below it are done.
  if (token_text.has_value()) {
    std::optional<std::string> decoded = DecodeToken(*token_text);
    if (!decoded.has_value()) {
      return context.Fail(
          BadRequest("InvalidArgument", "The continuation token provided is incorrect."));
    }
    position = *decoded;
  } else if (!start_after.empty()) {
    position = "K" + start_after;
  }

  const std::string root = BucketRoot(state, address.bucket);
  ST_ASSIGN_OR_RETURN(std::vector<storage::ObjectInfo> objects, state.objects.List(root + prefix));

  std::string contents;
  std::string common_prefixes;
  int64_t count = 0;
  bool truncated = false;
  std::string last_position;
  std::string last_common_prefix;
  std::string_view after =
      position.empty() ? std::string_view() : std::string_view(position).substr(1);
  bool after_is_prefix = !position.empty() && position[0] == 'P';
  for (const storage::ObjectInfo& info : objects) {
    std::string_view key = std::string_view(info.key).substr(root.size());
    if (!position.empty() && (key <= after || (after_is_prefix && StartsWith(key, after)))) {
      continue;
    }
    if (!delimiter.empty()) {
      size_t cut = key.find(delimiter, prefix.size());
      if (cut != std::string_view::npos) {
        std::string common(key.substr(0, cut + delimiter.size()));
        if (common == last_common_prefix) continue;
        if (count == max_keys) {
          truncated = true;
          break;
        }
        last_common_prefix = common;
        last_position = "P" + common;
        common_prefixes += "<CommonPrefixes>";
        AppendElement(common_prefixes, "Prefix",
                      url_encoding ? PercentEncode(common, "/") : common);
        common_prefixes += "</CommonPrefixes>";
        ++count;
        continue;
      }
    }
    if (count == max_keys) {
      truncated = true;
      break;
    }
    last_position = "K" + std::string(key);
    contents += "<Contents>";
    AppendElement(contents, "Key", url_encoding ? PercentEncode(key, "/") : std::string(key));
    AppendElement(contents, "LastModified", FormatUtcMillis(info.last_modified));
    AppendElement(
        contents, "ETag",
        EtagOf(state.objects, state.key_root, address.bucket + "/" + std::string(key), info));
    AppendElement(contents, "Size", std::to_string(info.size_bytes));
    AppendElement(contents, "StorageClass", "STANDARD");
    contents += "</Contents>";
    ++count;
  }
  if (max_keys == 0) truncated = false;

  auto encoded = [&](const std::string& text) {
    return url_encoding ? PercentEncode(text, "/") : text;
  };
  std::string xml = kXmlDeclaration;
  xml += "<ListBucketResult xmlns=\"";
  xml += kS3Namespace;
  xml += "\">";
  AppendElement(xml, "Name", address.bucket);
  AppendElement(xml, "Prefix", encoded(prefix));
  if (!delimiter.empty()) AppendElement(xml, "Delimiter", encoded(delimiter));
  AppendElement(xml, "MaxKeys", std::to_string(max_keys));
  AppendElement(xml, "KeyCount", std::to_string(count));
  AppendElement(xml, "IsTruncated", truncated ? "true" : "false");
  if (url_encoding) AppendElement(xml, "EncodingType", "url");
  if (token_text.has_value()) AppendElement(xml, "ContinuationToken", *token_text);
  if (truncated) AppendElement(xml, "NextContinuationToken", EncodeToken(last_position));
  if (!start_after.empty()) AppendElement(xml, "StartAfter", encoded(start_after));
  xml += contents;
  xml += common_prefixes;
  xml += "</ListBucketResult>";
  return http::Response::Xml(200, std::move(xml));
}

}  // namespace st::api::s3
