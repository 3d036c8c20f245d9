#include "api/s3tables/access_internal.h"
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/resource_lookup_internal.h"
#include "catalog/arns.h"
#include "catalog/names.h"

namespace st::api::s3tables {

namespace {

constexpr const char* kNamespaceKey = "s3tables:namespace";
constexpr const char* kTableNameKey = "s3tables:tableName";

void AddTableKeys(const catalog::Table& table, auth::AccessRequest& access) {
  access.resource = table.arn;
  access.condition_keys[kNamespaceKey] = {table.namespace_name};
  access.condition_keys[kTableNameKey] = {table.name};
}

// A table that does not exist is authorized as the bucket's "table/*" (or the
// ARN the caller named), so a caller without access gets 403 whether or not
// the table exists; only an allowed caller learns that it is missing (404
// from the handler, which looks it up again).
Status ResolveMissingTable(const Status& lookup, const std::string& resource,
                           const std::string& namespace_name, const std::string& name,
                           auth::AccessRequest& access) {
  if (lookup.code() != StatusCode::kNotFound) return lookup;
  access.resource = resource;
  if (!namespace_name.empty()) access.condition_keys[kNamespaceKey] = {namespace_name};
  if (!name.empty()) access.condition_keys[kTableNameKey] = {name};
  return Status::OK();
}

Status ResolveTableByName(catalog::MetadataStore& store, const std::string& bucket_arn,
                          const std::string& namespace_name, const std::string& name,
                          auth::AccessRequest& access) {
  Result<catalog::Table> table = LookupTable(store, bucket_arn, namespace_name, name);
  if (!table.has_value()) {
    return ResolveMissingTable(table.error(), bucket_arn + "/table/*", namespace_name, name,
                               access);
  }
  AddTableKeys(*table, access);
  return Status::OK();
}

Status ResolveTableByArn(catalog::MetadataStore& store, const std::string& arn,
                         auth::AccessRequest& access) {
  Result<catalog::Table> table = LookupTableArn(store, arn);
  if (!table.has_value()) return ResolveMissingTable(table.error(), arn, "", "", access);
  AddTableKeys(*table, access);
  return Status::OK();
}

Status ResolveBucket(const http::PathParams& params, auth::AccessRequest& access) {
  const std::string& arn = params.Get("tableBucketARN");
  ST_TRY(CheckBucketArn(arn, "tableBucketARN"));
  access.resource = arn;
  return Status::OK();
}

}  // namespace

http::AccessResolver AccountAccess() { return nullptr; }

http::AccessResolver BucketAccess() {
  return [](const http::Request&, const http::PathParams& params,
            auth::AccessRequest& access) -> Status { return ResolveBucket(params, access); };
}

http::AccessResolver NamespaceAccess() {
  return [](const http::Request&, const http::PathParams& params,
            auth::AccessRequest& access) -> Status {
    ST_TRY(ResolveBucket(params, access));
    const std::string& name = params.Get("namespace");
    ST_TRY(catalog::ValidateNamespaceName(name));
    access.condition_keys[kNamespaceKey] = {name};
    return Status::OK();
  };
}

http::AccessResolver CreateNamespaceAccess() {
  return [](const http::Request& request, const http::PathParams& params,
            auth::AccessRequest& access) -> Status {
    ST_TRY(ResolveBucket(params, access));
    // A body the handler will refuse adds no key; the handler reports it.
    Result<nlohmann::json> body = ParseJsonObject(request);
    if (body.has_value()) {
      auto it = body->find("namespace");
      if (it != body->end() && it->is_array() && it->size() == 1 && (*it)[0].is_string()) {
        access.condition_keys[kNamespaceKey] = {(*it)[0].get<std::string>()};
      }
    }
    return Status::OK();
  };
}

http::AccessResolver CreateTableAccess() {
  return [](const http::Request& request, const http::PathParams& params,
            auth::AccessRequest& access) -> Status {
    ST_TRY(ResolveBucket(params, access));
    const std::string& ns = params.Get("namespace");
    ST_TRY(catalog::ValidateNamespaceName(ns));
    access.condition_keys[kNamespaceKey] = {ns};
    Result<nlohmann::json> body = ParseJsonObject(request);
    if (body.has_value()) {
      auto it = body->find("name");
      if (it != body->end() && it->is_string()) {
        access.condition_keys[kTableNameKey] = {it->get<std::string>()};
      }
    }
    return Status::OK();
  };
}

http::AccessResolver ListTablesAccess() {
  return [](const http::Request& request, const http::PathParams& params,
            auth::AccessRequest& access) -> Status {
    ST_TRY(ResolveBucket(params, access));
    std::optional<std::string_view> ns = request.query().Get("namespace");
    if (ns.has_value()) access.condition_keys[kNamespaceKey] = {std::string(*ns)};
    return Status::OK();
  };
}

http::AccessResolver TableAccess(DepsPtr deps) {
  return [deps](const http::Request&, const http::PathParams& params,
                auth::AccessRequest& access) -> Status {
    return ResolveTableByName(deps->store, params.Get("tableBucketARN"), params.Get("namespace"),
                              params.Get("name"), access);
  };
}

http::AccessResolver GetTableAccess(DepsPtr deps) {
  return [deps](const http::Request& request, const http::PathParams&,
                auth::AccessRequest& access) -> Status {
    const http::QueryParams& query = request.query();
    if (std::optional<std::string_view> arn = query.Get("tableArn")) {
      return ResolveTableByArn(deps->store, std::string(*arn), access);
    }
    std::optional<std::string_view> bucket = query.Get("tableBucketARN");
    std::optional<std::string_view> ns = query.Get("namespace");
    std::optional<std::string_view> name = query.Get("name");
    if (!bucket || !ns || !name) {
      // LookupTableByQuery words the error the same way for the handler.
      return LookupTableByQuery(deps->store, query).error();
    }
    return ResolveTableByName(deps->store, std::string(*bucket), std::string(*ns),
                              std::string(*name), access);
  };
}

http::AccessResolver TableArnQueryAccess(DepsPtr deps) {
  return [deps](const http::Request& request, const http::PathParams&,
                auth::AccessRequest& access) -> Status {
    std::optional<std::string_view> arn = request.query().Get("tableArn");
    if (!arn.has_value() || arn->empty()) {
      return InvalidArgument("The query parameter tableArn is required.");
    }
    return ResolveTableByArn(deps->store, std::string(*arn), access);
  };
}

http::AccessResolver TaggedResourceAccess(DepsPtr deps) {
  return [deps](const http::Request&, const http::PathParams& params,
                auth::AccessRequest& access) -> Status {
    const std::string& arn = params.Get("resourceArn");
    if (catalog::ParseTableArn(arn).has_value()) return ResolveTableByArn(deps->store, arn, access);
    if (catalog::ParseTableBucketArn(arn).has_value()) {
      access.resource = arn;
      return Status::OK();
    }
    return InvalidArgument("The resource ARN '" + arn +
                           "' is neither a table bucket ARN nor a table ARN.");
  };
}

}  // namespace st::api::s3tables
