#include "delivery/channel_config.h"

#include <nlohmann/json.hpp>

namespace st::delivery {

namespace {

using nlohmann::json;

// The member at a '/'-separated path, or nullptr.
const json* At(const json& root, std::initializer_list<const char*> path) {
  const json* node = &root;
  for (const char* key : path) {
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end() || it->is_null()) return nullptr;
    node = &*it;
  }
  return node;
}

Result<std::string> RequiredString(const json& root, std::initializer_list<const char*> path,
                                   const std::string& name) {
  const json* node = At(root, path);
  if (node == nullptr || !node->is_string() || node->get<std::string>().empty()) {
    return Err(InvalidArgument("The channel configuration has no " + name +
                               "; recreate the channel with it."));
  }
  return node->get<std::string>();
}

std::optional<std::string> OptionalString(const json& root,
                                          std::initializer_list<const char*> path) {
  const json* node = At(root, path);
  if (node == nullptr || !node->is_string() || node->get<std::string>().empty()) {
    return std::nullopt;
  }
  return node->get<std::string>();
}

// Field 4 of an ARN (the account), or "".
std::string ArnAccount(const std::string& arn) {
  size_t pos = 0;
  for (int i = 0; i < 4; ++i) {
    pos = arn.find(':', pos);
    if (pos == std::string::npos) return "";
    ++pos;
  }
  size_t end = arn.find(':', pos);
  return end == std::string::npos ? "" : arn.substr(pos, end - pos);
}

}  // namespace

Result<ChannelConfig> ParseChannelConfig(const std::string& configuration_json) {
  json root = json::parse(configuration_json, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) {
    return Err(InvalidArgument("The channel configuration is not a JSON object."));
  }
  ChannelConfig config;
  const json* topics = At(root, {"topicConfigurationList"});
  if (topics == nullptr || !topics->is_array() || topics->size() != 1) {
    return Err(
        InvalidArgument("The channel configuration needs exactly one "
                        "topicConfigurationList entry."));
  }
  const json& topic = (*topics)[0];
  ST_ASSIGN_OR_RETURN(config.topic_arn,
                      RequiredString(topic, {"topicArn"}, "topicConfigurationList[0].topicArn"));
  ST_ASSIGN_OR_RETURN(std::string converter,
                      RequiredString(topic, {"recordConverter", "valueConverter"},
                                     "recordConverter.valueConverter"));
  if (converter == "JSON") {
    config.value_converter = ValueConverter::kJson;
  } else if (converter == "JSON_SCHEMA_GSR") {
    config.value_converter = ValueConverter::kJsonSchemaGsr;
  } else if (converter == "BYTE_ARRAY") {
    config.value_converter = ValueConverter::kByteArray;
  } else if (converter == "STRING") {
    config.value_converter = ValueConverter::kString;
  } else {
    return Err(InvalidArgument("Unknown valueConverter '" + converter + "'."));
  }
  config.gsr_arn = OptionalString(topic, {"recordSchema", "gsrArn"});
  if (config.value_converter == ValueConverter::kJson && !config.gsr_arn) {
    return Err(InvalidArgument("A JSON channel needs recordSchema.gsrArn."));
  }

  const json* iceberg = At(root, {"icebergDestinationConfiguration"});
  if (iceberg == nullptr || !iceberg->is_object()) {
    return Err(
        InvalidArgument("The channel has no icebergDestinationConfiguration; only the "
                        "Iceberg destination is delivered."));
  }
  ST_ASSIGN_OR_RETURN(config.service_role_arn,
                      RequiredString(*iceberg, {"serviceExecutionRoleArn"},
                                     "icebergDestinationConfiguration.serviceExecutionRoleArn"));
  config.role_account_id = ArnAccount(config.service_role_arn);
  if (const json* f = At(*iceberg, {"dataFreshnessInSeconds"}); f != nullptr) {
    if (!f->is_number_integer() || f->get<int64_t>() < 1 || f->get<int64_t>() > 900) {
      return Err(InvalidArgument("dataFreshnessInSeconds must be an integer from 1 to 900."));
    }
    config.data_freshness = std::chrono::seconds(f->get<int64_t>());
  }
  if (auto c = OptionalString(*iceberg, {"compressionType"})) config.compression = *c;
  ST_ASSIGN_OR_RETURN(
      config.dlq_bucket_arn,
      RequiredString(*iceberg, {"deadLetterQueueS3", "bucketArn"}, "deadLetterQueueS3.bucketArn"));
  const std::string s3_prefix = "arn:aws:s3:::";
  if (config.dlq_bucket_arn.rfind(s3_prefix, 0) != 0 ||
      config.dlq_bucket_arn.size() == s3_prefix.size()) {
    return Err(InvalidArgument("deadLetterQueueS3.bucketArn '" + config.dlq_bucket_arn +
                               "' is not an S3 bucket ARN (arn:aws:s3:::<bucket>)."));
  }
  config.dlq_bucket_name = config.dlq_bucket_arn.substr(s3_prefix.size());
  config.dlq_prefix =
      OptionalString(*iceberg, {"deadLetterQueueS3", "errorOutputPrefix"}).value_or("");
  config.dlq_topic = OptionalString(*iceberg, {"deadLetterTopic", "topicName"});
  if (const json* m = At(*iceberg, {"includeKafkaMetadata"}); m != nullptr && m->is_boolean()) {
    config.include_kafka_metadata = m->get<bool>();
  }
  ST_ASSIGN_OR_RETURN(config.table_bucket_arn,
                      RequiredString(*iceberg, {"catalog", "warehouseLocation"},
                                     "catalog.warehouseLocation (the table bucket ARN)"));
  const json* tables = At(*iceberg, {"destinationTableList"});
  if (tables == nullptr || !tables->is_array() || tables->size() != 1) {
    return Err(InvalidArgument("The channel needs exactly one destinationTableList entry."));
  }
  const json& table = (*tables)[0];
  ST_ASSIGN_OR_RETURN(config.namespace_name, RequiredString(table, {"destinationDatabaseName"},
                                                            "destinationDatabaseName"));
  ST_ASSIGN_OR_RETURN(config.table_name,
                      RequiredString(table, {"destinationTableName"}, "destinationTableName"));
  std::string strategy =
      OptionalString(table, {"partitionSpec", "partitionStrategy"}).value_or("TIME_HOUR");
  if (strategy == "TIME_DAY") {
    config.daily = true;
  } else if (strategy != "TIME_HOUR") {
    return Err(InvalidArgument("Unknown partitionStrategy '" + strategy + "'."));
  }
  if (const json* sources = At(table, {"partitionSpec", "sourceList"});
      sources != nullptr && sources->is_array() && !sources->empty()) {
    config.partition_source = OptionalString((*sources)[0], {"sourceName"});
  }
  return config;
}

}  // namespace st::delivery
