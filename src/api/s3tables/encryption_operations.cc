// Encryption configuration: checked (resource_options_internal.h), stored
// and reported through catalog/maintenance_model.h; the server's encrypting
// object store enforces it.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/resource_options_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "catalog/maintenance_model.h"

namespace st::api::s3tables {

namespace {

Reply EncryptionReply(const catalog::EncryptionConfig& record) {
  ST_ASSIGN_OR_RETURN(catalog::EncryptionConfiguration config,
                      catalog::FromEncryptionRecord(record));
  return JsonResponse({{"encryptionConfiguration",
                        nlohmann::json::parse(catalog::SerializeEncryptionConfiguration(config))}});
}

}  // namespace

Reply GetTableBucketEncryption(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  return EncryptionReply(bucket.encryption);
}

Reply PutTableBucketEncryption(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> value,
                      OptionalObject(body, "encryptionConfiguration"));
  if (!value.has_value()) {
    return Err(InvalidArgument("The required member 'encryptionConfiguration' is missing."));
  }
  ST_ASSIGN_OR_RETURN(catalog::EncryptionConfig config,
                      ParseEncryptionConfiguration(deps, context, bucket.owner_account_id, *value));
  ST_TRY(deps.store.PutTableBucketEncryption(bucket.arn, config));
  return http::Response::Empty(200);
}

Reply DeleteTableBucketEncryption(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_TRY(deps.store.DeleteTableBucketEncryption(bucket.arn));
  return http::Response::Empty(204);
}

Reply GetTableEncryption(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  return EncryptionReply(table.encryption);
}

}  // namespace st::api::s3tables
