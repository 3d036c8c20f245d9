#include <string_view>

#include "api/iceberg_rest/load_table_result_internal.h"

namespace st::api::iceberg_rest {

namespace {

// The access key id of a SigV4 request: from the Authorization header's
// Credential=<id>/... or a presigned X-Amz-Credential; "" when unsigned.
std::string SigningAccessKeyId(const http::Request& request) {
  std::string_view credential;
  if (auto authorization = request.headers.Get("Authorization"); authorization.has_value()) {
    size_t at = authorization->find("Credential=");
    if (at != std::string_view::npos) credential = authorization->substr(at + 11);
  } else if (auto query = request.query().Get("X-Amz-Credential"); query.has_value()) {
    credential = *query;
  }
  size_t slash = credential.find('/');
  return slash == std::string_view::npos ? std::string() : std::string(credential.substr(0, slash));
}

}  // namespace

nlohmann::json EndpointConfig(const IcebergRestDeps& deps) {
  return {{"s3.endpoint", deps.s3_endpoint},
          {"s3.path-style-access", "true"},
          {"client.region", deps.region},
          {"s3.region", deps.region}};
}

nlohmann::json TableConfig(const IcebergRestDeps& deps, const http::Request& request,
                           const auth::Principal& principal) {
  nlohmann::json config = EndpointConfig(deps);
  std::string key_id = SigningAccessKeyId(request);
  if (key_id.empty() || principal.arn.empty()) return config;
  Result<catalog::AccessKey> key = deps.store.GetAccessKey(key_id);
  if (key.has_value() && key->owner_arn == principal.arn &&
      key->status == catalog::AccessKeyStatus::kActive) {
    config["s3.access-key-id"] = key->access_key_id;
    config["s3.secret-access-key"] = key->secret_access_key;
  }
  return config;
}

std::string LoadTableResultJson(const std::optional<std::string>& metadata_location,
                                const iceberg::TableMetadata& metadata,
                                const nlohmann::json& config) {
  // The metadata is spliced in as serialized: it is the largest part, and a
  // parse-and-dump round trip would only cost time on the hottest route.
  nlohmann::json location =
      metadata_location.has_value() ? nlohmann::json(*metadata_location) : nlohmann::json();
  return "{\"metadata-location\":" + location.dump() +
         ",\"metadata\":" + iceberg::SerializeTableMetadata(metadata) +
         ",\"config\":" + config.dump() + "}";
}

std::string CommitTableResponseJson(const std::string& metadata_location,
                                    const iceberg::TableMetadata& metadata) {
  return "{\"metadata-location\":" + nlohmann::json(metadata_location).dump() +
         ",\"metadata\":" + iceberg::SerializeTableMetadata(metadata) + "}";
}

}  // namespace st::api::iceberg_rest
