// The checks follow the table in msk-channel-api.md §4, member by member, so
// that each refusal names the member a client has to fix.
#include <set>

#include "api/kafka/channel_config_internal.h"
#include "api/kafka/kafka_errors_internal.h"
#include "catalog/names.h"

namespace st::api::kafka {

namespace {

using nlohmann::json;

http::HttpError Bad(const std::string& member, const std::string& message) {
  return BadParameter(member, message);
}

// `object[key]` of the given type when present and not null.
Checked<const json*> Member(const json& object, const std::string& key, json::value_t type,
                            const char* type_name, bool required) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) return tl::unexpected(Bad(key, "The required member '" + key + "' is missing."));
    return nullptr;
  }
  bool ok =
      it->type() == type || (type == json::value_t::number_integer && it->is_number_unsigned());
  if (!ok) {
    return tl::unexpected(Bad(key, "The member '" + key + "' must be " + type_name + "."));
  }
  return &*it;
}

Checked<const json*> Obj(const json& o, const std::string& key, bool required) {
  return Member(o, key, json::value_t::object, "an object", required);
}
Checked<const json*> Arr(const json& o, const std::string& key, bool required) {
  return Member(o, key, json::value_t::array, "an array", required);
}
Checked<const json*> Str(const json& o, const std::string& key, bool required) {
  return Member(o, key, json::value_t::string, "a string", required);
}
Checked<const json*> Bool(const json& o, const std::string& key, bool required) {
  return Member(o, key, json::value_t::boolean, "a boolean", required);
}
Checked<const json*> Int(const json& o, const std::string& key, bool required) {
  return Member(o, key, json::value_t::number_integer, "an integer", required);
}

// One-element list members ("Currently exactly one ... must be specified").
Checked<const json*> SingleObject(const json& o, const std::string& key) {
  auto list = Arr(o, key, true);
  if (!list) return tl::unexpected(list.error());
  if ((*list)->size() != 1 || !(**list)[0].is_object()) {
    return tl::unexpected(Bad(key, "'" + key + "' must hold exactly one object."));
  }
  return &(**list)[0];
}

bool HasPrefix(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

bool IsDigits(const std::string& s, size_t n) {
  if (s.size() != n) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// arn:<partition>:<service>:<region?>:<account?>:<resource-prefix>...
bool ArnLike(const std::string& arn, const std::string& service, const std::string& resource) {
  if (!HasPrefix(arn, "arn:aws")) return false;
  std::vector<std::string> fields;
  size_t start = 0;
  for (int i = 0; i < 5; ++i) {
    size_t colon = arn.find(':', start);
    if (colon == std::string::npos) return false;
    fields.push_back(arn.substr(start, colon - start));
    start = colon + 1;
  }
  return fields[2] == service && HasPrefix(arn.substr(start), resource) &&
         arn.size() > start + resource.size();
}

// The account field of arn:<partition>:<service>:<region>:<account>:...
std::string ArnAccount(const std::string& arn) {
  size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    start = arn.find(':', start);
    if (start == std::string::npos) return "";
    ++start;
  }
  size_t end = arn.find(':', start);
  return end == std::string::npos ? "" : arn.substr(start, end - start);
}

bool IsErrorPrefixChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!-_'.*()/").find(c) != std::string_view::npos;
}

#define ST_CHECKED(var, expr)                                       \
  auto var##_checked = (expr);                                      \
  if (!var##_checked) return tl::unexpected(var##_checked.error()); \
  const json* var = *var##_checked

Checked<std::string> CheckTopic(const json& topic_config,
                                const catalog::KafkaClusterArnParts& cluster, json& out) {
  ST_CHECKED(topic_arn, Str(topic_config, "topicArn", true));
  auto parsed = catalog::ParseKafkaTopicArn(topic_arn->get<std::string>());
  if (!parsed) return tl::unexpected(Bad("topicArn", parsed.error().message()));
  if (parsed->cluster.cluster_arn != cluster.cluster_arn) {
    return tl::unexpected(Bad("topicArn", "The topic ARN '" + topic_arn->get<std::string>() +
                                              "' is not a topic of the cluster '" +
                                              cluster.cluster_arn + "'."));
  }
  ST_CHECKED(converter, Obj(topic_config, "recordConverter", true));
  ST_CHECKED(value_converter, Str(*converter, "valueConverter", true));
  std::string format = value_converter->get<std::string>();
  static const std::set<std::string> kFormats = {"JSON", "JSON_SCHEMA_GSR", "BYTE_ARRAY", "STRING"};
  if (kFormats.count(format) == 0) {
    return tl::unexpected(Bad("valueConverter", "The valueConverter '" + format +
                                                    "' is not valid: use JSON, JSON_SCHEMA_GSR, "
                                                    "BYTE_ARRAY or STRING."));
  }
  ST_CHECKED(schema, Obj(topic_config, "recordSchema", format == "JSON"));
  if (format == "JSON") {
    ST_CHECKED(gsr_arn, Str(*schema, "gsrArn", true));
    if (!ArnLike(gsr_arn->get<std::string>(), "glue", "schema/")) {
      return tl::unexpected(Bad("gsrArn", "The gsrArn '" + gsr_arn->get<std::string>() +
                                              "' must be a Glue schema ARN "
                                              "(arn:aws:glue:<region>:<account>:schema/<registry>/"
                                              "<schema>)."));
    }
  } else if (schema != nullptr) {
    return tl::unexpected(
        Bad("recordSchema", "recordSchema is only for the JSON converter: " + format +
                                " records carry their schema id (JSON_SCHEMA_GSR) or need none."));
  }
  out = topic_config;
  return parsed->topic;
}

Checked<bool> CheckDeadLetter(const json& iceberg) {
  ST_CHECKED(dlq, Obj(iceberg, "deadLetterQueueS3", true));
  ST_CHECKED(bucket_arn, Str(*dlq, "bucketArn", true));
  auto bucket = catalog::ParseGeneralPurposeBucketArn(bucket_arn->get<std::string>());
  if (!bucket) return tl::unexpected(Bad("bucketArn", bucket.error().message()));
  ST_CHECKED(prefix, Str(*dlq, "errorOutputPrefix", false));
  if (prefix != nullptr) {
    std::string value = prefix->get<std::string>();
    bool ok = !value.empty() && value.size() <= 512;
    for (char c : value) ok = ok && IsErrorPrefixChar(c);
    if (!ok) {
      return tl::unexpected(Bad("errorOutputPrefix",
                                "errorOutputPrefix must be 1 to 512 characters of "
                                "[0-9A-Za-z!-_'.*()/]."));
    }
  }
  ST_CHECKED(owner, Str(*dlq, "expectedBucketOwner", false));
  if (owner != nullptr && !IsDigits(owner->get<std::string>(), 12)) {
    return tl::unexpected(Bad("expectedBucketOwner", "expectedBucketOwner must be 12 digits."));
  }
  return true;
}

Checked<bool> CheckTable(const json& iceberg, bool include_metadata, json& table_out) {
  ST_CHECKED(table, SingleObject(iceberg, "destinationTableList"));
  ST_CHECKED(database, Str(*table, "destinationDatabaseName", true));
  if (Status s = catalog::ValidateNamespaceName(database->get<std::string>()); !s.ok()) {
    return tl::unexpected(Bad("destinationDatabaseName", s.message()));
  }
  ST_CHECKED(name, Str(*table, "destinationTableName", true));
  if (Status s = catalog::ValidateTableName(name->get<std::string>()); !s.ok()) {
    return tl::unexpected(Bad("destinationTableName", s.message()));
  }
  table_out = *table;
  ST_CHECKED(spec, Obj(*table, "partitionSpec", false));
  json filled_spec = spec != nullptr ? *spec : json{{"partitionStrategy", "TIME_HOUR"}};
  ST_CHECKED(strategy, Str(filled_spec, "partitionStrategy", true));
  std::string strategy_name = strategy->get<std::string>();
  if (strategy_name != "TIME_HOUR" && strategy_name != "TIME_DAY") {
    return tl::unexpected(Bad("partitionStrategy", "The partitionStrategy '" + strategy_name +
                                                       "' is not valid: use TIME_HOUR or "
                                                       "TIME_DAY."));
  }
  ST_CHECKED(sources, Arr(filled_spec, "sourceList", false));
  size_t source_count = sources == nullptr ? 0 : sources->size();
  if (source_count > 1) {
    return tl::unexpected(Bad("sourceList", "sourceList holds at most one source column."));
  }
  if (source_count == 1) {
    const json& source = (*sources)[0];
    if (!source.is_object()) {
      return tl::unexpected(Bad("sourceList", "Each sourceList entry must be an object."));
    }
    ST_CHECKED(source_name, Str(source, "sourceName", true));
    if (source_name->get<std::string>().empty()) {
      return tl::unexpected(Bad("sourceName", "sourceName cannot be empty."));
    }
  } else if (!include_metadata) {
    return tl::unexpected(Bad("sourceList",
                              "Without a source column the table is partitioned on the Kafka "
                              "record timestamp, which needs includeKafkaMetadata true; name a "
                              "timestamp column in sourceList or include the metadata."));
  }
  if (!filled_spec.contains("sourceList")) filled_spec["sourceList"] = json::array();
  table_out["partitionSpec"] = filled_spec;
  return true;
}

Checked<bool> CheckRequiredFlag(const json& iceberg, const std::string& object_name,
                                const std::string& flag, bool required_value) {
  ST_CHECKED(object, Obj(iceberg, object_name, true));
  ST_CHECKED(value, Bool(*object, flag, true));
  if (value->get<bool>() != required_value) {
    return tl::unexpected(
        Bad(flag, flag + " must be " + (required_value ? "true" : "false") + " in this release."));
  }
  return true;
}

Checked<int64_t> CheckFreshness(const json& object, bool required) {
  ST_CHECKED(value, Int(object, "dataFreshnessInSeconds", required));
  if (value == nullptr) return kDefaultFreshnessSeconds;
  int64_t seconds = value->is_number_unsigned() ? static_cast<int64_t>(value->get<uint64_t>())
                                                : value->get<int64_t>();
  if (value->is_number_unsigned() && value->get<uint64_t>() > 1000000) seconds = -1;
  if (seconds < kMinFreshnessSeconds || seconds > kMaxFreshnessSeconds) {
    return tl::unexpected(Bad("dataFreshnessInSeconds",
                              "dataFreshnessInSeconds must be between 1 and 900 (default 600)."));
  }
  return seconds;
}

Checked<std::string> CheckIceberg(const json& body, ChannelRequest& out, json& iceberg_out) {
  ST_CHECKED(iceberg, Obj(body, "icebergDestinationConfiguration", true));
  iceberg_out = *iceberg;
  ST_CHECKED(append_only, Bool(*iceberg, "appendOnly", true));
  if (!append_only->get<bool>()) {
    return tl::unexpected(Bad("appendOnly",
                              "appendOnly must be true: updates and deletes are "
                              "not supported."));
  }
  ST_CHECKED(role, Str(*iceberg, "serviceExecutionRoleArn", true));
  out.service_execution_role_arn = role->get<std::string>();
  if (!ArnLike(out.service_execution_role_arn, "iam", "role/")) {
    return tl::unexpected(Bad("serviceExecutionRoleArn",
                              "serviceExecutionRoleArn must be an IAM role ARN "
                              "(arn:aws:iam::<account>:role/<name>)."));
  }
  out.role_account_id = ArnAccount(out.service_execution_role_arn);
  if (auto ok = CheckDeadLetter(*iceberg); !ok) return tl::unexpected(ok.error());
  ST_CHECKED(include, Bool(*iceberg, "includeKafkaMetadata", false));
  bool include_metadata = include == nullptr || include->get<bool>();
  iceberg_out["includeKafkaMetadata"] = include_metadata;
  json table;
  if (auto ok = CheckTable(*iceberg, include_metadata, table); !ok) {
    return tl::unexpected(ok.error());
  }
  iceberg_out["destinationTableList"] = json::array({table});
  if (auto ok = CheckRequiredFlag(*iceberg, "schemaEvolution", "enableSchemaEvolution", false);
      !ok) {
    return tl::unexpected(ok.error());
  }
  if (auto ok = CheckRequiredFlag(*iceberg, "tableCreation", "enableTableCreation", true); !ok) {
    return tl::unexpected(ok.error());
  }
  ST_CHECKED(catalog_config, Obj(*iceberg, "catalog", true));
  ST_CHECKED(warehouse, Str(*catalog_config, "warehouseLocation", true));
  out.warehouse_bucket_arn = warehouse->get<std::string>();
  auto bucket = catalog::ParseTableBucketArn(out.warehouse_bucket_arn);
  if (!bucket) return tl::unexpected(Bad("warehouseLocation", bucket.error().message()));
  ST_CHECKED(catalog_arn, Str(*catalog_config, "catalogArn", false));
  if (catalog_arn != nullptr) {
    std::string expected = "arn:aws:glue:" + bucket->region + ":" + bucket->account_id +
                           ":catalog/s3tablescatalog/" + bucket->bucket_name;
    if (catalog_arn->get<std::string>() != expected) {
      return tl::unexpected(Bad("catalogArn", "catalogArn must be '" + expected +
                                                  "' (the catalog of the warehouse bucket) or "
                                                  "left out."));
    }
  }
  auto freshness = CheckFreshness(*iceberg, false);
  if (!freshness) return tl::unexpected(freshness.error());
  iceberg_out["dataFreshnessInSeconds"] = *freshness;
  ST_CHECKED(compression, Str(*iceberg, "compressionType", false));
  std::string codec = compression == nullptr ? "ZSTD" : compression->get<std::string>();
  if (codec != "ZSTD" && codec != "SNAPPY") {
    return tl::unexpected(Bad("compressionType", "The compressionType '" + codec +
                                                     "' is not valid: use ZSTD or SNAPPY."));
  }
  iceberg_out["compressionType"] = codec;
  ST_CHECKED(dead_letter_topic, Obj(*iceberg, "deadLetterTopic", false));
  if (dead_letter_topic != nullptr) {
    ST_CHECKED(topic_name, Str(*dead_letter_topic, "topicName", true));
    if (Status s = catalog::ValidateKafkaTopicName(topic_name->get<std::string>()); !s.ok()) {
      return tl::unexpected(Bad("topicName", s.message()));
    }
  }
  return std::string();
}

}  // namespace

Checked<ChannelRequest> ValidateCreateChannel(const json& body,
                                              const catalog::KafkaClusterArnParts& cluster) {
  ChannelRequest out;
  ST_CHECKED(name, Str(body, "channelName", true));
  out.channel_name = name->get<std::string>();
  if (Status s = catalog::ValidateChannelName(out.channel_name); !s.ok()) {
    return tl::unexpected(Bad("channelName", s.message()));
  }
  ST_CHECKED(topic_config, SingleObject(body, "topicConfigurationList"));
  json topic_out;
  auto topic = CheckTopic(*topic_config, cluster, topic_out);
  if (!topic) return tl::unexpected(topic.error());
  out.topic_name = *topic;

  ST_CHECKED(s3, Obj(body, "s3DestinationConfiguration", false));
  if (s3 != nullptr) {
    return tl::unexpected(Bad("s3DestinationConfiguration",
                              "The S3 destination is not supported by this server; use "
                              "icebergDestinationConfiguration."));
  }
  json iceberg_out;
  if (auto ok = CheckIceberg(body, out, iceberg_out); !ok) return tl::unexpected(ok.error());

  ST_CHECKED(encryption, Obj(body, "encryptionConfiguration", false));
  if (encryption != nullptr) {
    ST_CHECKED(kms, Str(*encryption, "kmsKeyArn", true));
    if (!ArnLike(kms->get<std::string>(), "kms", "key")) {
      return tl::unexpected(
          Bad("kmsKeyArn",
              "kmsKeyArn must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)."));
    }
  }
  ST_CHECKED(logging, Obj(body, "loggingInfo", false));
  ST_CHECKED(tags, Obj(body, "tags", false));
  if (tags != nullptr) {
    for (const auto& [key, value] : tags->items()) {
      if (!value.is_string()) return tl::unexpected(Bad("tags", "Tag values must be strings."));
      if (Status s = catalog::ValidateTag(key, value.get<std::string>()); !s.ok()) {
        return tl::unexpected(Bad("tags", s.message()));
      }
      out.tags[key] = value.get<std::string>();
    }
  }

  out.configuration = json::object();
  out.configuration["channelName"] = out.channel_name;
  out.configuration["topicConfigurationList"] = json::array({topic_out});
  out.configuration["icebergDestinationConfiguration"] = iceberg_out;
  if (encryption != nullptr) out.configuration["encryptionConfiguration"] = *encryption;
  if (logging != nullptr) out.configuration["loggingInfo"] = *logging;
  return out;
}

Checked<int64_t> ValidateUpdateChannel(const json& body) {
  ST_CHECKED(iceberg, Obj(body, "icebergDestinationUpdate", false));
  ST_CHECKED(s3, Obj(body, "s3DestinationUpdate", false));
  if (s3 != nullptr) {
    return tl::unexpected(Bad("s3DestinationUpdate",
                              "The channel's destination type is ICEBERG: send "
                              "icebergDestinationUpdate instead."));
  }
  if (iceberg == nullptr) {
    return tl::unexpected(Bad("icebergDestinationUpdate",
                              "The required member 'icebergDestinationUpdate' is missing."));
  }
  return CheckFreshness(*iceberg, true);
}

}  // namespace st::api::kafka
