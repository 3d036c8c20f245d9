#include "api/s3tables/access_internal.h"
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/resource_lookup_internal.h"
#include "catalog/arns.h"
#include "catalog/names.h"

namespace st::api::s3tables {

namespace {

constexpr const char* kNamespaceKey = "s3tables:namespace";
constexpr const char* kTableNameKey = "s3tables:tableName";

void AddTableKeys(const catalog::Table& table, http::AccessRequest& access) {
  access.resource = table.arn;
  access.condition_keys[kNamespaceKey] = {table.namespace_name};
  access.condition_keys[kTableNameKey] = {table.name};
}

Status ResolveBucket(const http::PathParams& params, http::AccessRequest& access) {
  const std::string& arn = params.Get("tableBucketARN");
  ST_TRY(CheckBucketArn(arn, "tableBucketARN"));
  access.resource = arn;
  return Status::OK();
}

}  // namespace

http::AccessResolver AccountAccess() { return nullptr; }

http::AccessResolver BucketAccess() {
  return [](const http::Request&, const http::PathParams& params,
            http::AccessRequest& access) -> Status { return ResolveBucket(params, access); };
}

http::AccessResolver NamespaceAccess() {
  return [](const http::Request&, const http::PathParams& params,
            http::AccessRequest& access) -> Status {
    ST_TRY(ResolveBucket(params, access));
    const std::string& name = params.Get("namespace");
    ST_TRY(catalog::ValidateNamespaceName(name));
    access.condition_keys[kNamespaceKey] = {name};
    return Status::OK();
  };
}

http::AccessResolver CreateNamespaceAccess() {
  return [](const http::Request& request, const http::PathParams& params,
            http::AccessRequest& access) -> Status {
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
            http::AccessRequest& access) -> Status {
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
            http::AccessRequest& access) -> Status {
    ST_TRY(ResolveBucket(params, access));
    std::optional<std::string_view> ns = request.query().Get("namespace");
    if (ns.has_value()) access.condition_keys[kNamespaceKey] = {std::string(*ns)};
    return Status::OK();
  };
}

http::AccessResolver TableAccess(DepsPtr deps) {
  return [deps](const http::Request&, const http::PathParams& params,
                http::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(catalog::Table table,
                        LookupTable(deps->store, params.Get("tableBucketARN"),
                                    params.Get("namespace"), params.Get("name")));
    AddTableKeys(table, access);
    return Status::OK();
  };
}

http::AccessResolver GetTableAccess(DepsPtr deps) {
  return [deps](const http::Request& request, const http::PathParams&,
                http::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(catalog::Table table, LookupTableByQuery(deps->store, request.query()));
    AddTableKeys(table, access);
    return Status::OK();
  };
}

http::AccessResolver TableArnQueryAccess(DepsPtr deps) {
  return [deps](const http::Request& request, const http::PathParams&,
                http::AccessRequest& access) -> Status {
    std::optional<std::string_view> arn = request.query().Get("tableArn");
    if (!arn.has_value() || arn->empty()) {
      return InvalidArgument("The query parameter tableArn is required.");
    }
    ST_ASSIGN_OR_RETURN(catalog::Table table, LookupTableArn(deps->store, std::string(*arn)));
    AddTableKeys(table, access);
    return Status::OK();
  };
}

http::AccessResolver TaggedResourceAccess(DepsPtr deps) {
  return [deps](const http::Request&, const http::PathParams& params,
                http::AccessRequest& access) -> Status {
    const std::string& arn = params.Get("resourceArn");
    if (catalog::ParseTableArn(arn).has_value()) {
      ST_ASSIGN_OR_RETURN(catalog::Table table, deps->store.GetTableByArn(arn));
      AddTableKeys(table, access);
      return Status::OK();
    }
    if (catalog::ParseTableBucketArn(arn).has_value()) {
      access.resource = arn;
      return Status::OK();
    }
    return InvalidArgument("The resource ARN '" + arn +
                           "' is neither a table bucket ARN nor a table ARN.");
  };
}

}  // namespace st::api::s3tables
