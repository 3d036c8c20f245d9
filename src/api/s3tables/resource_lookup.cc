#include "api/s3tables/operations_internal.h"
#include "api/s3tables/resource_lookup_internal.h"
#include "catalog/arns.h"
#include "catalog/names.h"

namespace st::api::s3tables {

Status CheckBucketArn(const std::string& arn, const char* what) {
  if (arn.empty()) return InvalidArgument(std::string("The ") + what + " is missing.");
  if (!catalog::ParseTableBucketArn(arn).has_value()) {
    return InvalidArgument(std::string("The ") + what + " '" + arn +
                           "' is not a table bucket ARN; expected "
                           "arn:aws:s3tables:<region>:<account-id>:bucket/<name>.");
  }
  return Status::OK();
}

Result<catalog::Table> LookupTable(catalog::MetadataStore& store, const std::string& bucket_arn,
                                   const std::string& namespace_name, const std::string& name) {
  ST_TRY(CheckBucketArn(bucket_arn, "tableBucketARN"));
  ST_TRY(catalog::ValidateNamespaceName(namespace_name));
  ST_TRY(catalog::ValidateTableName(name));
  return store.GetTable(bucket_arn, namespace_name, name);
}

Result<catalog::Table> LookupTableArn(catalog::MetadataStore& store, const std::string& table_arn) {
  if (!catalog::ParseTableArn(table_arn).has_value()) {
    return Err(InvalidArgument("The table ARN '" + table_arn +
                               "' is not valid; expected "
                               "arn:aws:s3tables:<region>:<account-id>:bucket/<name>/table/<id>."));
  }
  return store.GetTableByArn(table_arn);
}

Result<catalog::Table> LookupTableByQuery(catalog::MetadataStore& store,
                                          const http::QueryParams& query) {
  if (std::optional<std::string_view> arn = query.Get("tableArn")) {
    return LookupTableArn(store, std::string(*arn));
  }
  std::optional<std::string_view> bucket = query.Get("tableBucketARN");
  std::optional<std::string_view> ns = query.Get("namespace");
  std::optional<std::string_view> name = query.Get("name");
  if (!bucket || !ns || !name) {
    return Err(InvalidArgument(
        "GetTable needs either tableArn, or tableBucketARN together with namespace and name."));
  }
  return LookupTable(store, std::string(*bucket), std::string(*ns), std::string(*name));
}

std::string CallerAccount(const S3TablesDeps& deps, const Ctx& context) {
  return context.principal.account_id.empty() ? deps.account_id : context.principal.account_id;
}

Result<catalog::TableBucket> BucketFromPath(const S3TablesDeps& deps, const Ctx& context) {
  const std::string& arn = context.params.Get("tableBucketARN");
  ST_TRY(CheckBucketArn(arn, "tableBucketARN"));
  return deps.store.GetTableBucket(arn);
}

Result<catalog::Table> TableFromPath(const S3TablesDeps& deps, const Ctx& context) {
  return LookupTable(deps.store, context.params.Get("tableBucketARN"),
                     context.params.Get("namespace"), context.params.Get("name"));
}

Result<catalog::Table> TableFromArnQuery(const S3TablesDeps& deps, const Ctx& context) {
  std::optional<std::string_view> arn = context.request.query().Get("tableArn");
  if (!arn.has_value() || arn->empty()) {
    return Err(InvalidArgument("The query parameter tableArn is required."));
  }
  return LookupTableArn(deps.store, std::string(*arn));
}

}  // namespace st::api::s3tables
