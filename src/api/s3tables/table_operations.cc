// CreateTable, GetTable, ListTables, DeleteTable, RenameTable.
#include "api/s3tables/initial_metadata_internal.h"
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/page_request_internal.h"
#include "api/s3tables/resource_lookup_internal.h"
#include "api/s3tables/resource_options_internal.h"
#include "api/s3tables/wire_json_internal.h"
#include "catalog/id_generation.h"
#include "catalog/names.h"
#include "catalog/table_guard.h"

namespace st::api::s3tables {

namespace {

// A name that is taken: a streaming table's name is refused with 403 naming
// its channel (it must not be replaced by a client), any other with 409.
Status TakenName(const catalog::Table& existing) {
  Status writable = catalog::CheckTableWritable(existing, std::nullopt, "create over");
  if (!writable.ok()) return writable;
  return Conflict("The table " + existing.namespace_name + "." + existing.name +
                  " already exists; choose another name or delete it first.");
}

// Best effort: the table row is gone, so its files are unreachable garbage.
void PurgeTableFiles(const S3TablesDeps& deps, const catalog::Table& table, const Ctx& context) {
  std::string prefix =
      deps.object_key_root + catalog::WarehouseBucketName(table.warehouse_location) + "/";
  Result<std::vector<storage::ObjectInfo>> objects = deps.objects.List(prefix);
  Status status = objects.has_value() ? Status::OK() : objects.error();
  if (objects.has_value()) {
    for (const storage::ObjectInfo& object : *objects) {
      Status deleted = deps.objects.Delete(object.key);
      if (!deleted.ok()) status = deleted;
    }
  }
  if (!status.ok()) {
    context.logger.Log(
        LogLevel::kWarn, "table_purge_incomplete",
        {{"request_id", context.request_id()}, {"table", table.arn}, {"error", status.ToString()}});
  }
}

}  // namespace

Reply CreateTable(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  const std::string& ns = context.params.Get("namespace");
  ST_TRY(catalog::ValidateNamespaceName(ns));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::string name, RequiredString(body, "name"));
  ST_TRY(catalog::ValidateTableName(name));
  ST_ASSIGN_OR_RETURN(std::string format, RequiredString(body, "format"));
  if (format != "ICEBERG") {
    return Err(InvalidArgument("The table format '" + format + "' is not supported; use ICEBERG."));
  }
  std::optional<catalog::InitialMetadata> metadata;
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> metadata_json,
                      OptionalObject(body, "metadata"));
  if (metadata_json.has_value()) {
    ST_ASSIGN_OR_RETURN(metadata, ParseInitialMetadata(*metadata_json));
  }
  catalog::NewTable table{bucket.arn,   ns,          name, CallerAccount(deps, context),
                          std::nullopt, std::nullopt};
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> encryption,
                      OptionalObject(body, "encryptionConfiguration"));
  if (encryption.has_value()) {
    ST_ASSIGN_OR_RETURN(table.encryption, ParseEncryptionConfiguration(
                                              deps, context, bucket.owner_account_id, *encryption));
  }
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> storage_class,
                      OptionalObject(body, "storageClassConfiguration"));
  if (storage_class.has_value()) ST_TRY(CheckStorageClassConfiguration(*storage_class));
  ST_ASSIGN_OR_RETURN(catalog::Tags tags, OptionalStringMap(body, "tags"));
  ST_TRY(CheckTags(tags));

  // One operation, several actions (as S3 Tables documents for CreateTable):
  // each optional part needs its own permission on the table to be.
  std::vector<std::string> extra_actions;
  if (metadata.has_value()) extra_actions.push_back("s3tables:PutTableData");
  if (encryption.has_value()) extra_actions.push_back("s3tables:PutTableEncryption");
  if (!tags.empty()) extra_actions.push_back("s3tables:TagResource");
  if (deps.authorizer != nullptr) {
    for (const std::string& action : extra_actions) {
      auth::AccessRequest access;
      access.action = action;
      access.resource = bucket.arn + "/table/*";
      access.condition_keys["s3tables:namespace"] = {ns};
      access.condition_keys["s3tables:tableName"] = {name};
      ST_ASSIGN_OR_RETURN(auth::AuthDecision decision,
                          deps.authorizer->Authorize(http::CallContextOf(context.request),
                                                     context.principal, access));
      if (!decision.allowed) return Err(Status(StatusCode::kAccessDenied, decision.message));
    }
  }

  Result<catalog::Table> existing = deps.store.GetTable(bucket.arn, ns, name);
  if (existing.has_value()) return Err(TakenName(*existing));

  Result<catalog::LoadedTable> created = deps.commits.CreateTable(table, metadata);
  if (!created.has_value()) {
    if (created.error().code() != StatusCode::kAlreadyExists) return Err(created.error());
    // Lost a race with another create of the same name.
    Result<catalog::Table> winner = deps.store.GetTable(bucket.arn, ns, name);
    return Err(winner.has_value() ? TakenName(*winner) : created.error());
  }
  if (!tags.empty()) ST_TRY(deps.store.TagResource(created->table.arn, tags));
  return JsonResponse(
      {{"tableARN", created->table.arn}, {"versionToken", created->table.version_token}});
}

Reply GetTable(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table,
                      LookupTableByQuery(deps.store, context.request.query()));
  return JsonResponse(TableJson(table));
}

Reply ListTables(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::TableBucket bucket, BucketFromPath(deps, context));
  std::optional<std::string> ns;
  if (auto given = context.request.query().Get("namespace")) {
    ns = std::string(*given);
    ST_TRY(catalog::ValidateNamespaceName(*ns));
  }
  ST_ASSIGN_OR_RETURN(catalog::PageRequest page,
                      PageFromQuery(context.request.query(), "maxTables"));
  ST_ASSIGN_OR_RETURN(catalog::Page<catalog::Table> listed,
                      deps.store.ListTables(bucket.arn, ns, page));
  nlohmann::json tables = nlohmann::json::array();
  for (const catalog::Table& table : listed.items) tables.push_back(TableSummaryJson(table));
  nlohmann::json out = {{"tables", tables}};
  if (!listed.continuation_token.empty()) out["continuationToken"] = listed.continuation_token;
  return JsonResponse(out);
}

Reply DeleteTable(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  std::optional<std::string> token;
  if (auto given = context.request.query().Get("versionToken")) token = std::string(*given);
  ST_TRY(deps.store.DeleteTable(table.table_id, token));
  PurgeTableFiles(deps, table, context);
  return http::Response::Empty(204);
}

Reply RenameTable(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> new_ns, OptionalString(body, "newNamespaceName"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> new_name, OptionalString(body, "newName"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> token, OptionalString(body, "versionToken"));
  if (!new_ns.has_value() && !new_name.has_value()) {
    return Err(InvalidArgument("Neither a new namespace name nor a new table name is specified."));
  }
  if (new_ns.has_value()) ST_TRY(catalog::ValidateNamespaceName(*new_ns));
  if (new_name.has_value()) ST_TRY(catalog::ValidateTableName(*new_name));
  Result<catalog::Table> renamed = deps.store.RenameTable(
      table.table_id, token, new_ns.value_or(table.namespace_name), new_name.value_or(table.name),
      catalog::TableWriter{CallerAccount(deps, context), std::nullopt});
  if (!renamed.has_value()) {
    if (renamed.error().code() == StatusCode::kAlreadyExists) {
      return Err(Conflict("Cannot rename " + table.namespace_name + "." + table.name + " to " +
                          new_ns.value_or(table.namespace_name) + "." +
                          new_name.value_or(table.name) + ": that table already exists."));
    }
    return Err(renamed.error());
  }
  return http::Response::Empty(204);
}

Reply GetTableMetadataLocation(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  nlohmann::json out = {{"versionToken", table.version_token},
                        {"warehouseLocation", table.warehouse_location}};
  if (table.metadata_location.has_value()) out["metadataLocation"] = *table.metadata_location;
  return JsonResponse(out);
}

Reply UpdateTableMetadataLocation(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, TableFromPath(deps, context));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  ST_ASSIGN_OR_RETURN(std::string token, RequiredString(body, "versionToken"));
  ST_ASSIGN_OR_RETURN(std::string location, RequiredString(body, "metadataLocation"));
  if (token.empty() || token.size() > 2048) {
    return Err(InvalidArgument("The versionToken must have 1 to 2048 characters."));
  }
  if (location.empty() || location.size() > 2048) {
    return Err(InvalidArgument("The metadataLocation must have 1 to 2048 characters."));
  }
  ST_ASSIGN_OR_RETURN(catalog::Table updated,
                      deps.commits.UpdateTableMetadataLocation(
                          table.table_id, token, location,
                          catalog::TableWriter{CallerAccount(deps, context), std::nullopt}));
  return JsonResponse({{"name", updated.name},
                       {"tableARN", updated.arn},
                       {"namespace", nlohmann::json::array({updated.namespace_name})},
                       {"versionToken", updated.version_token},
                       {"metadataLocation", updated.metadata_location.value_or(location)}});
}

}  // namespace st::api::s3tables
