// Namespaces (docs/api-contract-notes.md §3.3): one level, no stored properties (S3
// Tables keeps none; properties sent on create are accepted and ignored).
#include <nlohmann/json.hpp>

#include "api/iceberg_rest/rest_errors_internal.h"
#include "api/iceberg_rest/rest_identifiers_internal.h"
#include "api/iceberg_rest/rest_json_internal.h"
#include "api/iceberg_rest/routes_internal.h"

namespace st::api::iceberg_rest {

namespace {

nlohmann::json NextPageToken(const std::string& token) {
  return token.empty() ? nlohmann::json() : nlohmann::json(token);
}

nlohmann::json NamespaceResponse(const std::string& name) {
  return {{"namespace", nlohmann::json::array({name})}, {"properties", nlohmann::json::object()}};
}

Result<http::Response> ListNamespaces(const SharedDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string bucket, BucketArnFromPrefix(context.params.Get("prefix")));
  ST_ASSIGN_OR_RETURN(ListPaging paging, PagingFromQuery(context.request.query()));
  std::optional<std::string_view> parent = context.request.query().Get("parent");
  if (parent.has_value() && !parent->empty()) {
    // Namespaces are flat: an existing parent has no children.
    ST_ASSIGN_OR_RETURN(std::string parent_name, NamespaceFromPath(*parent));
    Result<catalog::Namespace> found = deps->store.GetNamespace(bucket, parent_name);
    if (!found.has_value()) {
      return context.Fail(OperationError(deps->store, found.error(), bucket, parent_name, {}));
    }
    return http::Response::Json(200, R"({"namespaces":[],"next-page-token":null})");
  }
  Result<catalog::Page<catalog::Namespace>> page =
      FetchListing<catalog::Namespace>(paging, [&](const catalog::PageRequest& request) {
        return deps->store.ListNamespaces(bucket, request);
      });
  if (!page.has_value()) {
    if (page.error().code() == StatusCode::kNotFound) return context.Fail(NoSuchWarehouse(bucket));
    return Err(page.error());
  }
  nlohmann::json names = nlohmann::json::array();
  for (const catalog::Namespace& ns : page->items) names.push_back({ns.name});
  nlohmann::json body = {{"namespaces", std::move(names)},
                         {"next-page-token", NextPageToken(page->continuation_token)}};
  return http::Response::Json(200, body.dump());
}

Result<http::Response> CreateNamespace(const SharedDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string bucket, BucketArnFromPrefix(context.params.Get("prefix")));
  ST_ASSIGN_OR_RETURN(nlohmann::json body,
                      ParseJsonObject(context.request.body, "CreateNamespaceRequest"));
  ST_ASSIGN_OR_RETURN(std::vector<std::string> levels,
                      RequiredStringArray(body, "namespace", "CreateNamespaceRequest"));
  ST_ASSIGN_OR_RETURN(std::string name, NamespaceFromLevels(levels));
  ST_TRY(OptionalStringMap(body, "properties", "CreateNamespaceRequest"));
  Result<catalog::Namespace> created =
      deps->store.CreateNamespace(bucket, name, ActingAccount(context, bucket));
  if (!created.has_value()) {
    if (created.error().code() == StatusCode::kNotFound) {
      return context.Fail(NoSuchWarehouse(bucket));
    }
    return context.Fail(OperationError(deps->store, created.error(), bucket, name, {}));
  }
  return http::Response::Json(200, NamespaceResponse(created->name).dump());
}

// GET (body) and HEAD (204) of one namespace.
Result<http::Response> LoadNamespace(const SharedDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string bucket, BucketArnFromPrefix(context.params.Get("prefix")));
  ST_ASSIGN_OR_RETURN(std::string name, NamespaceFromPath(context.params.Get("namespace")));
  Result<catalog::Namespace> found = deps->store.GetNamespace(bucket, name);
  if (!found.has_value()) {
    return context.Fail(OperationError(deps->store, found.error(), bucket, name, {}));
  }
  if (context.request.is_head()) return http::Response::Empty(204);
  return http::Response::Json(200, NamespaceResponse(found->name).dump());
}

Result<http::Response> DropNamespace(const SharedDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string bucket, BucketArnFromPrefix(context.params.Get("prefix")));
  ST_ASSIGN_OR_RETURN(std::string name, NamespaceFromPath(context.params.Get("namespace")));
  Status dropped = deps->store.DeleteNamespace(bucket, name);
  if (!dropped.ok()) return context.Fail(OperationError(deps->store, dropped, bucket, name, {}));
  return http::Response::Empty(204);
}

Result<http::Response> UpdateNamespaceProperties(const SharedDeps&, http::RouteContext&) {
  return Err(Unsupported(
      "Namespace properties are not supported: table bucket namespaces store none (S3 Tables "
      "behaviour); keep such settings on the tables instead."));
}

}  // namespace

std::vector<http::Route> NamespaceRoutes(SharedDeps deps) {
  auto bind = [deps](Result<http::Response> (*fn)(const SharedDeps&, http::RouteContext&)) {
    return [deps, fn](http::RouteContext& context) { return fn(deps, context); };
  };
  const std::string ns = "/v1/{prefix}/namespaces/{namespace}";
  return {
      {"GET",
       "/v1/{prefix}/namespaces",
       {},
       "ListNamespaces",
       http::Requires("s3tables:ListNamespaces", BucketAccess()),
       bind(ListNamespaces)},
      {"POST",
       "/v1/{prefix}/namespaces",
       {},
       "CreateNamespace",
       http::Requires("s3tables:CreateNamespace", BucketAccess()),
       bind(CreateNamespace)},
      {"GET",
       ns,
       {},
       "LoadNamespaceMetadata",
       http::Requires("s3tables:GetNamespace", BucketAccess()),
       bind(LoadNamespace)},
      {"HEAD",
       ns,
       {},
       "NamespaceExists",
       http::Requires("s3tables:GetNamespace", BucketAccess()),
       bind(LoadNamespace)},
      {"DELETE",
       ns,
       {},
       "DropNamespace",
       http::Requires("s3tables:DeleteNamespace", BucketAccess()),
       bind(DropNamespace)},
      {"POST",
       ns + "/properties",
       {},
       "UpdateNamespaceProperties",
       http::Requires("s3tables:GetNamespace", BucketAccess()),
       bind(UpdateNamespaceProperties)},
  };
}

}  // namespace st::api::iceberg_rest
