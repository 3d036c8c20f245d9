// ARNs of S3 Tables resources and IAM identities (api-contract.md §1.2, §1.6).
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

}  // namespace st::catalog
