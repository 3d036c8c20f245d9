#include "registry/json_ref_internal.h"

namespace st::registry {

namespace {

// The length of "scheme:" at the start of `uri`, or 0 without a scheme.
size_t SchemeLength(std::string_view uri) {
  if (uri.empty() || !((uri[0] >= 'a' && uri[0] <= 'z') || (uri[0] >= 'A' && uri[0] <= 'Z'))) {
    return 0;
  }
  for (size_t i = 1; i < uri.size(); ++i) {
    const char c = uri[i];
    if (c == ':') return i + 1;
    const bool scheme_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                             (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
    if (!scheme_char) return 0;
  }
  return 0;
}

}  // namespace

std::vector<std::string> JsonRefCandidateNames(std::string_view file, std::string_view base_id) {
  std::vector<std::string> out{std::string(file)};
  if (SchemeLength(file) > 0) return out;
  std::string_view base = base_id.substr(0, base_id.find_first_of("#?"));
  const size_t scheme = SchemeLength(base);
  if (scheme == 0) return out;
  std::string resolved;
  if (file.substr(0, 2) == "//") {
    resolved = std::string(base.substr(0, scheme)) + std::string(file);
  } else if (file.substr(0, 1) == "/") {
    // Keep "scheme://authority".
    size_t path_at = base.size();
    if (base.substr(scheme, 2) == "//") {
      path_at = base.find('/', scheme + 2);
      if (path_at == std::string_view::npos) path_at = base.size();
    } else {
      path_at = scheme;
    }
    resolved = std::string(base.substr(0, path_at)) + std::string(file);
  } else {
    // The base's path starts after "scheme:" or after "scheme://authority".
    size_t path_at = scheme;
    if (base.substr(scheme, 2) == "//") {
      path_at = base.find('/', scheme + 2);
      if (path_at == std::string_view::npos) path_at = base.size();
    }
    const size_t slash = base.rfind('/');
    if (path_at == base.size()) {
      resolved = std::string(base) + "/" + std::string(file);  // "https://host" + "x"
    } else if (slash == std::string_view::npos || slash < path_at) {
      resolved = std::string(base.substr(0, path_at)) + std::string(file);  // "urn:a" + "x"
    } else {
      resolved = std::string(base.substr(0, slash + 1)) + std::string(file);
    }
  }
  if (resolved != out[0]) out.push_back(std::move(resolved));
  return out;
}

}  // namespace st::registry
