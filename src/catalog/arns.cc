#include "catalog/arns.h"

#include <array>
#include <optional>
#include <vector>

#include "auth/arn.h"
#include "catalog/names.h"

namespace st::catalog {

namespace {

Status BadArn(std::string_view arn, std::string_view expected) {
  return InvalidArgument("Invalid ARN '" + std::string(arn) + "': expected " +
                         std::string(expected) + ".");
}

constexpr std::string_view kBucketShape = "arn:aws:s3tables:<region>:<account id>:bucket/<name>";
constexpr std::string_view kTableShape =
    "arn:aws:s3tables:<region>:<account id>:bucket/<name>/table/<table id>";

bool IsTableIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// Parses up to and including the bucket name; `rest` receives what follows it.
Result<TableBucketArnParts> ParseBucketPrefix(std::string_view arn, std::string_view shape,
                                              std::string_view* rest) {
  Result<auth::Arn> parsed = auth::ParseArn(arn);
  if (!parsed.has_value() || !parsed->HasAwsPartition() || parsed->service != "s3tables") {
    return Err(BadArn(arn, shape));
  }
  if (!ValidateAccountId(parsed->account_id).ok()) return Err(BadArn(arn, shape));
  // A view into `arn` itself: `rest` must point into the caller's text.
  std::string_view resource = arn.substr(arn.size() - parsed->resource.size());
  if (resource.substr(0, 7) != "bucket/") return Err(BadArn(arn, shape));
  resource.remove_prefix(7);
  size_t slash = resource.find('/');
  std::string_view name = resource.substr(0, slash);
  *rest = slash == std::string_view::npos ? std::string_view() : resource.substr(slash);
  if (name.size() < 3 || name.size() > 63) return Err(BadArn(arn, shape));
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
      return Err(BadArn(arn, shape));
    }
  }
  return TableBucketArnParts{std::move(parsed->partition), std::move(parsed->region),
                             std::move(parsed->account_id), std::string(name)};
}

}  // namespace

std::string TableBucketArn(std::string_view region, std::string_view account_id,
                           std::string_view bucket_name) {
  return "arn:aws:s3tables:" + std::string(region) + ":" + std::string(account_id) + ":bucket/" +
         std::string(bucket_name);
}

std::string TableArn(std::string_view bucket_arn, std::string_view table_id) {
  return std::string(bucket_arn) + "/table/" + std::string(table_id);
}

std::string IamUserArn(std::string_view account_id, std::string_view name) {
  return "arn:aws:iam::" + std::string(account_id) + ":user/" + std::string(name);
}

std::string IamRoleArn(std::string_view account_id, std::string_view name) {
  return "arn:aws:iam::" + std::string(account_id) + ":role/" + std::string(name);
}

Result<TableBucketArnParts> ParseTableBucketArn(std::string_view arn) {
  std::string_view rest;
  ST_ASSIGN_OR_RETURN(TableBucketArnParts parts, ParseBucketPrefix(arn, kBucketShape, &rest));
  if (!rest.empty()) return Err(BadArn(arn, kBucketShape));
  return parts;
}

Result<TableArnParts> ParseTableArn(std::string_view arn) {
  std::string_view rest;
  ST_ASSIGN_OR_RETURN(TableBucketArnParts bucket, ParseBucketPrefix(arn, kTableShape, &rest));
  if (rest.substr(0, 7) != "/table/") return Err(BadArn(arn, kTableShape));
  std::string_view id = rest.substr(7);
  if (id.empty() || id.size() > 255) return Err(BadArn(arn, kTableShape));
  for (char c : id) {
    if (!IsTableIdChar(c)) return Err(BadArn(arn, kTableShape));
  }
  TableArnParts out;
  out.bucket_arn = std::string(arn.substr(0, arn.size() - rest.size()));
  out.bucket = std::move(bucket);
  out.table_id = std::string(id);
  return out;
}

namespace {

constexpr std::string_view kClusterShape =
    "arn:aws:kafka:<region>:<account id>:cluster/<cluster name>/<cluster uuid>";
constexpr std::string_view kTopicShape =
    "arn:aws:kafka:<region>:<account id>:topic/<cluster name>/<cluster uuid>/<topic>";
constexpr std::string_view kChannelShape =
    "arn:aws:kafka:<region>:<account id>:channel/<cluster name>/<cluster uuid>/<channel name>/"
    "<channel id>";
constexpr std::string_view kOperationShape =
    "arn:aws:kafka:<region>:<account id>:cluster-operation/<cluster name>/<cluster uuid>/"
    "<operation id>";

bool IsIdSegment(std::string_view s) {
  if (s.empty() || s.size() > 128) return false;
  for (char c : s) {
    if (!IsTableIdChar(c)) return false;
  }
  return true;
}

std::string KafkaPrefix(const KafkaClusterArnParts& cluster, std::string_view type) {
  return "arn:aws:kafka:" + cluster.region + ":" + cluster.account_id + ":" + std::string(type) +
         "/" + cluster.cluster_name + "/" + cluster.cluster_uuid;
}

// Parses "arn:<p>:kafka:<region>:<account>:<type>/<cluster>/<uuid>[/<extra>...]"
// with exactly `extra_count` segments after the cluster uuid.
Result<KafkaClusterArnParts> ParseKafkaArn(std::string_view arn, std::string_view type,
                                           size_t extra_count, std::string_view shape,
                                           std::vector<std::string_view>* extra) {
  Result<auth::Arn> parsed = auth::ParseArn(arn);
  if (!parsed.has_value() || !parsed->HasAwsPartition() || parsed->service != "kafka" ||
      parsed->region.empty() || !ValidateAccountId(parsed->account_id).ok()) {
    return Err(BadArn(arn, shape));
  }
  // Views into `arn`: `extra` outlives `parsed`.
  std::vector<std::string_view> segments = auth::SplitArnResource(
      arn.substr(arn.size() - parsed->resource.size()), '/', 4 + extra_count);
  if (segments.size() != 3 + extra_count || segments[0] != type ||
      !ValidateKafkaClusterName(segments[1]).ok() || !IsIdSegment(segments[2])) {
    return Err(BadArn(arn, shape));
  }
  for (size_t i = 3; i < segments.size(); ++i) {
    if (segments[i].empty() || segments[i].find('/') != std::string_view::npos) {
      return Err(BadArn(arn, shape));
    }
    extra->push_back(segments[i]);
  }
  KafkaClusterArnParts out;
  out.partition = std::move(parsed->partition);
  out.region = std::move(parsed->region);
  out.account_id = std::move(parsed->account_id);
  out.cluster_name = std::string(segments[1]);
  out.cluster_uuid = std::string(segments[2]);
  out.cluster_arn = auth::Arn{out.partition, "kafka", out.region, out.account_id,
                              "cluster/" + out.cluster_name + "/" + out.cluster_uuid}
                        .ToString();
  return out;
}

}  // namespace

std::string GeneralPurposeBucketArn(std::string_view bucket_name) {
  return "arn:aws:s3:::" + std::string(bucket_name);
}

Result<std::string> ParseGeneralPurposeBucketArn(std::string_view arn) {
  constexpr std::string_view kShape = "arn:aws:s3:::<bucket name>";
  Result<auth::Arn> parsed = auth::ParseArn(arn);
  if (!parsed.has_value() || !parsed->HasAwsPartition() || parsed->service != "s3" ||
      !parsed->region.empty() || !parsed->account_id.empty() ||
      !ValidateGeneralPurposeBucketName(parsed->resource).ok()) {
    return Err(BadArn(arn, kShape));
  }
  return std::move(parsed->resource);
}

std::string KafkaClusterArn(std::string_view region, std::string_view account_id,
                            std::string_view cluster_name, std::string_view cluster_uuid) {
  return "arn:aws:kafka:" + std::string(region) + ":" + std::string(account_id) + ":cluster/" +
         std::string(cluster_name) + "/" + std::string(cluster_uuid);
}

Result<KafkaClusterArnParts> ParseKafkaClusterArn(std::string_view arn) {
  std::vector<std::string_view> extra;
  return ParseKafkaArn(arn, "cluster", 0, kClusterShape, &extra);
}

std::string KafkaTopicArn(const KafkaClusterArnParts& cluster, std::string_view topic) {
  return KafkaPrefix(cluster, "topic") + "/" + std::string(topic);
}

Result<KafkaTopicArnParts> ParseKafkaTopicArn(std::string_view arn) {
  std::vector<std::string_view> extra;
  ST_ASSIGN_OR_RETURN(KafkaClusterArnParts cluster,
                      ParseKafkaArn(arn, "topic", 1, kTopicShape, &extra));
  if (!ValidateKafkaTopicName(extra[0]).ok()) return Err(BadArn(arn, kTopicShape));
  return KafkaTopicArnParts{std::move(cluster), std::string(extra[0])};
}

std::string KafkaChannelArn(const KafkaClusterArnParts& cluster, std::string_view channel_name,
                            std::string_view channel_id) {
  return KafkaPrefix(cluster, "channel") + "/" + std::string(channel_name) + "/" +
         std::string(channel_id);
}

Result<KafkaChannelArnParts> ParseKafkaChannelArn(std::string_view arn) {
  std::vector<std::string_view> extra;
  ST_ASSIGN_OR_RETURN(KafkaClusterArnParts cluster,
                      ParseKafkaArn(arn, "channel", 2, kChannelShape, &extra));
  if (!ValidateChannelName(extra[0]).ok() || !IsIdSegment(extra[1])) {
    return Err(BadArn(arn, kChannelShape));
  }
  return KafkaChannelArnParts{std::move(cluster), std::string(extra[0]), std::string(extra[1])};
}

std::string KafkaClusterOperationArn(const KafkaClusterArnParts& cluster,
                                     std::string_view operation_id) {
  return KafkaPrefix(cluster, "cluster-operation") + "/" + std::string(operation_id);
}

Result<KafkaClusterOperationArnParts> ParseKafkaClusterOperationArn(std::string_view arn) {
  std::vector<std::string_view> extra;
  ST_ASSIGN_OR_RETURN(KafkaClusterArnParts cluster,
                      ParseKafkaArn(arn, "cluster-operation", 1, kOperationShape, &extra));
  if (!IsIdSegment(extra[0])) return Err(BadArn(arn, kOperationShape));
  return KafkaClusterOperationArnParts{std::move(cluster), std::string(extra[0])};
}

Result<ArnFields> ParseArn(std::string_view arn) {
  std::optional<std::array<std::string_view, 6>> split = auth::SplitArnFields(arn);
  if (!split || (*split)[0] != "arn" || (*split)[1].substr(0, 3) != "aws" || (*split)[2].empty()) {
    return Err(BadArn(arn, "arn:aws:<service>:<region>:<account>:<resource>"));
  }
  const std::array<std::string_view, 6>& fields = *split;
  return ArnFields{std::string(fields[1]), std::string(fields[2]), std::string(fields[3]),
                   std::string(fields[4]), std::string(fields[5])};
}

Result<IamRoleArnParts> ParseIamRoleArn(std::string_view arn) {
  constexpr std::string_view kShape = "arn:aws:iam::<account>:role/<name>";
  constexpr std::string_view kRole = "role/";
  Result<ArnFields> fields = ParseArn(arn);
  if (!fields.has_value() || fields->service != "iam" ||
      fields->resource.compare(0, kRole.size(), kRole) != 0 ||
      fields->resource.size() == kRole.size()) {
    return Err(BadArn(arn, kShape));
  }
  return IamRoleArnParts{std::string(arn), fields->account_id,
                         fields->resource.substr(kRole.size())};
}

}  // namespace st::catalog
