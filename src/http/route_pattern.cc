#include <set>

#include "http/route_pattern_internal.h"

namespace st::http::internal {

namespace {

Status BadTemplate(std::string_view full, std::string_view why) {
  return InvalidArgument("route template '" + std::string(full) + "': " + std::string(why));
}

// Splits "/a/b" into {"a","b"}; "/" and "" into {}.
std::vector<std::string_view> SplitTemplate(std::string_view path) {
  std::vector<std::string_view> out;
  if (path.empty() || path == "/") return out;
  path.remove_prefix(1);
  while (true) {
    size_t slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path = path.substr(slash + 1);
  }
  return out;
}

}  // namespace

std::string RoutePattern::Shape() const {
  std::string shape;
  for (const Piece& p : pieces) {
    shape += '/';
    if (p.kind == PieceKind::kLiteral) shape += p.text;
    if (p.kind == PieceKind::kCapture) shape += "{}";
    if (p.kind == PieceKind::kGreedy) shape += "{+}";
  }
  return shape;
}

std::vector<int> RoutePattern::Rank() const {
  std::vector<int> rank;
  rank.reserve(pieces.size());
  for (const Piece& p : pieces) rank.push_back(static_cast<int>(p.kind));
  return rank;
}

Result<RoutePattern> CompilePattern(std::string_view prefix, std::string_view path_template) {
  std::string full = std::string(prefix) + std::string(path_template);
  if (!prefix.empty() && (prefix.front() != '/' || prefix.back() == '/')) {
    return Err(BadTemplate(full, "a surface prefix is \"\" or \"/name\" without trailing '/'"));
  }
  if (path_template.empty() || path_template.front() != '/') {
    return Err(BadTemplate(full, "must start with '/'"));
  }
  RoutePattern pattern;
  std::set<std::string, std::less<>> names;
  std::vector<std::string_view> parts = SplitTemplate(prefix);
  std::vector<std::string_view> rest = SplitTemplate(path_template);
  size_t prefix_count = parts.size();
  parts.insert(parts.end(), rest.begin(), rest.end());
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    Piece piece;
    if (part.empty()) return Err(BadTemplate(full, "empty segment ('//' or trailing '/')"));
    if (part.front() == '{') {
      if (i < prefix_count) return Err(BadTemplate(full, "the prefix must be literal"));
      if (part.back() != '}' || part.size() < 3) {
        return Err(BadTemplate(full, "a capture must be a whole segment '{name}'"));
      }
      std::string_view name = part.substr(1, part.size() - 2);
      piece.kind = PieceKind::kCapture;
      if (name.back() == '+') {
        if (i + 1 != parts.size())
          return Err(BadTemplate(full, "'{name+}' must be the last segment"));
        name.remove_suffix(1);
        piece.kind = PieceKind::kGreedy;
      }
      if (name.empty() || name.find_first_of("{}/+") != std::string_view::npos) {
        return Err(BadTemplate(full, "bad capture name '" + std::string(name) + "'"));
      }
      if (!names.emplace(name).second) {
        return Err(BadTemplate(full, "capture '" + std::string(name) + "' appears twice"));
      }
      piece.text = std::string(name);
    } else {
      if (part.find_first_of("{}") != std::string_view::npos) {
        return Err(BadTemplate(full, "a capture must be a whole segment '{name}'"));
      }
      piece.text = std::string(part);
    }
    pattern.pieces.push_back(std::move(piece));
  }
  return pattern;
}

bool MatchPattern(const RoutePattern& pattern, const std::vector<std::string>& segments,
                  PathParams* params) {
  const auto& pieces = pattern.pieces;
  bool greedy = !pieces.empty() && pieces.back().kind == PieceKind::kGreedy;
  size_t count = segments.size();
  // "/v1/config/" and "/bucket/" match "/v1/config" and "/{bucket}"; a greedy
  // key keeps its trailing '/' ("dir/" is a legal S3 key).
  if (!greedy && count > 0 && segments.back().empty()) --count;

  size_t fixed = greedy ? pieces.size() - 1 : pieces.size();
  if (greedy ? count <= fixed : count != fixed) return false;

  for (size_t i = 0; i < fixed; ++i) {
    const Piece& piece = pieces[i];
    const std::string& segment = segments[i];
    if (piece.kind == PieceKind::kLiteral) {
      if (segment != piece.text) return false;
    } else if (segment.empty() || segment == "." || segment == "..") {
      return false;
    }
  }
  std::string rest;
  if (greedy) {
    for (size_t i = fixed; i < count; ++i) {
      if (i > fixed) rest += '/';
      rest += segments[i];
    }
    if (rest.empty()) return false;
  }
  if (params != nullptr) {
    for (size_t i = 0; i < fixed; ++i) {
      if (pieces[i].kind == PieceKind::kCapture) params->Add(pieces[i].text, segments[i]);
    }
    if (greedy) params->Add(pieces.back().text, std::move(rest));
  }
  return true;
}

bool MatchQuery(const std::vector<QueryRule>& rules, const QueryParams& query) {
  for (const QueryRule& rule : rules) {
    if (rule.value.has_value()) {
      bool found = false;
      for (std::string_view v : query.GetAll(rule.key)) found = found || v == *rule.value;
      if (!found) return false;
    } else if (!query.Has(rule.key)) {
      return false;
    }
  }
  return true;
}

}  // namespace st::http::internal
