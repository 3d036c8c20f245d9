// cluster and channel commands: the /admin/kafka-clusters registration API
// and the MSK channel API (/v1/clusters/{clusterArn}/channels...).
#include <array>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "cli/service_commands_internal.h"
#include "cli/service_http.h"
#include "common/percent_encoding.h"

namespace st::cli {

namespace {

using nlohmann::json;

void AddClusterCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "cluster", "Kafka clusters channels consume from (admin API)");
  const bool& json_out = s.options.json;
  std::string& account = s.NewString();
  std::string& name = s.NewString();
  std::string& bootstrap = s.NewString();
  // Kept alive by the register command's callback (CLI11 binds by reference).
  auto properties_holder = std::make_shared<std::vector<std::string>>();
  std::vector<std::string>& properties = *properties_holder;

  CLI::App* reg =
      AddLeaf(*group, s, "register", "Register a Kafka cluster", [&, properties_holder] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          json props = json::object();
          for (const std::string& pair : properties) {
            size_t eq = pair.find('=');
            if (eq == std::string::npos || eq == 0) {
              return InvalidArgument("--property takes KEY=VALUE, got '" + pair + "'");
            }
            props[pair.substr(0, eq)] = pair.substr(eq + 1);
          }
          json body = {
              {"name", name}, {"bootstrapServers", bootstrap}, {"clientProperties", props}};
          ST_ASSIGN_OR_RETURN(json reply,
                              c.Call("POST", "/admin/kafka-clusters", AccountQuery(account), body));
          Print(out, json_out, reply, [&] { out << reply.value("clusterArn", "") << "\n"; });
          return Status::OK();
        };
      });
  reg->add_option("name", name, "Cluster name ([a-zA-Z0-9-], starts with a letter)")->required();
  reg->add_option("--bootstrap-servers", bootstrap, "host:port[,host:port...]")->required();
  reg->add_option("--property", properties,
                  "librdkafka client property KEY=VALUE, repeatable; only security.protocol "
                  "(PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL), sasl.mechanism (PLAIN|SCRAM-SHA-256|"
                  "SCRAM-SHA-512|OAUTHBEARER), sasl.username, sasl.password, "
                  "sasl.oauthbearer.config, sasl.oauthbearer.method=default, "
                  "enable.sasl.oauthbearer.unsecure.jwt, ssl.ca.pem, ssl.certificate.pem, "
                  "ssl.key.pem, ssl.key.password (PEM text, e.g. \"$(cat ca.pem)\", never a "
                  "path), ssl.endpoint.identification.algorithm (none|https), "
                  "enable.ssl.certificate.verification, client.id");

  CLI::App* list = AddLeaf(*group, s, "list", "List registered clusters", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply,
                          c.Call("GET", "/admin/kafka-clusters", AccountQuery(account)));
      Print(out, json_out, reply, [&] {
        PrintRows(out, reply.value("clusters", json::array()),
                  {"clusterName", "clusterArn", "bootstrapServers"});
      });
      return Status::OK();
    };
  });
  CLI::App* get = AddLeaf(*group, s, "get", "Show a registered cluster", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply, c.Call("GET", "/admin/kafka-clusters/" + PercentEncode(name),
                                             AccountQuery(account)));
      Print(out, json_out, reply, [&] { PrintFields(out, reply); });
      return Status::OK();
    };
  });
  CLI::App* remove = AddLeaf(*group, s, "delete", "Delete a cluster (no channels may remain)", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(
          json reply,
          c.Call("DELETE", "/admin/kafka-clusters/" + PercentEncode(name), AccountQuery(account)));
      Print(out, json_out, json{{"deleted", name}}, [&] { out << "deleted " << name << "\n"; });
      return Status::OK();
    };
  });
  for (CLI::App* leaf : {get, remove}) {
    leaf->add_option("cluster", name, "Cluster name or ARN")->required();
  }
  for (CLI::App* leaf : {reg, list, get, remove}) {
    leaf->add_option("--account-id", account, "Account (default: the server's)");
  }
}

// What `channel ...` commands share: the cluster and the channel.
struct ChannelTarget {
  std::string cluster_arn;
  std::string cluster_name;
  std::string channel;  // Name or ARN.
};

Result<std::string> ClusterArn(const ServiceClient& c, const ChannelTarget& t) {
  if (!t.cluster_arn.empty()) return t.cluster_arn;
  if (t.cluster_name.empty()) return Err(InvalidArgument("pass --cluster-arn or --cluster NAME"));
  ST_ASSIGN_OR_RETURN(json reply,
                      c.Call("GET", "/admin/kafka-clusters/" + PercentEncode(t.cluster_name)));
  return reply.value("clusterArn", "");
}

std::string ChannelsPath(const std::string& cluster_arn) {
  return "/v1/clusters/" + PercentEncode(cluster_arn) + "/channels";
}

// The channel's ARN: given, or found by name among the cluster's channels.
Result<std::string> ChannelArn(const ServiceClient& c, const std::string& cluster_arn,
                               const std::string& channel) {
  if (channel.rfind("arn:", 0) == 0) return channel;
  std::string token;
  do {
    QueryList query = {{"maxResults", "100"}};
    if (!token.empty()) query.emplace_back("nextToken", token);
    ST_ASSIGN_OR_RETURN(json page, c.Call("GET", ChannelsPath(cluster_arn), query));
    for (const json& info : page.value("channels", json::array())) {
      if (info.value("channelName", "") == channel) return info.value("channelArn", "");
    }
    token = page.value("nextToken", "");
  } while (!token.empty());
  return Err(NotFound("no channel named '" + channel + "' in cluster " + cluster_arn));
}

struct CreateFlags {
  std::string name, topic, bucket, ns, table,
      format = "json", key_format = "bytes", schema_arn, partition_by = "hour", partition_source,
      dlq_bucket, dlq_prefix, dlq_topic, role_arn, registry_url, registry_key;
  int freshness = 0;
  bool no_kafka_metadata = false;
};

// The secret of --registry-key comes from the environment, not the command
// line, where every user of the machine could read it (ps, shell history).
constexpr const char* kRegistrySecretEnv = "ST_REGISTRY_SECRET";

// recordSchema.externalSchemaRegistry (and UpdateChannel's
// externalSchemaRegistryUpdate) from --registry-url / --registry-key.
Result<json> ExternalRegistry(const CreateFlags& f) {
  json registry = {{"url", f.registry_url}};
  if (!f.registry_key.empty()) {
    const char* secret = std::getenv(kRegistrySecretEnv);
    if (secret == nullptr || *secret == '\0') {
      return Err(InvalidArgument(std::string("--registry-key needs its secret in the ") +
                                 kRegistrySecretEnv + " environment variable"));
    }
    registry["basicAuth"] = {{"key", f.registry_key}, {"secret", secret}};
  }
  return registry;
}

Result<json> CreateBody(const ServiceClient& c, const std::string& cluster_arn,
                        const CreateFlags& f) {
  size_t at = cluster_arn.find(":cluster/");
  if (at == std::string::npos) return Err(InvalidArgument("not a cluster ARN: " + cluster_arn));
  std::string topic_arn =
      cluster_arn.substr(0, at) + ":topic/" + cluster_arn.substr(at + 9) + "/" + f.topic;
  // The CLI's short names for the API's valueConverter values, one row each.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kFormats{{
      {"json", "JSON"},
      {"json-gsr", "JSON_SCHEMA_GSR"},
      {"json-schema-confluent", "JSON_SCHEMA_CONFLUENT"},
      {"avro-gsr", "AVRO_GSR"},
      {"avro-confluent", "AVRO_CONFLUENT"},
      {"protobuf-confluent", "PROTOBUF_CONFLUENT"},
      {"protobuf-gsr", "PROTOBUF_GSR"},
      {"bytes", "BYTE_ARRAY"},
      {"string", "STRING"},
  }};
  std::string converter;
  std::string names;
  for (const auto& [name, value] : kFormats) {
    if (f.format == name) converter = value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  if (converter.empty()) return Err(InvalidArgument("--format must be one of " + names));
  json topic_config = {{"topicArn", topic_arn},
                       {"recordConverter", {{"valueConverter", converter}}}};
  if (f.key_format == "string") {
    topic_config["recordConverter"]["keyConverter"] = "STRING";
  } else if (f.key_format == "avro-confluent") {
    topic_config["recordConverter"]["keyConverter"] = "AVRO_CONFLUENT";
  } else if (f.key_format == "protobuf-confluent") {
    topic_config["recordConverter"]["keyConverter"] = "PROTOBUF_CONFLUENT";
  } else if (f.key_format == "json-schema-confluent") {
    topic_config["recordConverter"]["keyConverter"] = "JSON_SCHEMA_CONFLUENT";
  } else if (f.key_format != "bytes") {
    return Err(
        InvalidArgument("--key-format must be bytes, string, avro-confluent, protobuf-confluent or "
                        "json-schema-confluent"));
  }
  if (!f.schema_arn.empty()) topic_config["recordSchema"]["gsrArn"] = f.schema_arn;
  if (!f.registry_url.empty()) {
    ST_ASSIGN_OR_RETURN(topic_config["recordSchema"]["externalSchemaRegistry"],
                        ExternalRegistry(f));
  } else if (!f.registry_key.empty()) {
    return Err(InvalidArgument("--registry-key goes with --registry-url"));
  }
  ST_ASSIGN_OR_RETURN(std::string bucket_arn, ResolveBucketArn(c, f.bucket));
  json spec = {{"partitionStrategy", f.partition_by == "day" ? "TIME_DAY" : "TIME_HOUR"},
               {"sourceList", json::array()}};
  if (f.partition_by != "day" && f.partition_by != "hour") {
    return Err(InvalidArgument("--partition-by must be hour or day"));
  }
  if (!f.partition_source.empty())
    spec["sourceList"].push_back({{"sourceName", f.partition_source}});
  json dlq = {{"bucketArn",
               f.dlq_bucket.rfind("arn:", 0) == 0 ? f.dlq_bucket : "arn:aws:s3:::" + f.dlq_bucket}};
  if (!f.dlq_prefix.empty()) dlq["errorOutputPrefix"] = f.dlq_prefix;
  json iceberg = {
      {"appendOnly", true},
      {"serviceExecutionRoleArn", f.role_arn},
      {"deadLetterQueueS3", dlq},
      {"destinationTableList", json::array({{{"destinationDatabaseName", f.ns},
                                             {"destinationTableName", f.table},
                                             {"partitionSpec", spec}}})},
      {"schemaEvolution", {{"enableSchemaEvolution", false}}},
      {"tableCreation", {{"enableTableCreation", true}}},
      {"catalog", {{"warehouseLocation", bucket_arn}}},
      {"includeKafkaMetadata", !f.no_kafka_metadata},
  };
  if (f.freshness > 0) iceberg["dataFreshnessInSeconds"] = f.freshness;
  if (!f.dlq_topic.empty()) iceberg["deadLetterTopic"] = {{"topicName", f.dlq_topic}};
  return json{{"channelName", f.name},
              {"topicConfigurationList", json::array({topic_config})},
              {"icebergDestinationConfiguration", iceberg}};
}

void AddChannelGroup(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "channel", "Delivery channels: Kafka topic → streaming table");
  const bool& json_out = s.options.json;
  // Owned by the leaf callbacks that capture them (CLI11 binds by reference).
  auto target_holder = std::make_shared<ChannelTarget>();
  auto flags_holder = std::make_shared<CreateFlags>();
  ChannelTarget& target = *target_holder;
  CreateFlags& flags = *flags_holder;
  std::string& topic_filter = s.NewString();

  CLI::App* create = AddLeaf(
      *group, s, "create", "Create a channel (starts in CREATING)",
      [&, target_holder, flags_holder] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string cluster, ClusterArn(c, target));
          ST_ASSIGN_OR_RETURN(json body, CreateBody(c, cluster, flags));
          ST_ASSIGN_OR_RETURN(json reply, c.Call("POST", ChannelsPath(cluster), {}, body));
          Print(out, json_out, reply, [&] { out << reply.value("channelArn", "") << "\n"; });
          return Status::OK();
        };
      });
  create->add_option("--name", flags.name, "Channel name")->required();
  create->add_option("--topic", flags.topic, "Kafka topic")->required();
  create->add_option("--bucket", flags.bucket, "Table bucket name or ARN")->required();
  create->add_option("--namespace", flags.ns, "Namespace of the new table")->required();
  create->add_option("--table", flags.table, "Name of the new table")->required();
  create
      ->add_option("--format", flags.format,
                   "json | json-gsr | json-schema-confluent | avro-gsr | avro-confluent | "
                   "protobuf-confluent | protobuf-gsr | bytes | string")
      ->capture_default_str();
  create
      ->add_option("--key-format", flags.key_format,
                   "_kafka.key as the key's bytes (bytes), UTF-8 text (string) or decoded "
                   "by its Confluent key schema (avro-confluent, protobuf-confluent, "
                   "json-schema-confluent; ids resolve in the values' registry with the "
                   "*-confluent formats, else in the built-in one)")
      ->capture_default_str();
  create->add_option("--schema-arn", flags.schema_arn, "Glue schema ARN (format json)");
  create->add_option("--registry-url", flags.registry_url,
                     "External Confluent-compatible schema registry for the *-confluent "
                     "formats (http[s]://host[:port][/prefix]; default: the built-in one)");
  create->add_option("--registry-key", flags.registry_key,
                     std::string("HTTP Basic key of --registry-url; the secret is read from ") +
                         kRegistrySecretEnv);
  create->add_option("--partition-by", flags.partition_by, "hour | day")->capture_default_str();
  create->add_option("--partition-source", flags.partition_source,
                     "Timestamp column to partition on (default: the Kafka timestamp)");
  create->add_option("--freshness", flags.freshness, "dataFreshnessInSeconds, 1-900 (default 600)");
  create->add_option("--dlq-bucket", flags.dlq_bucket, "Dead-letter S3 bucket name or ARN")
      ->required();
  create->add_option("--dlq-prefix", flags.dlq_prefix, "Dead-letter object key prefix");
  create->add_option("--dlq-topic", flags.dlq_topic, "Dead-letter Kafka topic (same cluster)");
  create->add_option("--role-arn", flags.role_arn, "Service execution role ARN")->required();
  create->add_flag("--no-kafka-metadata", flags.no_kafka_metadata,
                   "Leave out the _kafka metadata column");

  auto on_channel = [&](const std::string& method, const std::string& suffix,
                        std::optional<json> body, const std::string& done) {
    return [&, method, suffix, body, done](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string cluster, ClusterArn(c, target));
      ST_ASSIGN_OR_RETURN(std::string arn, ChannelArn(c, cluster, target.channel));
      ST_ASSIGN_OR_RETURN(
          json reply,
          c.Call(method, ChannelsPath(cluster) + "/" + PercentEncode(arn) + suffix, {}, body));
      Print(out, json_out, reply, [&] {
        if (done.empty()) {
          PrintFields(out, reply);
        } else {
          out << done << " " << arn << "\n";
        }
      });
      return Status::OK();
    };
  };
  CLI::App* describe = AddLeaf(*group, s, "describe", "Show a channel",
                               [&, on_channel] { return on_channel("GET", "", std::nullopt, ""); });
  CLI::App* update = AddLeaf(
      *group, s, "update", "Change dataFreshnessInSeconds and/or the external schema registry",
      [&, on_channel]() -> CommandBody {
        json body = json::object();
        if (flags.freshness != 0) {
          body["icebergDestinationUpdate"] = {{"dataFreshnessInSeconds", flags.freshness}};
        }
        if (!flags.registry_url.empty()) {
          Result<json> registry = ExternalRegistry(flags);
          if (!registry.has_value()) {
            return
                [error = registry.error()](const ServiceClient&, std::ostream&) { return error; };
          }
          body["externalSchemaRegistryUpdate"] = std::move(*registry);
        }
        if (body.empty() || (!flags.registry_key.empty() && flags.registry_url.empty())) {
          return [](const ServiceClient&, std::ostream&) {
            return InvalidArgument(
                "pass --freshness and/or --registry-url (with --registry-key if it takes "
                "credentials)");
          };
        }
        return on_channel("PUT", "", body, "updating");
      });
  update->add_option("--freshness", flags.freshness, "dataFreshnessInSeconds, 1-900");
  update->add_option("--registry-url", flags.registry_url,
                     "New URL of the channel's external schema registry (only a channel "
                     "created with one)");
  update->add_option("--registry-key", flags.registry_key,
                     std::string("HTTP Basic key of --registry-url; the secret is read from ") +
                         kRegistrySecretEnv);
  CLI::App* pause =
      AddLeaf(*group, s, "pause", "Stop delivery (SUSPENDED, code PAUSED)",
              [&, on_channel] { return on_channel("POST", "/pause", json::object(), "paused"); });
  CLI::App* resume = AddLeaf(*group, s, "resume", "Resume a paused channel", [&, on_channel] {
    return on_channel("POST", "/resume", json::object(), "resumed");
  });
  CLI::App* remove =
      AddLeaf(*group, s, "delete", "Delete a channel (DELETING, then gone)",
              [&, on_channel] { return on_channel("DELETE", "", std::nullopt, "deleting"); });
  CLI::App* list = AddLeaf(*group, s, "list", "List a cluster's channels", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string cluster, ClusterArn(c, target));
      json all = json::array();
      std::string token;
      do {
        QueryList query = {{"maxResults", "100"}};
        if (!token.empty()) query.emplace_back("nextToken", token);
        if (!topic_filter.empty()) query.emplace_back("topicNameFilter", topic_filter);
        ST_ASSIGN_OR_RETURN(json page, c.Call("GET", ChannelsPath(cluster), query));
        for (const json& info : page.value("channels", json::array())) all.push_back(info);
        token = page.value("nextToken", "");
      } while (!token.empty());
      json doc = {{"channels", all}};
      Print(out, json_out, doc, [&] {
        PrintRows(out, all, {"channelName", "status", "channelArn", "creationTime"});
      });
      return Status::OK();
    };
  });
  list->add_option("--topic", topic_filter, "Only channels of this topic");
  for (CLI::App* leaf : {create, describe, update, pause, resume, remove, list}) {
    leaf->add_option("--cluster-arn", target.cluster_arn, "Cluster ARN");
    leaf->add_option("--cluster", target.cluster_name, "Registered cluster name");
  }
  for (CLI::App* leaf : {describe, update, pause, resume, remove}) {
    leaf->add_option("channel", target.channel, "Channel name or ARN")->required();
  }
}

}  // namespace

void AddChannelCommands(CLI::App& app, ServiceCommands& state) {
  AddClusterCommands(app, state);
  AddChannelGroup(app, state);
}

}  // namespace st::cli
