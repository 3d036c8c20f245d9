// What the delivery runtime reads from a channel's configuration_json (the
// CreateChannel body with defaults filled, msk-channel-api.md §3.1 plus our
// extensions in the plan).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "common/status.h"

namespace st::delivery {

enum class ValueConverter { kJson, kJsonSchemaGsr, kByteArray, kString };

struct ChannelConfig {
  std::string topic_arn;
  ValueConverter value_converter = ValueConverter::kJson;
  std::optional<std::string> gsr_arn;  // recordSchema.gsrArn (JSON).
  std::string service_role_arn;
  std::string role_account_id;  // From the role ARN.
  std::chrono::seconds data_freshness{600};
  std::string compression = "ZSTD";  // ZSTD | SNAPPY
  // deadLetterQueueS3.
  std::string dlq_bucket_arn;
  std::string dlq_bucket_name;
  std::string dlq_prefix;
  std::optional<std::string> dlq_topic;  // Extension: deadLetterTopic.topicName.
  bool include_kafka_metadata = true;
  // catalog.warehouseLocation: the table bucket ARN.
  std::string table_bucket_arn;
  std::string namespace_name;
  std::string table_name;
  bool daily = false;                           // TIME_DAY instead of TIME_HOUR.
  std::optional<std::string> partition_source;  // sourceList[0].sourceName.
};

// Errors: InvalidArgument naming the JSON field (a row the API should never
// have accepted; the channel goes FAILED with this message).
Result<ChannelConfig> ParseChannelConfig(const std::string& configuration_json);

}  // namespace st::delivery
