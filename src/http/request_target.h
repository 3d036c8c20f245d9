// Splitting a request-target into path segments and query parameters.
//
// The raw path is split on '/' BEFORE percent-decoding, and each segment is
// decoded on its own (docs/api-contract-notes.md §1.1): an S3 Tables ARN label arrives as
// one segment "arn%3Aaws%3A...%3Abucket%2Fname" and must stay one segment.
// Nothing is normalised: "." and ".." (raw or encoded as %2e) remain ordinary
// segments, so a path can never climb out of its route; whoever maps a
// segment to a filesystem name validates it there.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace st::http {

// Query parameters in order of appearance; repeated keys stay repeated
// (`tagKeys=k&tagKeys=j`). A key without '=' (`?uploads`) has value "".
class QueryParams {
 public:
  using Param = std::pair<std::string, std::string>;

  void Add(std::string key, std::string value);
  // The first value of `key` (case-sensitive); nullopt when absent.
  std::optional<std::string_view> Get(std::string_view key) const;
  std::vector<std::string_view> GetAll(std::string_view key) const;
  bool Has(std::string_view key) const { return Get(key).has_value(); }

  const std::vector<Param>& params() const { return params_; }
  bool empty() const { return params_.empty(); }

 private:
  std::vector<Param> params_;
};

struct RequestTarget {
  // For an absolute-form target ("http://host:port/path"), the host:port it
  // named (RFC 9112 §3.2.2: it replaces the Host header); "" for origin-form.
  std::string authority;
  std::string raw_path;   // As sent, still encoded, starting with '/'.
  std::string raw_query;  // After '?', still encoded, without the '?'; "" when none.
  // raw_path without its leading '/', split on '/', then each piece
  // percent-decoded. "/" gives no segments; "/a/" gives {"a", ""}.
  std::vector<std::string> segments;
  QueryParams query;  // Keys and values percent-decoded, '+' read as space.
};

// Decodes %XX escapes. `plus_as_space` is for query strings only: in a path
// '+' is a literal plus (§4.1). Errors: kInvalidArgument for a truncated or
// non-hex escape, or an escape that decodes to NUL.
Result<std::string> PercentDecode(std::string_view text, bool plus_as_space);

// Parses an origin-form request-target ("/path?query") or an absolute-form
// one ("http://host[:port]/path?query", which HTTP/1.1 servers must accept and
// clients send through a proxy; an empty path is "/"). Errors:
// kInvalidArgument for any other form (asterisk-form, authority-form, another
// scheme) or a malformed escape; the message names the offending part.
Result<RequestTarget> ParseRequestTarget(std::string_view target);

}  // namespace st::http
