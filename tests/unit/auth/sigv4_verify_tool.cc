// Test-only: verifies one request read as JSON from stdin and prints the
// outcome as JSON, so tests/integration/test_sigv4_botocore.py can check
// requests that a foreign signer (botocore) produced.
//
// Input:  {"method", "path" (raw, encoded), "query" (raw), "headers": [[name, value], ...],
//          "body" (UTF-8, optional), "body_hex" (optional), "now" (YYYYMMDDTHHMMSSZ),
//          "keys": {"<akid>": {"secret": "...", "token": "..."}},
//          "services": [...] (optional), "variants": true (optional)}
// Output: {"ok": true, "access_key_id", "service", "region", "presigned", "payload_mode"}
//         or {"ok": false, "reason", "code", "message", "canonical_request", "string_to_sign"}
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "auth/sigv4.h"
#include "auth/time_format_internal.h"

namespace {

class MapLookup final : public st::auth::SecretLookup {
 public:
  std::map<std::string, st::auth::SecretRecord, std::less<>> records;
  st::Result<st::auth::SecretRecord> Lookup(std::string_view access_key_id) const override {
    auto it = records.find(access_key_id);
    if (it == records.end()) return st::Err(st::NotFound("no such key"));
    return it->second;
  }
};

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

int Run() {
  std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  nlohmann::json in = nlohmann::json::parse(input, nullptr, false);
  if (in.is_discarded()) {
    std::cerr << "stdin is not JSON\n";
    return 2;
  }
  MapLookup lookup;
  const nlohmann::json keys = in.value("keys", nlohmann::json::object());
  for (auto& [akid, key] : keys.items()) {
    st::auth::SecretRecord record;
    record.secret_access_key = key.value("secret", "");
    record.session_token = key.value("token", "");
    record.principal.type = st::auth::PrincipalType::kUser;
    lookup.records[akid] = record;
  }
  auto now = st::auth::ParseAmzDate(in.value("now", ""));
  if (!now) {
    std::cerr << "\"now\" must be YYYYMMDDTHHMMSSZ\n";
    return 2;
  }
  st::ManualClock clock(*now);
  st::auth::SigV4VerifierOptions options;
  if (in.contains("services")) options.services = in["services"].get<std::vector<std::string>>();
  options.accept_client_variants = in.value("variants", true);
  st::auth::SigV4Verifier verifier(lookup, clock, options);

  std::string method = in.value("method", "GET"), path = in.value("path", "/"),
              query = in.value("query", "");
  std::vector<std::pair<std::string, std::string>> headers;
  const nlohmann::json header_list = in.value("headers", nlohmann::json::array());
  for (auto& h : header_list) {
    headers.emplace_back(h.at(0).get<std::string>(), h.at(1).get<std::string>());
  }
  std::optional<std::string> body;
  if (in.contains("body")) body = in["body"].get<std::string>();
  if (in.contains("body_hex")) body = FromHex(in["body_hex"].get<std::string>());

  st::auth::HttpRequestView view;
  view.method = method;
  view.raw_path = path;
  view.raw_query = query;
  for (const auto& [name, value] : headers) view.headers.emplace_back(name, value);
  if (body) view.body = *body;

  st::auth::SigV4Rejection rejection;
  auto result = verifier.Verify(view, &rejection);
  nlohmann::json out;
  if (result) {
    out = {{"ok", true},
           {"access_key_id", result->access_key_id},
           {"service", result->scope.service},
           {"region", result->scope.region},
           {"presigned", result->presigned},
           {"payload_mode", static_cast<int>(result->payload_mode)}};
  } else {
    out = {{"ok", false},
           {"reason", std::string(st::auth::SigV4ErrorName(rejection.reason))},
           {"code", std::string(st::auth::SigV4ErrorCode(rejection.reason))},
           {"message", result.error().ToString()},
           {"canonical_request", rejection.canonical_request},
           {"string_to_sign", rejection.string_to_sign}};
  }
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace

int main() {
  try {
    return Run();
  } catch (const std::exception& e) {  // nlohmann type errors on malformed input.
    std::cerr << "bad input: " << e.what() << "\n";
    return 2;
  }
}
