#include <algorithm>
#include <cctype>

#include "auth/digest_internal.h"
#include "auth/sigv4_canonical_internal.h"
#include "common/percent_encoding.h"

namespace st::auth {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 3986 §5.2.4 dot-segment removal plus collapsing of empty segments, as
// AWS's non-S3 services expect; a leading and trailing '/' survive.
std::string NormalizePath(std::string_view path) {
  if (path.empty()) return "/";
  std::vector<std::string_view> kept;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    if (segment == "..") {
      if (!kept.empty()) kept.pop_back();
    } else if (!segment.empty() && segment != ".") {
      kept.push_back(segment);
    }
    start = end + 1;
  }
  std::string out = path.front() == '/' ? "/" : "";
  for (size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) out += '/';
    out += kept[i];
  }
  if (path.back() == '/' && !kept.empty()) out += '/';
  return out.empty() ? "/" : out;
}

std::string CollapseWhitespace(std::string_view value) {
  std::string out;
  bool in_space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      in_space = true;
      continue;
    }
    if (in_space && !out.empty()) out += ' ';
    in_space = false;
    out += c;
  }
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::string PercentDecode(std::string_view text, bool plus_as_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      int hi = HexValue(text[i + 1]), lo = HexValue(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += (plus_as_space && c == '+') ? ' ' : c;
  }
  return out;
}

std::vector<std::pair<std::string_view, std::string_view>> SplitRawQuery(std::string_view raw) {
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  size_t start = 0;
  while (start <= raw.size()) {
    size_t end = raw.find('&', start);
    if (end == std::string_view::npos) end = raw.size();
    std::string_view item = raw.substr(start, end - start);
    if (!item.empty()) {
      size_t eq = item.find('=');
      if (eq == std::string_view::npos) {
        pairs.emplace_back(item, std::string_view());
      } else {
        pairs.emplace_back(item.substr(0, eq), item.substr(eq + 1));
      }
    }
    start = end + 1;
  }
  return pairs;
}

std::string CanonicalUri(std::string_view raw_path, UriStyle style) {
  switch (style) {
    case UriStyle::kRawPath:
      return raw_path.empty() ? "/" : std::string(raw_path);
    case UriStyle::kDoubleEncoded:
      return PercentEncode(NormalizePath(raw_path), "/");
    case UriStyle::kDoubleEncodedKeepSubDelims:
      return PercentEncode(NormalizePath(raw_path), "/:@$&,=");
  }
  return std::string(raw_path);
}

std::string CanonicalQuery(std::string_view raw_query, QueryStyle style, bool drop_signature) {
  auto raw_pairs = SplitRawQuery(raw_query);
  auto is_signature = [&](std::string_view raw_key) {
    return drop_signature && PercentDecode(raw_key) == "X-Amz-Signature";
  };
  if (style == QueryStyle::kVerbatim) {
    std::string out;
    for (const auto& [key, value] : raw_pairs) {
      if (is_signature(key)) continue;
      if (!out.empty()) out += '&';
      out += key;
      out += '=';
      out += value;
    }
    return out;
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& [key, value] : raw_pairs) {
    if (is_signature(key)) continue;
    if (style == QueryStyle::kRawSorted) {
      pairs.emplace_back(key, value);
    } else {
      bool plus = style == QueryStyle::kPlusAsSpaceSorted;
      pairs.emplace_back(PercentEncode(PercentDecode(key, plus)),
                         PercentEncode(PercentDecode(value, plus)));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out += '&';
    out += key;
    out += '=';
    out += value;
  }
  return out;
}

std::optional<std::string> CanonicalHeaderValue(const HttpRequestView& request,
                                                std::string_view name) {
  std::optional<std::string> joined;
  for (const auto& [header, value] : request.headers) {
    if (!EqualsIgnoreCase(header, name)) continue;
    std::string clean = CollapseWhitespace(value);
    if (joined) {
      *joined += ',';
      *joined += clean;
    } else {
      joined = std::move(clean);
    }
  }
  return joined;
}

std::string CanonicalHeaders(const HttpRequestView& request,
                             const std::vector<std::string>& signed_names) {
  std::string out;
  for (const std::string& name : signed_names) {
    out += name;
    out += ':';
    out += CanonicalHeaderValue(request, name).value_or("");
    out += '\n';
  }
  return out;
}

std::string CanonicalRequest(std::string_view method, std::string_view canonical_uri,
                             std::string_view canonical_query, std::string_view canonical_headers,
                             std::string_view signed_headers, std::string_view payload_hash) {
  std::string out;
  out.reserve(256 + canonical_uri.size() + canonical_query.size() + canonical_headers.size());
  out.append(method).append("\n");
  out.append(canonical_uri).append("\n");
  out.append(canonical_query).append("\n");
  out.append(canonical_headers).append("\n");
  out.append(signed_headers).append("\n");
  out.append(payload_hash);
  return out;
}

std::string StringToSign(std::string_view amz_date, const CredentialScope& scope,
                         std::string_view canonical_request) {
  std::string out = "AWS4-HMAC-SHA256\n";
  out.append(amz_date).append("\n");
  out.append(scope.ToString()).append("\n");
  out.append(Sha256Hex(canonical_request));
  return out;
}

std::string SigningKey(std::string_view secret, const CredentialScope& scope) {
  std::string k_date = HmacSha256("AWS4" + std::string(secret), scope.date);
  std::string k_region = HmacSha256(k_date, scope.region);
  std::string k_service = HmacSha256(k_region, scope.service);
  return HmacSha256(k_service, "aws4_request");
}

std::string CredentialScope::ToString() const {
  return date + "/" + region + "/" + service + "/aws4_request";
}

std::string ChunkSignature(std::string_view signing_key, std::string_view amz_date,
                           const CredentialScope& scope, std::string_view previous_signature,
                           std::string_view chunk_bytes) {
  std::string to_sign = "AWS4-HMAC-SHA256-PAYLOAD\n";
  to_sign.append(amz_date).append("\n");
  to_sign.append(scope.ToString()).append("\n");
  to_sign.append(previous_signature).append("\n");
  to_sign.append(Sha256Hex("")).append("\n");
  to_sign.append(Sha256Hex(chunk_bytes));
  return HexEncode(HmacSha256(signing_key, to_sign));
}

}  // namespace st::auth
