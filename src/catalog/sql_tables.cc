// Tables in the SQLite store: create, read, list, delete, rename, and the
// per-table policy and configuration.
#include "catalog/arns.h"
#include "catalog/id_generation.h"
#include "catalog/names.h"
#include "catalog/page_token_internal.h"
#include "catalog/sql_metadata_store_internal.h"
#include "catalog/table_guard.h"

namespace st::catalog::sqlstore {

const char* const kTableColumns =
    "t.table_id, t.arn, t.bucket_arn, b.table_bucket_id, t.namespace_name, n.namespace_id, "
    "t.name, t.type, t.format, t.metadata_location, t.version_token, t.warehouse_location, "
    "t.created_at_ms, t.created_by, t.modified_at_ms, t.modified_by, t.owner_account_id, "
    "t.managed_by_channel, t.sse_algorithm, t.kms_key_arn "
    "FROM tables t JOIN namespaces n ON n.bucket_arn = t.bucket_arn AND n.name = "
    "t.namespace_name JOIN table_buckets b ON b.arn = t.bucket_arn";

Table ReadTableRow(const Statement& stmt) {
  Table out;
  out.table_id = stmt.Text(0);
  out.arn = stmt.Text(1);
  out.bucket_arn = stmt.Text(2);
  out.table_bucket_id = stmt.Text(3);
  out.namespace_name = stmt.Text(4);
  out.namespace_id = stmt.Text(5);
  out.name = stmt.Text(6);
  out.type = stmt.Text(7);
  out.format = stmt.Text(8);
  out.metadata_location = stmt.OptionalText(9);
  out.version_token = stmt.Text(10);
  out.warehouse_location = stmt.Text(11);
  out.created_at = FromMillis(stmt.Int64(12));
  out.created_by = stmt.Text(13);
  out.modified_at = FromMillis(stmt.Int64(14));
  out.modified_by = stmt.Text(15);
  out.owner_account_id = stmt.Text(16);
  out.managed_by_channel = stmt.OptionalText(17);
  out.encryption.sse_algorithm = stmt.Text(18);
  out.encryption.kms_key_arn = stmt.OptionalText(19).value_or("");
  return out;
}

namespace {

Status VersionTokenMismatch() {
  return Conflict("Provided version token does not match the table version token.");
}

Status TableNameTaken(const std::string& namespace_name, const std::string& name) {
  return AlreadyExists("A table named '" + name + "' already exists in namespace '" +
                       namespace_name + "'.");
}

}  // namespace

Result<Table> SqlMetadataStore::LoadTable(const std::string& table_id) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kTableColumns +
                                                   " WHERE t.table_id = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, table_id).Step());
  if (!found) return Err(TableNotFound());
  return ReadTableRow(stmt);
}

Result<Table> SqlMetadataStore::CreateTable(const NewTable& table) {
  ST_TRY(ValidateNamespaceName(table.namespace_name));
  ST_TRY(ValidateTableName(table.name));
  ST_TRY(ValidateAccountId(table.created_by));
  if (table.managed_by_channel.has_value() && table.managed_by_channel->empty()) {
    return Err(InvalidArgument("managed_by_channel, when set, must be the channel's ARN."));
  }
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Result<Table> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(TableBucket bucket, LoadBucket(table.bucket_arn));
    ST_ASSIGN_OR_RETURN(Namespace ns, LoadNamespace(table.bucket_arn, table.namespace_name));
    Table out;
    out.table_id = NewEntityId(random_);
    out.arn = TableArn(bucket.arn, out.table_id);
    out.bucket_arn = bucket.arn;
    out.table_bucket_id = bucket.table_bucket_id;
    out.namespace_name = ns.name;
    out.namespace_id = ns.namespace_id;
    out.name = table.name;
    out.version_token = NewVersionToken(random_);
    out.warehouse_location = NewWarehouseLocation(random_);
    out.created_at = out.modified_at = FromMillis(NowMs());
    out.created_by = out.modified_by = table.created_by;
    out.owner_account_id = bucket.owner_account_id;
    out.managed_by_channel = table.managed_by_channel;
    out.encryption = table.encryption.value_or(bucket.encryption);
    ST_ASSIGN_OR_RETURN(
        Statement stmt,
        db_->Prepare("INSERT INTO tables(table_id, arn, bucket_arn, namespace_name, name, type, "
                     "format, metadata_location, version_token, warehouse_location, created_at_ms, "
                     "created_by, modified_at_ms, modified_by, owner_account_id, "
                     "managed_by_channel, sse_algorithm, kms_key_arn) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    std::optional<std::string> kms;
    if (!out.encryption.kms_key_arn.empty()) kms = out.encryption.kms_key_arn;
    int64_t now = NowMs();
    Status status = stmt.Bind(1, out.table_id)
                        .Bind(2, out.arn)
                        .Bind(3, out.bucket_arn)
                        .Bind(4, out.namespace_name)
                        .Bind(5, out.name)
                        .Bind(6, out.type)
                        .Bind(7, out.format)
                        .Bind(8, out.version_token)
                        .Bind(9, out.warehouse_location)
                        .Bind(10, now)
                        .Bind(11, out.created_by)
                        .Bind(12, now)
                        .Bind(13, out.modified_by)
                        .Bind(14, out.owner_account_id)
                        .BindOptional(15, out.managed_by_channel)
                        .Bind(16, out.encryption.sse_algorithm)
                        .BindOptional(17, kms)
                        .Run();
    if (status.code() == StatusCode::kAlreadyExists) {
      return Err(TableNameTaken(out.namespace_name, out.name));
    }
    ST_TRY(status);
    ST_TRY(txn.Commit());
    return out;
  });
}

Result<Table> SqlMetadataStore::GetTable(const std::string& bucket_arn,
                                         const std::string& namespace_name,
                                         const std::string& name) {
  ConnectionLock lock(*this);
  ST_TRY(LoadNamespace(bucket_arn, namespace_name));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kTableColumns +
                                   " WHERE t.bucket_arn = ? AND t.namespace_name = ? AND "
                                   "t.name = ?"));
  ST_ASSIGN_OR_RETURN(bool found,
                      stmt.Bind(1, bucket_arn).Bind(2, namespace_name).Bind(3, name).Step());
  if (!found) return Err(TableNotFound());
  return ReadTableRow(stmt);
}

Result<Table> SqlMetadataStore::GetTableById(const std::string& table_id) {
  ConnectionLock lock(*this);
  return LoadTable(table_id);
}

Result<Table> SqlMetadataStore::GetTableByArn(const std::string& table_arn) {
  ST_TRY(ParseTableArn(table_arn));
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kTableColumns + " WHERE t.arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, table_arn).Step());
  if (!found) return Err(TableNotFound());
  return ReadTableRow(stmt);
}

Result<Table> SqlMetadataStore::GetTableByWarehouseLocation(const std::string& warehouse_location) {
  ConnectionLock lock(*this);
  // warehouse_location is UNIQUE, so this is an index lookup.
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kTableColumns +
                                                   " WHERE t.warehouse_location = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, warehouse_location).Step());
  if (!found) return Err(TableNotFound());
  return ReadTableRow(stmt);
}

Result<Page<Table>> SqlMetadataStore::ListTables(const std::string& bucket_arn,
                                                 const std::optional<std::string>& namespace_name,
                                                 const PageRequest& page) {
  ST_TRY(ValidatePageLimit(page.limit));
  std::string filter =
      bucket_arn + "\n" + (namespace_name ? "=" + *namespace_name : "*") + "\n" + page.prefix;
  ST_ASSIGN_OR_RETURN(std::vector<std::string> after,
                      DecodePageToken(page.continuation_token, "tables", filter));
  if (!after.empty() && after.size() != 2) {
    return Err(InvalidArgument("The continuation token is not valid."));
  }
  ConnectionLock lock(*this);
  if (namespace_name.has_value()) {
    ST_TRY(LoadNamespace(bucket_arn, *namespace_name));
  } else {
    ST_TRY(LoadBucket(bucket_arn));
  }
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare(std::string("SELECT ") + kTableColumns +
                   " WHERE t.bucket_arn = ?1 AND (?2 IS NULL OR t.namespace_name = ?2) AND "
                   "substr(t.name, 1, length(?3)) = ?3 AND (t.namespace_name > ?4 OR "
                   "(t.namespace_name = ?4 AND t.name > ?5)) "
                   "ORDER BY t.namespace_name, t.name LIMIT ?6"));
  stmt.Bind(1, bucket_arn)
      .BindOptional(2, namespace_name)
      .Bind(3, page.prefix)
      .Bind(4, after.empty() ? std::string() : after[0])
      .Bind(5, after.empty() ? std::string() : after[1])
      .Bind(6, static_cast<int64_t>(page.limit) + 1);
  ST_ASSIGN_OR_RETURN(std::vector<Table> rows, stmt.ReadRows(ReadTableRow));
  return ToPage(std::move(rows), page.limit, [&](const Table& last) {
    return EncodePageToken("tables", filter, {last.namespace_name, last.name});
  });
}

Status SqlMetadataStore::DeleteTable(const std::string& table_id,
                                     const std::optional<std::string>& expected_version_token) {
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(DeleteTableLocked(table_id, expected_version_token));
    return txn.Commit();
  });
}

Status SqlMetadataStore::DeleteTableLocked(
    const std::string& table_id, const std::optional<std::string>& expected_version_token) {
  ST_ASSIGN_OR_RETURN(Table table, LoadTable(table_id));
  if (expected_version_token.has_value() && *expected_version_token != table.version_token) {
    return VersionTokenMismatch();
  }
  ST_ASSIGN_OR_RETURN(Statement tags, db_->Prepare("DELETE FROM tags WHERE resource_arn = ?"));
  ST_TRY(tags.Bind(1, table.arn).Run());
  ST_ASSIGN_OR_RETURN(Statement del, db_->Prepare("DELETE FROM tables WHERE table_id = ?"));
  ST_TRY(del.Bind(1, table_id).Run());
  return Status::OK();
}

Result<Table> SqlMetadataStore::RenameTable(
    const std::string& table_id, const std::optional<std::string>& expected_version_token,
    const std::string& new_namespace_name, const std::string& new_name, const TableWriter& writer) {
  ST_TRY(ValidateNamespaceName(new_namespace_name));
  ST_TRY(ValidateTableName(new_name));
  ST_TRY(ValidateAccountId(writer.account_id));
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Result<Table> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(Table table, LoadTable(table_id));
    ST_TRY(CheckTableWritable(table, writer.acting_channel, "rename"));
    if (expected_version_token.has_value() && *expected_version_token != table.version_token) {
      return Err(VersionTokenMismatch());
    }
    ST_TRY(LoadNamespace(table.bucket_arn, new_namespace_name));
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("UPDATE tables SET namespace_name = ?, name = ?, "
                                     "version_token = ?, modified_at_ms = ?, modified_by = ? "
                                     "WHERE table_id = ?"));
    Status status = stmt.Bind(1, new_namespace_name)
                        .Bind(2, new_name)
                        .Bind(3, NewVersionToken(random_))
                        .Bind(4, NowMs())
                        .Bind(5, writer.account_id)
                        .Bind(6, table_id)
                        .Run();
    if (status.code() == StatusCode::kAlreadyExists) {
      return Err(TableNameTaken(new_namespace_name, new_name));
    }
    ST_TRY(status);
    ST_ASSIGN_OR_RETURN(Table renamed, LoadTable(table_id));
    ST_TRY(txn.Commit());
    return renamed;
  });
}

// ---- Per-table policy and configuration ----

Result<std::optional<std::string>> SqlMetadataStore::GetTableText(const std::string& table_id,
                                                                  const char* column) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + column +
                                                   " FROM tables WHERE table_id = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, table_id).Step());
  if (!found) return Err(TableNotFound());
  return stmt.OptionalText(0);
}

Status SqlMetadataStore::SetTableText(const std::string& table_id, const char* column,
                                      const std::optional<std::string>& value) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("UPDATE tables SET ") + column +
                                                   " = ? WHERE table_id = ?"));
  ST_TRY(stmt.BindOptional(1, value).Bind(2, table_id).Run());
  return db_->Changes() == 0 ? TableNotFound() : Status::OK();
}

Status SqlMetadataStore::PutTablePolicy(const std::string& table_id, const std::string& document) {
  if (document.empty() || document.size() > 20480) {
    return InvalidArgument("A resource policy must be 1 to 20480 characters long.");
  }
  ConnectionLock lock(*this);
  return SetTableText(table_id, "policy", document);
}

Result<std::string> SqlMetadataStore::GetTablePolicy(const std::string& table_id) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(std::optional<std::string> policy, GetTableText(table_id, "policy"));
  if (!policy.has_value()) return Err(NotFound("The table policy does not exist."));
  return *policy;
}

Status SqlMetadataStore::DeleteTablePolicy(const std::string& table_id) {
  ConnectionLock lock(*this);
  return SetTableText(table_id, "policy", std::nullopt);
}

Status SqlMetadataStore::PutTableRecordExpiration(const std::string& table_id,
                                                  const std::string& value_json) {
  if (value_json.empty()) return InvalidArgument("A record expiration configuration is empty.");
  ConnectionLock lock(*this);
  return SetTableText(table_id, "record_expiration", value_json);
}

Result<std::optional<std::string>> SqlMetadataStore::GetTableRecordExpiration(
    const std::string& table_id) {
  ConnectionLock lock(*this);
  return GetTableText(table_id, "record_expiration");
}

Status SqlMetadataStore::PutTableMaintenance(const std::string& table_id, const std::string& type,
                                             const std::string& value_json) {
  if (type.empty() || type.size() > 64 || value_json.empty()) {
    return InvalidArgument("A maintenance configuration needs a type and a value.");
  }
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(LoadTable(table_id));
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("INSERT INTO table_maintenance(table_id, type, value) "
                                     "VALUES (?, ?, ?) ON CONFLICT(table_id, type) DO UPDATE SET "
                                     "value = excluded.value"));
    ST_TRY(stmt.Bind(1, table_id).Bind(2, type).Bind(3, value_json).Run());
    return txn.Commit();
  });
}

Result<MaintenanceConfigs> SqlMetadataStore::GetTableMaintenance(const std::string& table_id) {
  ConnectionLock lock(*this);
  ST_TRY(LoadTable(table_id));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("SELECT type, value FROM table_maintenance WHERE table_id = ?"));
  stmt.Bind(1, table_id);
  MaintenanceConfigs out;
  ST_TRY(stmt.ForEachRow([&](const Statement& row) { out[row.Text(0)] = row.Text(1); }));
  return out;
}

}  // namespace st::catalog::sqlstore
