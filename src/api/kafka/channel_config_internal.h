// Validation of CreateChannel / UpdateChannel bodies (msk-channel-api.md §3,
// §4) with our documented extensions (README.md). Every refusal is a 400
// BadRequestException whose invalidParameter names the camelCase member.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/arns.h"
#include "catalog/metadata_store.h"
#include "http/http_error.h"

namespace st::api::kafka {

template <typename T>
using Checked = tl::expected<T, http::HttpError>;

struct ChannelRequest {
  std::string channel_name;
  std::string topic_name;
  std::string service_execution_role_arn;
  std::string role_account_id;       // The role ARN's account field (may be empty).
  std::string warehouse_bucket_arn;  // catalog.warehouseLocation
  catalog::Tags tags;
  // The body without tags, defaults filled: what configuration_json stores.
  nlohmann::json configuration;
};

// `cluster` is the path's cluster: the topic ARN must name a topic of it.
Checked<ChannelRequest> ValidateCreateChannel(const nlohmann::json& body,
                                              const catalog::KafkaClusterArnParts& cluster);

// The new dataFreshnessInSeconds of an UpdateChannel body (exactly one of
// icebergDestinationUpdate / s3DestinationUpdate; the S3 one is refused since
// every channel here is ICEBERG).
Checked<int64_t> ValidateUpdateChannel(const nlohmann::json& body);

// Extension: 1–900 (AWS: 300–900). Default 600.
inline constexpr int64_t kMinFreshnessSeconds = 1;
inline constexpr int64_t kMaxFreshnessSeconds = 900;
inline constexpr int64_t kDefaultFreshnessSeconds = 600;

}  // namespace st::api::kafka
