#include "catalog/arns.h"

#include <vector>

#include "catalog/names.h"

namespace st::catalog {

namespace {

std::vector<std::string_view> Split(std::string_view s, char sep, size_t max_parts) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    size_t pos = s.find(sep);
    if (pos == std::string_view::npos) break;
    parts.push_back(s.substr(0, pos));
    s.remove_prefix(pos + 1);
  }
  parts.push_back(s);
  return parts;
}

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
  std::vector<std::string_view> fields = Split(arn, ':', 6);
  if (fields.size() != 6 || fields[0] != "arn" || fields[1].substr(0, 3) != "aws" ||
      fields[2] != "s3tables") {
    return Err(BadArn(arn, shape));
  }
  if (!ValidateAccountId(fields[4]).ok()) return Err(BadArn(arn, shape));
  std::string_view resource = fields[5];
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
  return TableBucketArnParts{std::string(fields[1]), std::string(fields[3]), std::string(fields[4]),
                             std::string(name)};
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

}  // namespace st::catalog
