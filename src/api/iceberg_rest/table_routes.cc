// Tables (docs/api-contract-notes.md §3.4, §3.5): list, create (also staged), load,
// exists, drop (always purging, as S3 Tables does) and rename.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "api/iceberg_rest/fresh_ids_internal.h"
#include "api/iceberg_rest/load_table_result_internal.h"
#include "api/iceberg_rest/rest_errors_internal.h"
#include "api/iceberg_rest/rest_identifiers_internal.h"
#include "api/iceberg_rest/rest_json_internal.h"
#include "api/iceberg_rest/routes_internal.h"
#include "catalog/table_guard.h"
#include "common/uuid.h"
#include "iceberg/json_serde.h"
#include "iceberg/table_update.h"

namespace st::api::iceberg_rest {

namespace {

// The {prefix}/{namespace}[/{table}] of a route.
struct TablePath {
  std::string bucket;
  std::string namespace_name;
  std::string table;
};

Result<TablePath> PathOf(const http::RouteContext& context) {
  TablePath path;
  ST_ASSIGN_OR_RETURN(path.bucket, BucketArnFromPrefix(context.params.Get("prefix")));
  ST_ASSIGN_OR_RETURN(path.namespace_name, NamespaceFromPath(context.params.Get("namespace")));
  path.table = context.params.Get("table");
  return path;
}

// A table in a nested namespace: a table bucket has none, so the table does
// not exist (404 NoSuchTableException; a 400 would stop Java clients, which
// try `ns.tbl.files` as a table before reading it as a metadata table of
// ns.tbl). Returns the error to send, or nothing for a one-level namespace.
std::optional<http::HttpError> TableInNestedNamespace(const http::RouteContext& context) {
  std::string_view ns = context.params.Get("namespace");
  if (ns.find('\x1F') == std::string_view::npos) return std::nullopt;
  std::string dotted(ns);
  std::replace(dotted.begin(), dotted.end(), '\x1F', '.');
  return NoSuchTable(dotted, std::string(context.params.Get("table")));
}

// Creating a table: a missing namespace is NoSuchNamespaceException.
http::HttpError TableError(const SharedDeps& deps, const Status& status, const TablePath& path) {
  return OperationError(deps->store, status, path.bucket, path.namespace_name, path.table);
}

// Any other call on one table: NoSuchTableException (Iceberg REST spec).
http::HttpError LookupError(const SharedDeps& deps, const Status& status, const TablePath& path) {
  return TableLookupError(deps->store, status, path.bucket, path.namespace_name, path.table);
}

Result<http::Response> ListTables(const SharedDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(TablePath path, PathOf(context));
  ST_ASSIGN_OR_RETURN(ListPaging paging, PagingFromQuery(context.request.query()));
  Result<catalog::Namespace> ns = deps->store.GetNamespace(path.bucket, path.namespace_name);
  if (!ns.has_value()) {
    return context.Fail(
        OperationError(deps->store, ns.error(), path.bucket, path.namespace_name, std::nullopt));
  }
  ST_ASSIGN_OR_RETURN(catalog::Page<catalog::Table> page,
                      FetchListing<catalog::Table>(paging, [&](const catalog::PageRequest& r) {
                        return deps->store.ListTables(path.bucket, path.namespace_name, r);
                      }));
  nlohmann::json identifiers = nlohmann::json::array();
  for (const catalog::Table& table : page.items) {
    identifiers.push_back(
        {{"namespace", nlohmann::json::array({table.namespace_name})}, {"name", table.name}});
  }
  nlohmann::json body = {{"identifiers", std::move(identifiers)},
                         {"next-page-token", page.continuation_token.empty()
                                                 ? nlohmann::json()
                                                 : nlohmann::json(page.continuation_token)}};
  return http::Response::Json(200, body.dump());
}

struct CreateTableRequest {
  std::string name;
  catalog::InitialMetadata metadata;
  bool stage_create = false;
};

Result<CreateTableRequest> ParseCreateTable(const std::string& text) {
  constexpr const char* kWhat = "CreateTableRequest";
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(text, kWhat));
  ST_ASSIGN_OR_RETURN(std::string name, RequiredString(body, "name", kWhat));
  ST_ASSIGN_OR_RETURN(const nlohmann::json* schema_json, OptionalObject(body, "schema", kWhat));
  if (schema_json == nullptr) {
    return Err(InvalidArgument("CreateTableRequest: field 'schema' must be an object."));
  }
  ST_ASSIGN_OR_RETURN(const nlohmann::json* spec_json,
                      OptionalObject(body, "partition-spec", kWhat));
  ST_ASSIGN_OR_RETURN(const nlohmann::json* order_json, OptionalObject(body, "write-order", kWhat));
  // The server numbers the columns, as Iceberg's own catalogs do.
  nlohmann::json fresh_schema = *schema_json;
  std::optional<nlohmann::json> fresh_spec;
  std::optional<nlohmann::json> fresh_order;
  if (spec_json != nullptr) fresh_spec = *spec_json;
  if (order_json != nullptr) fresh_order = *order_json;
  ST_TRY(AssignFreshIds(fresh_schema, fresh_spec ? &*fresh_spec : nullptr,
                        fresh_order ? &*fresh_order : nullptr));
  ST_ASSIGN_OR_RETURN(iceberg::Schema schema, iceberg::SchemaFromJson(fresh_schema));
  iceberg::PartitionSpec spec = iceberg::PartitionSpec::Unpartitioned();
  if (fresh_spec.has_value()) {
    ST_ASSIGN_OR_RETURN(spec, iceberg::PartitionSpecFromJson(*fresh_spec));
  }
  iceberg::SortOrder order = iceberg::SortOrder::Unsorted();
  if (fresh_order.has_value()) {
    ST_ASSIGN_OR_RETURN(order, iceberg::SortOrderFromJson(*fresh_order));
  }
  ST_ASSIGN_OR_RETURN(std::optional<std::string> location, OptionalString(body, "location", kWhat));
  if (location.has_value() && !location->empty()) {
    return Err(
        InvalidArgument("CreateTableRequest: 'location' cannot be chosen in a table bucket; "
                        "remove it and the table gets its warehouse location."));
  }
  ST_ASSIGN_OR_RETURN(std::optional<bool> stage, OptionalBool(body, "stage-create", kWhat));
  ST_ASSIGN_OR_RETURN(auto properties, OptionalStringMap(body, "properties", kWhat));
  // A reserved property in Iceberg: it selects the format, it is not stored.
  if (auto it = properties.find("format-version"); it != properties.end()) {
    if (it->second != "2") {
      return Err(Unsupported("format-version " + it->second +
                             " is not supported: table buckets create format version 2 tables."));
    }
    properties.erase(it);
  }
  return CreateTableRequest{std::move(name),
                            catalog::InitialMetadata{std::move(schema), std::move(spec),
                                                     std::move(order), std::move(properties)},
                            stage.value_or(false)};
}

// An existing name: a streaming table refuses with its channel (403), any
// other is AlreadyExistsException.
http::HttpError ExistingTableError(const catalog::Table& table) {
  Status writable = catalog::CheckTableWritable(table, std::nullopt, "create a table over");
  if (!writable.ok()) return http::HttpError(writable);
  return http::HttpError(
      AlreadyExists("Table already exists: " + table.namespace_name + "." + table.name + "."));
}

Result<http::Response> CreateTable(const SharedDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(TablePath path, PathOf(context));
  ST_ASSIGN_OR_RETURN(CreateTableRequest request, ParseCreateTable(context.request.body));
  path.table = request.name;
  catalog::NewTable spec{path.bucket,  path.namespace_name,
                         request.name, ActingAccount(context, path.bucket),
                         std::nullopt, std::nullopt};
  nlohmann::json config = TableConfig(*deps, context.request, context.principal);

  Result<catalog::Table> existing =
      deps->store.GetTable(path.bucket, path.namespace_name, request.name);
  if (existing.has_value() &&
      (existing->metadata_location.has_value() || existing->managed_by_channel.has_value())) {
    return context.Fail(ExistingTableError(*existing));
  }

  if (!request.stage_create && existing.has_value()) {
    // A row without metadata is no Iceberg table yet (a staged create never
    // committed, or S3 Tables CreateTable without metadata): this create
    // gives it its first metadata, and a later assert-create commit of the
    // staged one fails with 409 (Iceberg's catalogs behave the same).
    Result<catalog::LoadedTable> initialized = deps->commits.InitializeTable(
        *existing, request.metadata, catalog::TableWriter{spec.created_by, std::nullopt});
    if (!initialized.has_value()) {
      if (initialized.error().code() == StatusCode::kAlreadyExists) {
        return context.Fail(http::HttpError(initialized.error()));
      }
      return context.Fail(TableError(deps, initialized.error(), path));
    }
    return http::Response::Json(200, LoadTableResultJson(initialized->metadata->location,
                                                         initialized->metadata->metadata, config));
  }

  if (!request.stage_create) {
    Result<catalog::LoadedTable> created = deps->commits.CreateTable(spec, request.metadata);
    if (!created.has_value()) {
      if (created.error().code() == StatusCode::kAlreadyExists) {
        Result<catalog::Table> raced =
            deps->store.GetTable(path.bucket, path.namespace_name, request.name);
        if (raced.has_value()) return context.Fail(ExistingTableError(*raced));
      }
      return context.Fail(TableError(deps, created.error(), path));
    }
    return http::Response::Json(
        200, LoadTableResultJson(created->metadata->location, created->metadata->metadata, config));
  }

  // A staged create reserves the table row (so the location the client
  // writes data under is final) but no metadata; the client's later commit
  // with assert-create writes the first metadata file. Staging again over a
  // row that never got metadata reuses it.
  catalog::Table table;
  if (existing.has_value()) {
    table = *existing;
  } else {
    Result<catalog::LoadedTable> created = deps->commits.CreateTable(spec, std::nullopt);
    if (!created.has_value()) return context.Fail(TableError(deps, created.error(), path));
    table = created->table;
  }
  ST_ASSIGN_OR_RETURN(
      iceberg::TableMetadata staged,
      iceberg::NewTableMetadata(request.metadata.schema, request.metadata.spec,
                                request.metadata.sort_order, table.warehouse_location,
                                request.metadata.properties,
                                Uuid::Generate(deps->random).ToString(), deps->clock.NowMillis()));
  return http::Response::Json(200, LoadTableResultJson(std::nullopt, staged, config));
}

// GET (LoadTableResult) and HEAD (204) of one table. A table row without
// metadata (S3 Tables CreateTable without metadata, or a staged create not
// yet committed) is not an Iceberg table yet: 404.
Result<http::Response> LoadTable(const SharedDeps& deps, http::RouteContext& context) {
  if (auto nested = TableInNestedNamespace(context)) return context.Fail(*nested);
  ST_ASSIGN_OR_RETURN(TablePath path, PathOf(context));
  Result<catalog::Table> table = deps->store.GetTable(path.bucket, path.namespace_name, path.table);
  if (!table.has_value()) return context.Fail(LookupError(deps, table.error(), path));
  if (!table->metadata_location.has_value()) {
    return context.Fail(NoSuchTable(path.namespace_name, path.table));
  }
  if (context.request.is_head()) return http::Response::Empty(204);
  Result<catalog::LoadedTable> loaded = deps->commits.LoadTable(table->table_id);
  if (!loaded.has_value()) return context.Fail(LookupError(deps, loaded.error(), path));
  if (!loaded->metadata.has_value()) {
    return context.Fail(NoSuchTable(path.namespace_name, path.table));
  }
  return http::Response::Json(
      200, LoadTableResultJson(loaded->metadata->location, loaded->metadata->metadata,
                               TableConfig(*deps, context.request, context.principal)));
}

// Deletes every object under the table's warehouse location. Best effort:
// the table is already gone from the catalog, so leftovers are unreachable.
void PurgeTableFiles(const SharedDeps& deps, const catalog::Table& table,
                     http::RouteContext& context) {
  iceberg::FileIO io = catalog::TableFileIO(deps->objects, table, deps->object_key_root);
  Result<std::vector<storage::ObjectInfo>> objects = deps->objects.List(io.key_prefix());
  Status status = objects.has_value() ? Status::OK() : objects.error();
  if (objects.has_value()) {
    for (const storage::ObjectInfo& object : *objects) {
      Status deleted = deps->objects.Delete(object.key);
      if (!deleted.ok()) status = deleted;
    }
  }
  if (!status.ok()) {
    context.logger.Log(LogLevel::kWarn, "purge_incomplete",
                       {{"request_id", context.request_id()},
                        {"table_arn", table.arn},
                        {"error", status.ToString()}});
  }
}

Result<http::Response> DropTable(const SharedDeps& deps, http::RouteContext& context) {
  if (auto nested = TableInNestedNamespace(context)) return context.Fail(*nested);
  ST_ASSIGN_OR_RETURN(TablePath path, PathOf(context));
  if (auto purge = context.request.query().Get("purgeRequested"); purge.has_value()) {
    // Validated for the client's sake; table buckets always purge (S3 Tables).
    ST_TRY(ParseQueryBool("purgeRequested", *purge));
  }
  Result<catalog::Table> table = deps->store.GetTable(path.bucket, path.namespace_name, path.table);
  if (!table.has_value()) return context.Fail(LookupError(deps, table.error(), path));
  Status deleted = deps->store.DeleteTable(table->table_id, std::nullopt);
  if (!deleted.ok()) return context.Fail(LookupError(deps, deleted, path));
  PurgeTableFiles(deps, *table, context);
  return http::Response::Empty(204);
}

Result<http::Response> RenameTable(const SharedDeps& deps, http::RouteContext& context) {
  constexpr const char* kWhat = "RenameTableRequest";
  ST_ASSIGN_OR_RETURN(std::string bucket, BucketArnFromPrefix(context.params.Get("prefix")));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request.body, kWhat));
  auto source_json = body.find("source");
  auto destination_json = body.find("destination");
  if (source_json == body.end() || destination_json == body.end()) {
    return Err(InvalidArgument("RenameTableRequest needs 'source' and 'destination'."));
  }
  ST_ASSIGN_OR_RETURN(TableIdentifier source,
                      TableIdentifierFromJson(*source_json, "RenameTableRequest.source"));
  ST_ASSIGN_OR_RETURN(TableIdentifier destination,
                      TableIdentifierFromJson(*destination_json, "RenameTableRequest.destination"));
  TablePath from{bucket, "", source.name};
  ST_ASSIGN_OR_RETURN(from.namespace_name, NamespaceFromLevels(source.namespace_levels));
  TablePath to{bucket, "", destination.name};
  ST_ASSIGN_OR_RETURN(to.namespace_name, NamespaceFromLevels(destination.namespace_levels));

  Result<catalog::Table> table = deps->store.GetTable(bucket, from.namespace_name, from.table);
  if (!table.has_value()) return context.Fail(LookupError(deps, table.error(), from));
  Result<catalog::Table> renamed =
      deps->store.RenameTable(table->table_id, std::nullopt, to.namespace_name, to.table,
                              catalog::TableWriter{ActingAccount(context, bucket), std::nullopt});
  if (!renamed.has_value()) {
    if (renamed.error().code() == StatusCode::kNotFound) {
      // The source was there a moment ago: the destination namespace is missing.
      return context.Fail(
          OperationError(deps->store, renamed.error(), bucket, to.namespace_name, std::nullopt));
    }
    if (renamed.error().code() == StatusCode::kAlreadyExists) {
      return context.Fail(
          http::HttpError(AlreadyExists("Table already exists: " + to.namespace_name + "." +
                                        to.table + "; rename to a free name.")));
    }
    return Err(renamed.error());
  }
  return http::Response::Empty(204);
}

}  // namespace

std::vector<http::Route> TableRoutes(SharedDeps deps) {
  auto bind = [deps](Result<http::Response> (*fn)(const SharedDeps&, http::RouteContext&)) {
    return [deps, fn](http::RouteContext& context) { return fn(deps, context); };
  };
  const std::string tables = "/v1/{prefix}/namespaces/{namespace}/tables";
  const std::string table = tables + "/{table}";
  return {
      {"GET",
       tables,
       {},
       "ListTables",
       http::Requires("s3tables:ListTables", BucketAccess()),
       bind(ListTables)},
      {"POST",
       tables,
       {},
       "CreateTable",
       http::Requires("s3tables:CreateTable", BucketAccess()),
       bind(CreateTable)},
      {"GET",
       table,
       {},
       "LoadTable",
       http::Requires("s3tables:GetTableMetadataLocation", TableAccess(deps)),
       bind(LoadTable)},
      {"HEAD",
       table,
       {},
       "TableExists",
       http::Requires("s3tables:GetTable", TableAccess(deps)),
       bind(LoadTable)},
      {"DELETE",
       table,
       {},
       "DropTable",
       http::Requires("s3tables:DeleteTable", TableAccess(deps)),
       bind(DropTable)},
      {"POST",
       "/v1/{prefix}/tables/rename",
       {},
       "RenameTable",
       http::Requires("s3tables:RenameTable", RenameAccess(deps)),
       bind(RenameTable)},
  };
}

}  // namespace st::api::iceberg_rest
