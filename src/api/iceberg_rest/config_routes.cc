// GET /v1/config (docs/api-contract-notes.md §2.1, §3.2, §6 item 5): the prefix is the
// percent-encoded warehouse ARN, in `overrides` so a client's own setting
// cannot point it elsewhere; the S3 endpoint goes in `defaults`; the
// endpoints list names exactly what this surface implements, HEAD included,
// so clients use HEAD for existence checks.
#include <nlohmann/json.hpp>

#include "api/iceberg_rest/load_table_result_internal.h"
#include "api/iceberg_rest/rest_errors_internal.h"
#include "api/iceberg_rest/rest_identifiers_internal.h"
#include "api/iceberg_rest/routes_internal.h"
#include "catalog/arns.h"
#include "common/percent_encoding.h"

namespace st::api::iceberg_rest {

std::vector<std::string> AdvertisedEndpoints() {
  const std::string ns = "/v1/{prefix}/namespaces/{namespace}";
  const std::string table = ns + "/tables/{table}";
  return {
      "GET /v1/{prefix}/namespaces",
      "POST /v1/{prefix}/namespaces",
      "GET " + ns,
      "HEAD " + ns,
      "DELETE " + ns,
      "GET " + ns + "/tables",
      "POST " + ns + "/tables",
      "GET " + table,
      "HEAD " + table,
      "POST " + table,
      "DELETE " + table,
      "POST " + table + "/metrics",
      "POST /v1/{prefix}/tables/rename",
  };
}

std::string ActingAccount(const http::RouteContext& context, const std::string& bucket_arn) {
  if (!context.principal.account_id.empty()) return context.principal.account_id;
  Result<catalog::TableBucketArnParts> parts = catalog::ParseTableBucketArn(bucket_arn);
  return parts.has_value() ? parts->account_id : std::string();
}

namespace {

Result<http::Response> GetConfig(const SharedDeps& deps, http::RouteContext& context) {
  // The resolver has checked that the warehouse is a bucket ARN.
  const std::string& bucket = context.access.resource;
  Result<catalog::TableBucket> found = deps->store.GetTableBucket(bucket);
  if (!found.has_value()) {
    if (found.error().code() == StatusCode::kNotFound) return context.Fail(NoSuchWarehouse(bucket));
    return Err(found.error());
  }
  // The percent-encoded form clients paste into URLs verbatim (':' and '/' become
  // %3A and %2F).
  nlohmann::json body = {{"defaults", EndpointConfig(*deps)},
                         {"overrides", {{"prefix", PercentEncode(found->arn)}}},
                         {"endpoints", AdvertisedEndpoints()}};
  return http::Response::Json(200, body.dump());
}

}  // namespace

std::vector<http::Route> ConfigRoutes(SharedDeps deps) {
  return {
      {"GET",
       "/v1/config",
       {},
       "GetConfig",
       http::Requires("s3tables:GetTableBucket", WarehouseAccess()),
       [deps](http::RouteContext& context) { return GetConfig(deps, context); }},
  };
}

}  // namespace st::api::iceberg_rest
