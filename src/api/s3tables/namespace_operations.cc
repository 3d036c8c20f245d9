// CreateNamespace, GetNamespace, ListNamespaces, DeleteNamespace.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/page_request_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "catalog/names.h"

namespace st::api::s3tables {

Reply CreateNamespace(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> names, OptionalArray(body, "namespace"));
  if (!names.has_value())
    return Err(InvalidArgument("The required member 'namespace' is missing."));
  // S3 Tables namespaces have exactly one level.
  if (names->size() != 1 || !(*names)[0].is_string()) {
    return Err(InvalidArgument(
        "The member 'namespace' must be a list of exactly one namespace name (a string)."));
  }
  std::string name = (*names)[0].get<std::string>();
  ST_TRY(catalog::ValidateNamespaceName(name));
  Result<catalog::Namespace> created =
      deps.store.CreateNamespace(bucket.arn, name, CallerAccount(deps, context));
  if (!created.has_value()) {
    if (created.error().code() == StatusCode::kAlreadyExists) {
      return Err(Conflict("The namespace " + name + " already exists in table bucket " +
                          bucket.name + "."));
    }
    return Err(created.error());
  }
  return JsonResponse(
      {{"tableBucketARN", bucket.arn}, {"namespace", nlohmann::json::array({created->name})}});
}

Reply GetNamespace(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(catalog::Namespace ns,
                      deps.store.GetNamespace(bucket.arn, context.params.Get("namespace")));
  return JsonResponse(NamespaceJson(ns));
}

Reply ListNamespaces(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(catalog::PageRequest page,
                      PageFromQuery(context.request.query(), "maxNamespaces"));
  ST_ASSIGN_OR_RETURN(catalog::Page<catalog::Namespace> listed,
                      deps.store.ListNamespaces(bucket.arn, page));
  nlohmann::json namespaces = nlohmann::json::array();
  for (const catalog::Namespace& ns : listed.items) namespaces.push_back(NamespaceJson(ns));
  nlohmann::json out = {{"namespaces", namespaces}};
  if (!listed.continuation_token.empty()) out["continuationToken"] = listed.continuation_token;
  return JsonResponse(out);
}

Reply DeleteNamespace(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  ST_TRY(deps.store.DeleteNamespace(bucket.arn, context.params.Get("namespace")));
  return http::Response::Empty(204);
}

}  // namespace st::api::s3tables
