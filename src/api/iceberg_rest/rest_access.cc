#include "api/iceberg_rest/rest_access_internal.h"
#include "api/iceberg_rest/rest_identifiers_internal.h"
#include "api/iceberg_rest/rest_json_internal.h"

namespace st::api::iceberg_rest {

namespace {

constexpr const char* kNamespaceKey = "s3tables:namespace";
constexpr const char* kTableNameKey = "s3tables:tableName";

bool HasCapture(const http::PathParams& params, std::string_view name) {
  for (const auto& [key, value] : params.items()) {
    if (key == name) return true;
  }
  return false;
}

void ResolveTable(const IcebergRestDeps& deps, const std::string& bucket_arn,
                  const std::string& namespace_name, const std::string& table_name,
                  auth::AccessRequest& access) {
  access.condition_keys[kNamespaceKey] = {namespace_name};
  access.condition_keys[kTableNameKey] = {table_name};
  Result<catalog::Table> table = deps.store.GetTable(bucket_arn, namespace_name, table_name);
  access.resource = table.has_value() ? table->arn : bucket_arn + "/table/*";
}

}  // namespace

http::AccessResolver WarehouseAccess() {
  return [](const http::Request& request, const http::PathParams&, auth::AccessRequest& access) {
    std::optional<std::string_view> warehouse = request.query().Get("warehouse");
    if (!warehouse.has_value() || warehouse->empty()) {
      return InvalidArgument(
          "GET /v1/config needs ?warehouse=<table bucket ARN>: set the catalog's warehouse "
          "property to arn:aws:s3tables:<region>:<account>:bucket/<name>.");
    }
    Result<std::string> arn = BucketArnFromPrefix(*warehouse);
    if (!arn.has_value()) return arn.error();
    access.resource = *arn;
    // A reader of the bucket's tables needs the config to load any of them:
    // the product definition's query policy (GetTable, GetTableData,
    // GetTableMetadataLocation on "<bucket>/table/*") grants no bucket-level
    // action, so a grant of either table read action on all the bucket's
    // tables opens it too. The config reveals only endpoints and the prefix.
    for (const char* action : {"s3tables:GetTable", "s3tables:GetTableMetadataLocation"}) {
      auth::AccessRequest table_read;
      table_read.action = action;
      table_read.resource = *arn + "/table/*";
      access.or_else.push_back(std::move(table_read));
    }
    return Status::OK();
  };
}

http::AccessResolver BucketAccess() {
  return [](const http::Request&, const http::PathParams& params, auth::AccessRequest& access) {
    Result<std::string> arn = BucketArnFromPrefix(params.Get("prefix"));
    if (!arn.has_value()) return arn.error();
    access.resource = *arn;
    if (HasCapture(params, "namespace")) {
      Result<std::string> ns = NamespaceFromPath(params.Get("namespace"));
      if (!ns.has_value()) return ns.error();
      access.condition_keys[kNamespaceKey] = {*ns};
    }
    return Status::OK();
  };
}

http::AccessResolver TableAccess(SharedDeps deps) {
  return [deps](const http::Request&, const http::PathParams& params, auth::AccessRequest& access) {
    Result<std::string> arn = BucketArnFromPrefix(params.Get("prefix"));
    if (!arn.has_value()) return arn.error();
    std::string_view raw_namespace = params.Get("namespace");
    if (raw_namespace.find('\x1F') != std::string_view::npos) {
      // A nested namespace holds no table (the route answers 404), but the
      // caller is still authorized first, against the bucket's tables.
      access.condition_keys[kNamespaceKey] = {std::string(raw_namespace)};
      access.condition_keys[kTableNameKey] = {std::string(params.Get("table"))};
      access.resource = *arn + "/table/*";
      return Status::OK();
    }
    Result<std::string> ns = NamespaceFromPath(raw_namespace);
    if (!ns.has_value()) return ns.error();
    ResolveTable(*deps, *arn, *ns, params.Get("table"), access);
    return Status::OK();
  };
}

http::AccessResolver RenameAccess(SharedDeps deps) {
  return [deps](const http::Request& request, const http::PathParams& params,
                auth::AccessRequest& access) {
    Result<std::string> arn = BucketArnFromPrefix(params.Get("prefix"));
    if (!arn.has_value()) return arn.error();
    Result<nlohmann::json> body = ParseJsonObject(request.body, "RenameTableRequest");
    if (!body.has_value()) return body.error();
    auto source = body->find("source");
    if (source == body->end()) {
      return InvalidArgument("RenameTableRequest: field 'source' must be an object.");
    }
    Result<TableIdentifier> id = TableIdentifierFromJson(*source, "RenameTableRequest.source");
    if (!id.has_value()) return id.error();
    Result<std::string> ns = NamespaceFromLevels(id->namespace_levels);
    if (!ns.has_value()) return ns.error();
    ResolveTable(*deps, *arn, *ns, id->name, access);
    return Status::OK();
  };
}

}  // namespace st::api::iceberg_rest
