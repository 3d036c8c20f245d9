// The commit (docs/api-contract-notes.md §3.6) and the metrics sink. Commits go through
// catalog::TableCommits: requirements are checked on the current metadata,
// the updates applied, a new metadata file written and the pointer swapped
// with the same compare-and-swap UpdateTableMetadataLocation uses.
#include <nlohmann/json.hpp>

#include "api/iceberg_rest/load_table_result_internal.h"
#include "api/iceberg_rest/rest_errors_internal.h"
#include "api/iceberg_rest/rest_identifiers_internal.h"
#include "api/iceberg_rest/rest_json_internal.h"
#include "api/iceberg_rest/routes_internal.h"
#include "iceberg/table_update.h"

namespace st::api::iceberg_rest {

namespace {

struct CommitRequest {
  std::vector<iceberg::TableRequirement> requirements;
  std::vector<iceberg::TableUpdate> updates;
};

Result<CommitRequest> ParseCommit(const std::string& text, const std::string& namespace_name,
                                  const std::string& table_name) {
  constexpr const char* kWhat = "CommitTableRequest";
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(text, kWhat));
  if (auto identifier = body.find("identifier");
      identifier != body.end() && !identifier->is_null()) {
    ST_ASSIGN_OR_RETURN(TableIdentifier id,
                        TableIdentifierFromJson(*identifier, "CommitTableRequest.identifier"));
    if (id.namespace_levels != std::vector<std::string>{namespace_name} || id.name != table_name) {
      return Err(
          InvalidArgument("CommitTableRequest.identifier does not name the table in the "
                          "path (" +
                          namespace_name + "." + table_name + ")."));
    }
  }
  auto requirements = body.find("requirements");
  auto updates = body.find("updates");
  if (requirements == body.end() || !requirements->is_array()) {
    return Err(InvalidArgument("CommitTableRequest: field 'requirements' must be an array."));
  }
  if (updates == body.end() || !updates->is_array()) {
    return Err(InvalidArgument("CommitTableRequest: field 'updates' must be an array."));
  }
  CommitRequest request;
  ST_ASSIGN_OR_RETURN(request.requirements, iceberg::TableRequirementsFromJson(*requirements));
  ST_ASSIGN_OR_RETURN(request.updates, iceberg::TableUpdatesFromJson(*updates));
  return request;
}

Result<http::Response> CommitTable(const SharedDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string bucket, BucketArnFromPrefix(context.params.Get("prefix")));
  ST_ASSIGN_OR_RETURN(std::string ns, NamespaceFromPath(context.params.Get("namespace")));
  const std::string& name = context.params.Get("table");
  ST_ASSIGN_OR_RETURN(CommitRequest request, ParseCommit(context.request.body, ns, name));

  Result<catalog::Table> table = deps->store.GetTable(bucket, ns, name);
  if (!table.has_value()) {
    return context.Fail(TableLookupError(deps->store, table.error(), bucket, ns, name));
  }
  catalog::CommitOptions options;
  options.account_id = ActingAccount(context, bucket);
  Result<catalog::LoadedTable> committed =
      deps->commits.CommitTable(table->table_id, request.requirements, request.updates, options);
  if (!committed.has_value()) {
    return context.Fail(TableLookupError(deps->store, committed.error(), bucket, ns, name));
  }
  return http::Response::Json(
      200, CommitTableResponseJson(committed->metadata->location, committed->metadata->metadata));
}

// Scan and commit reports: accepted and dropped (nothing consumes them yet),
// so Java clients need not disable metrics reporting.
Result<http::Response> ReportMetrics(const SharedDeps&, http::RouteContext& context) {
  ST_TRY(ParseJsonObject(context.request.body, "ReportMetricsRequest"));
  return http::Response::Empty(204);
}

}  // namespace

std::vector<http::Route> CommitRoutes(SharedDeps deps) {
  auto bind = [deps](Result<http::Response> (*fn)(const SharedDeps&, http::RouteContext&)) {
    return [deps, fn](http::RouteContext& context) { return fn(deps, context); };
  };
  const std::string table = "/v1/{prefix}/namespaces/{namespace}/tables/{table}";
  return {
      {"POST",
       table,
       {},
       "UpdateTable",
       http::Requires("s3tables:UpdateTableMetadataLocation", TableAccess(deps)),
       bind(CommitTable)},
      {"POST",
       table + "/metrics",
       {},
       "ReportMetrics",
       http::Requires("s3tables:GetTableMetadataLocation", TableAccess(deps)),
       bind(ReportMetrics)},
  };
}

}  // namespace st::api::iceberg_rest
