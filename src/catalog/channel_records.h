// Delivery-side catalog entities: registered Kafka clusters, delivery
// channels and general-purpose S3 buckets (dead-letter queue targets). Like
// records.h these are plain values the MetadataStore returns; the store
// generates ids, ARNs and timestamps.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "catalog/field_update.h"
#include "catalog/records.h"

namespace st::catalog {

// An external Kafka cluster the server consumes from (MSK's cluster ARN
// shape, so topic ARNs and channel ARNs look like AWS's).
struct KafkaCluster {
  std::string arn;           // arn:aws:kafka:<region>:<account>:cluster/<name>/<cluster uuid>
  std::string name;          // [a-zA-Z0-9-]{1,64}
  std::string cluster_uuid;  // The last ARN segment.
  std::string owner_account_id;
  std::string region;
  std::string bootstrap_servers;  // "host:port[,host:port...]"
  // librdkafka client properties for TLS/SASL; stored as given. The
  // registering API and delivery check them with kafka_client_properties.h
  // (a row stored before a property was forbidden is never applied).
  std::map<std::string, std::string> client_properties;
  TimePoint created_at;
};

enum class ChannelStatus {
  kCreating,
  kActive,
  kUpdating,
  kDeleting,
  kFailed,
  kSuspending,
  kSuspended
};
// "CREATING", "ACTIVE", ... (the MSK wire values).
const char* ChannelStatusName(ChannelStatus status);

// Why a channel is FAILED / SUSPENDED (MSK stateInfo {code, message}).
struct ChannelStateInfo {
  // The wire string of a ChannelStateCode (channel_model.h: MakeStateInfo,
  // HasStateCode); kept as text because the store keeps it so.
  std::string code;
  std::string message;  // Names the action/resource/table and the fix.
  friend bool operator==(const ChannelStateInfo&, const ChannelStateInfo&) = default;
};

// A channel's create, update or delete operation (MSK cluster operation),
// kept after it ends so callers can poll it to completion.
struct ChannelOperation {
  std::string arn;  // arn:aws:kafka:<region>:<account>:cluster-operation/...
  std::string owner_account_id;
  std::string cluster_arn;
  std::string channel_arn;
  std::string type;   // "CREATE_CHANNEL", "UPDATE_CHANNEL", "DELETE_CHANNEL".
  std::string state;  // "PENDING" while in flight, then "COMPLETED" or "FAILED".
  TimePoint start_time;
  std::optional<TimePoint> end_time;
  std::optional<ChannelStateInfo> error;  // Why a FAILED operation failed.
};

struct Channel {
  // arn:aws:kafka:<region>:<account>:channel/<cluster name>/<cluster uuid>/<channel name>/<uuid>
  std::string arn;
  std::string channel_id;  // The last ARN segment (a UUID).
  std::string name;        // [a-zA-Z0-9._-]{1,64}, unique per cluster.
  std::string cluster_arn;
  std::string owner_account_id;
  std::string topic_name;  // From the topic ARN; ListChannels filters on it.
  ChannelStatus status = ChannelStatus::kCreating;
  std::optional<ChannelStateInfo> state_info;
  // Present while CREATING / UPDATING / DELETING (MSK returns it then).
  std::optional<std::string> cluster_operation_arn;
  // The channel's configuration as the CreateChannel body with defaults
  // filled (camelCase wire JSON; channel_model.h is its one codec, the store
  // keeps it as given). UpdateChannel replaces it.
  std::string configuration_json;
  // Extension: the user paused delivery (the runtime stops consuming and
  // reports SUSPENDED with code "PAUSED"); resume clears it.
  bool paused = false;
  // The streaming table the channel created on its first delivery; empty
  // before. A table with this id missing means it was deleted.
  std::string table_id;
  // Bumped by every change to the row; the runtime notices updates by it.
  int64_t generation = 0;
  TimePoint created_at;
  TimePoint updated_at;
};

struct NewKafkaCluster {
  std::string owner_account_id;
  std::string region;
  std::string name;
  std::string bootstrap_servers;
  std::map<std::string, std::string> client_properties;
};

struct NewChannel {
  std::string cluster_arn;
  std::string owner_account_id;
  std::string name;
  std::string topic_name;
  std::string configuration_json;
};

// A change to a channel row; absent members are left as they are.
struct ChannelChange {
  // The change applies only if the row is currently in this status (the API
  // and the runtime race on status): otherwise Conflict, nothing changed.
  std::optional<ChannelStatus> expected_status;
  std::optional<ChannelStatus> status;
  FieldUpdate<ChannelStateInfo> state_info;
  // Left alone, a status change to other than CREATING / UPDATING / DELETING
  // clears it and a change to one of them mints a new one.
  FieldUpdate<std::string> cluster_operation_arn;
  std::optional<std::string> configuration_json;
  std::optional<bool> paused;
  std::optional<std::string> table_id;
};

// An S3 general-purpose bucket on our S3 endpoint (dead-letter queue
// target). Its ARN is arn:aws:s3:::<name>; names are global, as in S3.
struct GeneralPurposeBucket {
  std::string name;  // S3 bucket naming rules, 3-63 characters.
  std::string arn;
  std::string owner_account_id;
  std::string region;
  TimePoint created_at;
};

// Where a general-purpose bucket's objects live in the object store: the S3
// endpoint and the dead-letter-queue writer must agree on it. Table
// warehouse directories ("<id>--table-s3/") never start with this.
inline std::string GeneralPurposeBucketKeyPrefix(const std::string& bucket_name) {
  return "s3-buckets/" + bucket_name + "/";
}

}  // namespace st::catalog
