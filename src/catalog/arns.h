// ARNs of S3 Tables resources, IAM identities (docs/api-contract-notes.md §1.2, §1.6),
// Kafka clusters, topics, channels and S3 general-purpose buckets.
// Builders assume validated parts; parsers check the shape and return
// InvalidArgument naming the ARN and what was expected.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace st::catalog {

// arn:aws:s3tables:<region>:<account>:bucket/<name>
std::string TableBucketArn(std::string_view region, std::string_view account_id,
                           std::string_view bucket_name);
// <bucket ARN>/table/<table id>
std::string TableArn(std::string_view bucket_arn, std::string_view table_id);
// arn:aws:iam::<account>:user/<name> and :role/<name>
std::string IamUserArn(std::string_view account_id, std::string_view name);
std::string IamRoleArn(std::string_view account_id, std::string_view name);

struct TableBucketArnParts {
  std::string partition;  // "aws", "aws-cn", ...
  std::string region;
  std::string account_id;
  std::string bucket_name;
};
// Accepts arn:<partition>:s3tables:<region>:<12 digits>:bucket/<name> with
// nothing after the name.
Result<TableBucketArnParts> ParseTableBucketArn(std::string_view arn);

struct TableArnParts {
  TableBucketArnParts bucket;
  std::string bucket_arn;
  std::string table_id;
};
// Accepts <table bucket ARN>/table/<id>, id of [a-zA-Z0-9_-]{1,255}.
Result<TableArnParts> ParseTableArn(std::string_view arn);

// ---- Kafka (MSK) and S3 general-purpose bucket ARNs (docs/msk-channel-api-notes.md §6) ----

// arn:aws:s3:::<name>
std::string GeneralPurposeBucketArn(std::string_view bucket_name);
// The bucket name of arn:<partition>:s3:::<name> (no key part).
Result<std::string> ParseGeneralPurposeBucketArn(std::string_view arn);

// arn:aws:kafka:<region>:<account>:cluster/<name>/<cluster uuid>
std::string KafkaClusterArn(std::string_view region, std::string_view account_id,
                            std::string_view cluster_name, std::string_view cluster_uuid);

// The part every Kafka ARN shares: "<type>/<cluster name>/<cluster uuid>/...".
struct KafkaClusterArnParts {
  std::string partition;
  std::string region;
  std::string account_id;
  std::string cluster_name;
  std::string cluster_uuid;
  // The cluster's ARN (also when parsed from a topic or channel ARN).
  std::string cluster_arn;
};
Result<KafkaClusterArnParts> ParseKafkaClusterArn(std::string_view arn);

// arn:aws:kafka:<region>:<account>:topic/<cluster name>/<cluster uuid>/<topic>
std::string KafkaTopicArn(const KafkaClusterArnParts& cluster, std::string_view topic);
struct KafkaTopicArnParts {
  KafkaClusterArnParts cluster;
  std::string topic;
};
Result<KafkaTopicArnParts> ParseKafkaTopicArn(std::string_view arn);

// arn:aws:kafka:<region>:<account>:channel/<cluster name>/<cluster uuid>/<channel name>/<uuid>
std::string KafkaChannelArn(const KafkaClusterArnParts& cluster, std::string_view channel_name,
                            std::string_view channel_id);
struct KafkaChannelArnParts {
  KafkaClusterArnParts cluster;
  std::string channel_name;
  std::string channel_id;
};
Result<KafkaChannelArnParts> ParseKafkaChannelArn(std::string_view arn);

// arn:aws:kafka:<region>:<account>:cluster-operation/<cluster name>/<cluster uuid>/<uuid>
std::string KafkaClusterOperationArn(const KafkaClusterArnParts& cluster,
                                     std::string_view operation_id);
struct KafkaClusterOperationArnParts {
  KafkaClusterArnParts cluster;
  std::string operation_id;
};
Result<KafkaClusterOperationArnParts> ParseKafkaClusterOperationArn(std::string_view arn);

// ---- Any ARN, and the foreign ARNs a channel names ----

// arn:<partition>:<service>:<region>:<account>:<resource>; the partition
// starts with "aws", region and account may be empty, the resource is the
// rest (it may hold ':' and '/').
struct ArnFields {
  std::string partition;
  std::string service;
  std::string region;
  std::string account_id;
  std::string resource;
};
Result<ArnFields> ParseArn(std::string_view arn);

// arn:<partition>:iam::<account>:role/<path and name>. The account may be
// empty (a caller decides whether such a role can be used).
struct IamRoleArnParts {
  std::string arn;
  std::string account_id;
  std::string role_name;  // Path and name after "role/".
};
Result<IamRoleArnParts> ParseIamRoleArn(std::string_view arn);

}  // namespace st::catalog
