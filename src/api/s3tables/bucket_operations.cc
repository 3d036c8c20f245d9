// CreateTableBucket, GetTableBucket, ListTableBuckets, DeleteTableBucket.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/page_request_internal.h"
#include "api/s3tables/resource_options_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "catalog/names.h"

namespace st::api::s3tables {

Reply CreateTableBucket(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  catalog::NewTableBucket bucket;
  bucket.owner_account_id = CallerAccount(deps, context);
  bucket.region = deps.region;
  ST_ASSIGN_OR_RETURN(bucket.name, RequiredString(body, "name"));
  ST_TRY(catalog::ValidateTableBucketName(bucket.name));
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> encryption,
                      OptionalObject(body, "encryptionConfiguration"));
  if (encryption.has_value()) {
    ST_ASSIGN_OR_RETURN(
        bucket.encryption,
        ParseEncryptionConfiguration(deps, context, bucket.owner_account_id, *encryption));
  }
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> storage_class,
                      OptionalObject(body, "storageClassConfiguration"));
  if (storage_class.has_value()) ST_TRY(CheckStorageClassConfiguration(*storage_class));
  ST_ASSIGN_OR_RETURN(catalog::Tags tags, OptionalStringMap(body, "tags"));
  ST_TRY(CheckTags(tags));

  Result<catalog::TableBucket> created = deps.store.CreateTableBucket(bucket);
  if (!created.has_value()) {
    if (created.error().code() == StatusCode::kAlreadyExists) {
      return Err(Conflict("The table bucket " + bucket.name + " already exists in account " +
                          bucket.owner_account_id + "; choose another name."));
    }
    return Err(created.error());
  }
  if (!tags.empty()) ST_TRY(deps.store.TagResource(created->arn, tags));
  return JsonResponse({{"arn", created->arn}});
}

Reply GetTableBucket(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  return JsonResponse(TableBucketJson(bucket));
}

Reply ListTableBuckets(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::PageRequest page,
                      PageFromQuery(context.request.query(), "maxBuckets"));
  nlohmann::json buckets = nlohmann::json::array();
  std::optional<std::string_view> type = context.request.query().Get("type");
  if (type.has_value() && *type != "customer" && *type != "aws") {
    return Err(InvalidArgument("The type '" + std::string(*type) +
                               "' is not valid; use customer or aws."));
  }
  // Every bucket here is a customer bucket: none is AWS-managed.
  if (type.has_value() && *type == "aws") return JsonResponse({{"tableBuckets", buckets}});
  ST_ASSIGN_OR_RETURN(catalog::Page<catalog::TableBucket> listed,
                      deps.store.ListTableBuckets(CallerAccount(deps, context), page));
  for (const catalog::TableBucket& bucket : listed.items) {
    buckets.push_back(TableBucketJson(bucket));
  }
  nlohmann::json out = {{"tableBuckets", buckets}};
  if (!listed.continuation_token.empty()) out["continuationToken"] = listed.continuation_token;
  return JsonResponse(out);
}

Reply DeleteTableBucket(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_TRY(deps.store.DeleteTableBucket(bucket.arn));
  return http::Response::Empty(204);
}

}  // namespace st::api::s3tables
