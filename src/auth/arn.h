// Amazon Resource Names: arn:<partition>:<service>:<region>:<account>:<resource>.
// The one parser of the tree; the ARN builders and shape checks of each kind
// of resource (catalog/arns.h, registry/glue_arns.h) are built on it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace st::auth {

// A parsed ARN. Fields are as written (region and account may be empty, as
// in IAM and S3 ARNs); the resource keeps any further ':' and '/'.
struct Arn {
  std::string partition;  // "aws", "aws-cn", "aws-us-gov", ...
  std::string service;    // "s3tables", "iam", "kafka", "glue", ...
  std::string region;
  std::string account_id;
  std::string resource;  // "bucket/name", "role/path/name", ...

  // Whether the partition is one of AWS's ("aws" and "aws-*").
  bool HasAwsPartition() const { return partition.substr(0, 3) == "aws"; }
  std::string ToString() const;
};

// Errors: InvalidArgument naming `text` unless it starts with "arn:" and has
// six ':'-separated fields. The fields themselves are not checked.
Result<Arn> ParseArn(std::string_view text);

// The six ':'-separated fields of `text`, the last running to the end,
// without checking any of them (policy patterns such as "arn:aws:s3:::*"
// and "*:*:..." are split too); nullopt when there are fewer than six.
std::optional<std::array<std::string_view, 6>> SplitArnFields(std::string_view text);

// The account field of an ARN; "" when `text` is not an ARN (as ParseArn).
std::string ArnAccount(std::string_view text);

// `resource` split on `separator` into at most `max_parts` parts, the last
// holding the rest ("cluster/name/uuid" → {"cluster", "name", "uuid"}).
std::vector<std::string_view> SplitArnResource(std::string_view resource, char separator,
                                               size_t max_parts);

}  // namespace st::auth
