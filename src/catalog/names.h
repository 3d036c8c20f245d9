// Naming rules of S3 Tables and IAM (docs/api-contract-notes.md §1.2). Every check
// returns OK or InvalidArgument (S3 Tables BadRequestException upstream) with
// a message that names the offending value and the rule it broke.
#pragma once

#include <string_view>

#include "common/status.h"

namespace st::catalog {

// 3–63 characters of [0-9a-z-], starting and ending with a letter or digit,
// and none of the reserved prefixes (xn--, sthree-, amzn-s3-demo-, aws) or
// suffixes (-s3alias, --ol-s3, --x-s3, --table-s3).
Status ValidateTableBucketName(std::string_view name);
// 1–255 characters of [0-9a-z_], starting with a letter or digit; "aws"
// prefixes are reserved for AWS-managed namespaces.
Status ValidateNamespaceName(std::string_view name);
// 1–255 characters of [0-9a-z_], starting with a letter or digit.
Status ValidateTableName(std::string_view name);
// Exactly 12 decimal digits.
Status ValidateAccountId(std::string_view account_id);
// IAM user and role names: 1–64 characters of [A-Za-z0-9+=,.@_-].
Status ValidateIamName(std::string_view name);
// Tags: key 1–128 and value 0–256 Unicode characters of AWS's tag set
// (letters, digits, spaces and _ . : / = + - @; well-formed UTF-8; no NUL or
// other controls), the key not starting with "aws:". The one validator of
// every tagging path (S3 Tables, MSK, the store itself).
Status ValidateTag(std::string_view key, std::string_view value);

inline constexpr int kMaxTagsPerResource = 50;

// S3 general-purpose bucket names: 3–63 characters of [0-9a-z.-], starting
// and ending with a letter or digit, no "..", not an IPv4 address, and none
// of S3's reserved prefixes (xn--, sthree-, amzn-s3-demo-) or suffixes
// (-s3alias, --ol-s3, .mrap, --x-s3, --table-s3).
Status ValidateGeneralPurposeBucketName(std::string_view name);
// Registered Kafka clusters (MSK cluster names): 1–64 characters of
// [a-zA-Z0-9-], starting with a letter.
Status ValidateKafkaClusterName(std::string_view name);
// Delivery channels: 1–64 characters of [a-zA-Z0-9._-].
Status ValidateChannelName(std::string_view name);
// Kafka topic names: 1–249 characters of [a-zA-Z0-9._-], not "." or "..".
Status ValidateKafkaTopicName(std::string_view name);

}  // namespace st::catalog
