// Table bucket and table resource policies. Documents are validated with the
// IAM policy parser the authorizer uses, so a stored policy always evaluates.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "auth/policy.h"

namespace st::api::s3tables {

namespace {

constexpr size_t kMaxPolicyChars = 20480;

// The `resourcePolicy` member, parsed as a resource policy. Errors:
// InvalidArgument (missing, too long, MalformedPolicyDocument: ...),
// AccessDenied (a public policy).
Result<std::string> ReadPolicy(const Ctx& context, const char* what) {
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::string document, RequiredString(body, "resourcePolicy"));
  if (document.empty() || document.size() > kMaxPolicyChars) {
    return Err(InvalidArgument("The resourcePolicy must have 1 to " +
                               std::to_string(kMaxPolicyChars) + " characters; it has " +
                               std::to_string(document.size()) + "."));
  }
  Result<auth::Policy> parsed = auth::ParsePolicy(document, auth::PolicyKind::kResource);
  if (!parsed.has_value()) return Err(InvalidArgument(parsed.error().message()));
  // S3 Tables blocks public access for good (there is no setting to lift it):
  // refused like S3's BlockPublicPolicy, as a 403 AccessDeniedException.
  if (std::optional<std::string> reason = auth::PublicAccessReason(*parsed)) {
    return Err(Status(StatusCode::kAccessDenied,
                      std::string("The ") + what + " policy was not stored because public " +
                          "policies are blocked (S3 Tables blocks public access): " + *reason +
                          "; name the principals, or add such a condition."));
  }
  return document;
}

Reply PolicyResponse(Result<std::string> document, const char* what) {
  if (!document.has_value()) {
    if (document.error().code() == StatusCode::kNotFound) {
      return Err(NotFound(std::string("The ") + what + " policy does not exist."));
    }
    return Err(document.error());
  }
  return JsonResponse({{"resourcePolicy", *document}});
}

}  // namespace

Reply PutTableBucketPolicy(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(std::string document, ReadPolicy(context, "table bucket"));
  ST_TRY(deps.store.PutTableBucketPolicy(bucket.arn, document));
  return http::Response::Empty(200);
}

Reply GetTableBucketPolicy(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  return PolicyResponse(deps.store.GetTableBucketPolicy(bucket.arn), "table bucket");
}

Reply DeleteTableBucketPolicy(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_TRY(deps.store.DeleteTableBucketPolicy(bucket.arn));
  return http::Response::Empty(204);
}

Reply PutTablePolicy(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(std::string document, ReadPolicy(context, "table"));
  ST_TRY(deps.store.PutTablePolicy(table.table_id, document));
  return http::Response::Empty(200);
}

Reply GetTablePolicy(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  return PolicyResponse(deps.store.GetTablePolicy(table.table_id), "table");
}

Reply DeleteTablePolicy(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  ST_TRY(deps.store.DeleteTablePolicy(table.table_id));
  return http::Response::Empty(204);
}

}  // namespace st::api::s3tables
