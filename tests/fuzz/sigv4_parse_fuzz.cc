// SigV4 parameters from outside bytes: the Authorization header and the
// presigned X-Amz-* query (auth/sigv4_parse.cc), then the whole verifier
// (canonical request over the raw path and query, scope and time checks)
// with a lookup that knows every key, so inputs reach signature comparison.
//
// Input: line 1 the method, line 2 the raw path, line 3 the raw query, every
// further line one header "name:value"; the rest after a blank line is the body.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "auth/sigv4.h"
#include "auth/sigv4_parse_internal.h"
#include "common/clock.h"

namespace {

class AnyKey final : public st::auth::SecretLookup {
 public:
  st::Result<st::auth::SecretRecord> Lookup(std::string_view access_key_id) const override {
    if (access_key_id == "UNKNOWN") return st::Err(st::NotFound("no such key"));
    st::auth::SecretRecord record;
    record.secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    record.principal.type = st::auth::PrincipalType::kUser;
    record.principal.account_id = "111122223333";
    record.principal.arn = "arn:aws:iam::111122223333:user/alice";
    if (access_key_id.starts_with("ASIA")) record.session_token = "token";
    return record;
  }
};

bool NextLine(std::string_view& rest, std::string_view* line) {
  if (rest.empty()) return false;
  size_t nl = rest.find('\n');
  *line = rest.substr(0, nl);
  rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  st::auth::HttpRequestView view;
  std::string_view line;
  if (NextLine(rest, &line)) view.method = line;
  if (NextLine(rest, &line)) view.raw_path = line;
  if (NextLine(rest, &line)) view.raw_query = line;
  while (NextLine(rest, &line)) {
    if (line.empty()) {
      view.body = rest;
      break;
    }
    size_t colon = line.find(':');
    view.headers.emplace_back(line.substr(0, colon), colon == std::string_view::npos
                                                         ? std::string_view()
                                                         : line.substr(colon + 1));
  }
  (void)st::auth::ParseAuthorization(view);

  static const AnyKey secrets;
  // 2013-05-24T00:00:00Z, the date of AWS's documented examples.
  static const st::ManualClock clock(
      std::chrono::system_clock::time_point(std::chrono::seconds(1369353600)));
  static const st::auth::SigV4Verifier verifier(secrets, clock);
  st::auth::SigV4Rejection rejection;
  (void)verifier.Verify(view, &rejection);
  return 0;
}
