// The signed JSON client behind `streamtables bucket|namespace|table|policy|
// user|role|key|account`: resolves endpoint, region and credentials, signs
// every request with SigV4 (service s3tables, auth/sigv4_signer.h) and turns
// error replies into Status.
//
// Where settings come from, first match wins:
//   credentials  --profile NAME (~/.aws/credentials or AWS_SHARED_CREDENTIALS_FILE),
//                AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN),
//                <data-dir>/keys/admin.json
//   endpoint     --endpoint, STREAMTABLES_ENDPOINT, admin.json endpoints.api
//   region       --region, admin.json region, AWS_REGION, AWS_DEFAULT_REGION, us-east-1
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "auth/sigv4_signer.h"
#include "common/status.h"

namespace st::cli {

struct ServiceOptions {
  std::string data_dir = "./data";
  std::string endpoint;
  std::string profile;
  std::string region;
  bool json = false;  // Machine-readable output.
};

struct ServiceSettings {
  std::string api_url;  // "http://127.0.0.1:8181"
  std::string region;
  std::string account_id;  // From admin.json; "" when credentials came from elsewhere.
  auth::SigningCredentials credentials;
  std::string credentials_source;  // For messages: "admin.json at ...", "environment", ...
};

// Errors: kFailedPrecondition naming what is missing and where it was looked for.
Result<ServiceSettings> ResolveServiceSettings(const ServiceOptions& options);

using QueryList = std::vector<std::pair<std::string, std::string>>;

class ServiceClient {
 public:
  explicit ServiceClient(ServiceSettings settings) : settings_(std::move(settings)) {}

  // Sends METHOD <api_url><path>?<query> with `body` as JSON (when given),
  // signed for s3tables. `path` is already percent-encoded; query keys and
  // values are raw. Returns the parsed reply body (null when empty). Errors:
  // a non-2xx reply as a Status whose code follows the HTTP status (400
  // kInvalidArgument, 403 kAccessDenied, 404 kNotFound, 409 kConflict, 5xx
  // kUnavailable/kInternal) and whose message is "<ErrorType>: <message>";
  // transport errors of SendHttp.
  Result<nlohmann::json> Call(const std::string& method, const std::string& path,
                              const QueryList& query = {},
                              const std::optional<nlohmann::json>& body = std::nullopt) const;

  // An AWS JSON 1.1 call: POST <api_url><path> with X-Amz-Target `target`
  // ("TrentService.ListKeys") and `body`, signed for `service` ("kms").
  // Returns and fails as Call.
  Result<nlohmann::json> CallTarget(const std::string& path, const std::string& service,
                                    const std::string& target, const nlohmann::json& body) const;

  const ServiceSettings& settings() const { return settings_; }

 private:
  struct Wire {
    std::string service = "s3tables";
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers;  // Extra, signed.
  };
  Result<nlohmann::json> Send(const std::string& method, const std::string& path,
                              const QueryList& query, const std::optional<nlohmann::json>& body,
                              const Wire& wire) const;

  ServiceSettings settings_;
};

// "arn:..." stays; a bare name becomes the ARN in the settings' region and
// account, or (account unknown) is looked up with ListTableBuckets.
// Errors: kNotFound when no bucket has that name, and Call's errors.
Result<std::string> ResolveBucketArn(const ServiceClient& client, const std::string& name_or_arn);

}  // namespace st::cli
