#include "http/request_target.h"

#include <cctype>
#include <optional>
#include <utility>

namespace st::http {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void QueryParams::Add(std::string key, std::string value) {
  params_.emplace_back(std::move(key), std::move(value));
}

std::optional<std::string_view> QueryParams::Get(std::string_view key) const {
  for (const Param& p : params_) {
    if (p.first == key) return std::string_view(p.second);
  }
  return std::nullopt;
}

std::vector<std::string_view> QueryParams::GetAll(std::string_view key) const {
  std::vector<std::string_view> out;
  for (const Param& p : params_) {
    if (p.first == key) out.emplace_back(p.second);
  }
  return out;
}

Result<std::string> PercentDecode(std::string_view text, bool plus_as_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      int hi = i + 1 < text.size() ? HexValue(text[i + 1]) : -1;
      int lo = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return Err(InvalidArgument("malformed percent-escape in '" + std::string(text) +
                                   "' at offset " + std::to_string(i) + "; encode '%' as %25"));
      }
      char decoded = static_cast<char>(hi * 16 + lo);
      if (decoded == '\0') {
        return Err(InvalidArgument("percent-escape %00 (NUL) in '" + std::string(text) +
                                   "' is not allowed"));
      }
      out.push_back(decoded);
      i += 2;
    } else if (c == '+' && plus_as_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

// "http://host:port/p?q" -> ("host:port", "/p?q"); nullopt for other forms.
// Scheme names are case-insensitive (RFC 3986 §3.1).
std::optional<std::pair<std::string_view, std::string>> SplitAbsoluteForm(std::string_view target) {
  for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
    if (target.size() < scheme.size()) continue;
    bool same = true;
    for (size_t i = 0; i < scheme.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(target[i])) == scheme[i];
    }
    if (!same) continue;
    std::string_view rest = target.substr(scheme.size());
    size_t end = rest.find_first_of("/?");
    std::string_view authority = rest.substr(0, end);
    if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
    std::string origin = end == std::string_view::npos ? "/" : std::string(rest.substr(end));
    if (origin.front() == '?') origin.insert(0, "/");
    return std::make_pair(authority, std::move(origin));
  }
  return std::nullopt;
}

}  // namespace

Result<RequestTarget> ParseRequestTarget(std::string_view target) {
  RequestTarget out;
  std::string origin_form;
  if (!target.empty() && target.front() != '/') {
    auto absolute = SplitAbsoluteForm(target);
    if (!absolute.has_value()) {
      return Err(InvalidArgument("request target '" + std::string(target) +
                                 "' is neither a path starting with '/' nor an absolute "
                                 "http:// URL; send a path starting with '/'"));
    }
    out.authority = std::string(absolute->first);
    origin_form = std::move(absolute->second);
    target = origin_form;
  }
  if (target.empty()) {
    return Err(InvalidArgument("the request target is empty; send a path starting with '/'"));
  }
  size_t question = target.find('?');
  out.raw_path = std::string(target.substr(0, question));
  if (question != std::string_view::npos) out.raw_query = std::string(target.substr(question + 1));

  std::string_view rest = std::string_view(out.raw_path).substr(1);
  if (!rest.empty()) {
    while (true) {
      size_t slash = rest.find('/');
      std::string_view piece = rest.substr(0, slash);
      ST_ASSIGN_OR_RETURN(std::string segment, PercentDecode(piece, /*plus_as_space=*/false));
      out.segments.push_back(std::move(segment));
      if (slash == std::string_view::npos) break;
      rest = rest.substr(slash + 1);
    }
  }

  std::string_view query = out.raw_query;
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;  // "a=1&&b=2" and a trailing '&'.
    size_t eq = pair.find('=');
    ST_ASSIGN_OR_RETURN(std::string key, PercentDecode(pair.substr(0, eq), true));
    std::string value;
    if (eq != std::string_view::npos) {
      ST_ASSIGN_OR_RETURN(value, PercentDecode(pair.substr(eq + 1), true));
    }
    out.query.Add(std::move(key), std::move(value));
  }
  return out;
}

}  // namespace st::http
