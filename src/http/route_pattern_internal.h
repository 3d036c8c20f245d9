// Compiled route templates and their matching rules (see router.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "http/router.h"

namespace st::http::internal {

enum class PieceKind { kGreedy = 0, kCapture = 1, kLiteral = 2 };  // Ordered by specificity.

struct Piece {
  PieceKind kind = PieceKind::kLiteral;
  std::string text;  // Literal text, or the capture name.
};

struct RoutePattern {
  std::vector<Piece> pieces;
  // Literal texts and kinds only: two routes with equal shapes are ambiguous.
  std::string Shape() const;
  // Per-piece specificity, compared lexicographically.
  std::vector<int> Rank() const;
};

// Compiles prefix + template. Errors: kInvalidArgument naming the template.
Result<RoutePattern> CompilePattern(std::string_view prefix, std::string_view path_template);

// Matches decoded segments; on success fills `params` (if non-null).
bool MatchPattern(const RoutePattern& pattern, const std::vector<std::string>& segments,
                  PathParams* params);

bool MatchQuery(const std::vector<QueryRule>& rules, const QueryParams& query);

}  // namespace st::http::internal
