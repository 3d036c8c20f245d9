// Table buckets (with their policy, encryption and maintenance configuration)
// and namespaces in the SQLite store.
#include "catalog/arns.h"
#include "catalog/id_generation.h"
#include "catalog/names.h"
#include "catalog/page_token_internal.h"
#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

namespace {

constexpr const char* kBucketColumns =
    "arn, name, owner_account_id, region, table_bucket_id, created_at_ms, sse_algorithm, "
    "kms_key_arn";

TableBucket ReadBucket(const Statement& stmt) {
  TableBucket out;
  out.arn = stmt.Text(0);
  out.name = stmt.Text(1);
  out.owner_account_id = stmt.Text(2);
  out.region = stmt.Text(3);
  out.table_bucket_id = stmt.Text(4);
  out.created_at = FromMillis(stmt.Int64(5));
  out.encryption.sse_algorithm = stmt.Text(6);
  out.encryption.kms_key_arn = stmt.OptionalText(7).value_or("");
  return out;
}

constexpr const char* kNamespaceColumns =
    "n.bucket_arn, b.table_bucket_id, n.name, n.namespace_id, n.created_by, n.owner_account_id, "
    "n.created_at_ms";

Namespace ReadNamespace(const Statement& stmt) {
  Namespace out;
  out.bucket_arn = stmt.Text(0);
  out.table_bucket_id = stmt.Text(1);
  out.name = stmt.Text(2);
  out.namespace_id = stmt.Text(3);
  out.created_by = stmt.Text(4);
  out.owner_account_id = stmt.Text(5);
  out.created_at = FromMillis(stmt.Int64(6));
  return out;
}

Status ValidateEncryption(const EncryptionConfig& config) {
  if (config.sse_algorithm == "AES256") {
    if (!config.kms_key_arn.empty()) {
      return InvalidArgument("A KMS key ARN may only be given with sseAlgorithm aws:kms.");
    }
    return Status::OK();
  }
  if (config.sse_algorithm == "aws:kms") {
    if (config.kms_key_arn.substr(0, 8) != "arn:aws:" ||
        config.kms_key_arn.find(":kms:") == std::string::npos ||
        config.kms_key_arn.find(":key/") == std::string::npos) {
      return InvalidArgument(
          "sseAlgorithm aws:kms needs kmsKeyArn of the form "
          "arn:aws:kms:<region>:<account id>:key/<key id>.");
    }
    return Status::OK();
  }
  return InvalidArgument("The sseAlgorithm '" + config.sse_algorithm +
                         "' is not valid: use AES256 or aws:kms.");
}

Status ValidateMaintenance(const std::string& type, const std::string& value_json) {
  if (type.empty() || type.size() > 64 || value_json.empty()) {
    return InvalidArgument("A maintenance configuration needs a type and a value.");
  }
  return Status::OK();
}

}  // namespace

// The bucket was checked first; a concurrent delete in between shows as no row changed.
Status SqlMetadataStore::CheckBucketRowChanged() {
  return db_->Changes() == 0 ? BucketNotFound() : Status::OK();
}

Result<TableBucket> SqlMetadataStore::LoadBucket(const std::string& bucket_arn) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kBucketColumns +
                                                   " FROM table_buckets WHERE arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, bucket_arn).Step());
  if (!found) {
    ST_TRY(ParseTableBucketArn(bucket_arn));  // A malformed ARN is the better message.
    return Err(BucketNotFound());
  }
  return ReadBucket(stmt);
}

Result<TableBucket> SqlMetadataStore::CreateTableBucket(const NewTableBucket& bucket) {
  ST_TRY(ValidateAccountId(bucket.owner_account_id));
  ST_TRY(ValidateTableBucketName(bucket.name));
  ST_TRY(ValidateEncryption(bucket.encryption));
  if (bucket.region.empty()) return Err(InvalidArgument("A table bucket needs a region."));
  ConnectionLock lock(*this);
  TableBucket out;
  out.arn = TableBucketArn(bucket.region, bucket.owner_account_id, bucket.name);
  out.name = bucket.name;
  out.owner_account_id = bucket.owner_account_id;
  out.region = bucket.region;
  out.table_bucket_id = NewEntityId(random_);
  out.created_at = FromMillis(NowMs());
  out.encryption = bucket.encryption;
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("INSERT INTO table_buckets(") + kBucketColumns +
                                   ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
  std::optional<std::string> kms;
  if (!out.encryption.kms_key_arn.empty()) kms = out.encryption.kms_key_arn;
  Status status = stmt.Bind(1, out.arn)
                      .Bind(2, out.name)
                      .Bind(3, out.owner_account_id)
                      .Bind(4, out.region)
                      .Bind(5, out.table_bucket_id)
                      .Bind(6, NowMs())
                      .Bind(7, out.encryption.sse_algorithm)
                      .BindOptional(8, kms)
                      .Run();
  if (status.code() == StatusCode::kAlreadyExists) {
    return Err(AlreadyExists("The table bucket '" + bucket.name +
                             "' already exists; choose another name."));
  }
  ST_TRY(status);
  return out;
}

Result<TableBucket> SqlMetadataStore::GetTableBucket(const std::string& bucket_arn) {
  ConnectionLock lock(*this);
  return LoadBucket(bucket_arn);
}

Result<Page<TableBucket>> SqlMetadataStore::ListTableBuckets(const std::string& owner_account_id,
                                                             const PageRequest& page) {
  ST_TRY(ValidatePageLimit(page.limit));
  std::string filter = owner_account_id + "/" + page.prefix;
  ST_ASSIGN_OR_RETURN(std::vector<std::string> after,
                      DecodePageToken(page.continuation_token, "buckets", filter));
  if (after.size() > 1) return Err(InvalidArgument("The continuation token is not valid."));
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kBucketColumns +
                                   " FROM table_buckets WHERE owner_account_id = ?1 AND "
                                   "substr(name, 1, length(?2)) = ?2 AND name > ?3 "
                                   "ORDER BY name LIMIT ?4"));
  stmt.Bind(1, owner_account_id)
      .Bind(2, page.prefix)
      .Bind(3, after.empty() ? std::string() : after[0])
      .Bind(4, static_cast<int64_t>(page.limit) + 1);
  ST_ASSIGN_OR_RETURN(std::vector<TableBucket> rows, stmt.ReadRows(ReadBucket));
  return ToPage(std::move(rows), page.limit, [&](const TableBucket& last) {
    return EncodePageToken("buckets", filter, {last.name});
  });
}

Status SqlMetadataStore::DeleteTableBucket(const std::string& bucket_arn) {
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(LoadBucket(bucket_arn));
    ST_ASSIGN_OR_RETURN(Statement count,
                        db_->Prepare("SELECT count(*) FROM namespaces WHERE bucket_arn = ?"));
    ST_ASSIGN_OR_RETURN(bool row, count.Bind(1, bucket_arn).Step());
    if (row && count.Int64(0) > 0) {
      return Conflict("The table bucket is not empty: delete its " +
                      std::to_string(count.Int64(0)) + " namespace(s) and their tables first.");
    }
    ST_ASSIGN_OR_RETURN(Statement tags, db_->Prepare("DELETE FROM tags WHERE resource_arn = ?"));
    ST_TRY(tags.Bind(1, bucket_arn).Run());
    ST_ASSIGN_OR_RETURN(Statement del, db_->Prepare("DELETE FROM table_buckets WHERE arn = ?"));
    ST_TRY(del.Bind(1, bucket_arn).Run());
    return txn.Commit();
  });
}

Status SqlMetadataStore::PutTableBucketPolicy(const std::string& bucket_arn,
                                              const std::string& document) {
  if (document.empty() || document.size() > 20480) {
    return InvalidArgument("A resource policy must be 1 to 20480 characters long.");
  }
  ConnectionLock lock(*this);
  ST_TRY(LoadBucket(bucket_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("UPDATE table_buckets SET policy = ? WHERE arn = ?"));
  ST_TRY(stmt.Bind(1, document).Bind(2, bucket_arn).Run());
  return CheckBucketRowChanged();
}

Result<std::string> SqlMetadataStore::GetTableBucketPolicy(const std::string& bucket_arn) {
  ConnectionLock lock(*this);
  ST_TRY(LoadBucket(bucket_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("SELECT policy FROM table_buckets WHERE arn = ?"));
  ST_ASSIGN_OR_RETURN(bool row, stmt.Bind(1, bucket_arn).Step());
  std::optional<std::string> policy = row ? stmt.OptionalText(0) : std::nullopt;
  if (!policy.has_value()) return Err(NotFound("The table bucket policy does not exist."));
  return *policy;
}

Status SqlMetadataStore::DeleteTableBucketPolicy(const std::string& bucket_arn) {
  ConnectionLock lock(*this);
  ST_TRY(LoadBucket(bucket_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("UPDATE table_buckets SET policy = NULL WHERE arn = ?"));
  ST_TRY(stmt.Bind(1, bucket_arn).Run());
  return CheckBucketRowChanged();
}

Status SqlMetadataStore::PutTableBucketEncryption(const std::string& bucket_arn,
                                                  const EncryptionConfig& config) {
  ST_TRY(ValidateEncryption(config));
  ConnectionLock lock(*this);
  ST_TRY(LoadBucket(bucket_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("UPDATE table_buckets SET sse_algorithm = ?, "
                                                   "kms_key_arn = ? WHERE arn = ?"));
  std::optional<std::string> kms;
  if (!config.kms_key_arn.empty()) kms = config.kms_key_arn;
  ST_TRY(stmt.Bind(1, config.sse_algorithm).BindOptional(2, kms).Bind(3, bucket_arn).Run());
  return CheckBucketRowChanged();
}

Status SqlMetadataStore::DeleteTableBucketEncryption(const std::string& bucket_arn) {
  return PutTableBucketEncryption(bucket_arn, EncryptionConfig{});
}

Status SqlMetadataStore::PutTableBucketMaintenance(const std::string& bucket_arn,
                                                   const std::string& type,
                                                   const std::string& value_json) {
  ST_TRY(ValidateMaintenance(type, value_json));
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(LoadBucket(bucket_arn));
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("INSERT INTO bucket_maintenance(bucket_arn, type, value) "
                                     "VALUES (?, ?, ?) ON CONFLICT(bucket_arn, type) DO UPDATE SET "
                                     "value = excluded.value"));
    ST_TRY(stmt.Bind(1, bucket_arn).Bind(2, type).Bind(3, value_json).Run());
    return txn.Commit();
  });
}

Result<MaintenanceConfigs> SqlMetadataStore::GetTableBucketMaintenance(
    const std::string& bucket_arn) {
  ConnectionLock lock(*this);
  ST_TRY(LoadBucket(bucket_arn));
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("SELECT type, value FROM bucket_maintenance WHERE bucket_arn = ?"));
  stmt.Bind(1, bucket_arn);
  MaintenanceConfigs out;
  ST_TRY(stmt.ForEachRow([&](const Statement& row) { out[row.Text(0)] = row.Text(1); }));
  return out;
}

// ---- Namespaces ----

Result<Namespace> SqlMetadataStore::LoadNamespace(const std::string& bucket_arn,
                                                  const std::string& name) {
  ST_TRY(LoadBucket(bucket_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kNamespaceColumns +
                                   " FROM namespaces n JOIN table_buckets b ON b.arn = "
                                   "n.bucket_arn WHERE n.bucket_arn = ? AND n.name = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, bucket_arn).Bind(2, name).Step());
  if (!found) return Err(NamespaceNotFound());
  return ReadNamespace(stmt);
}

Result<Namespace> SqlMetadataStore::CreateNamespace(const std::string& bucket_arn,
                                                    const std::string& name,
                                                    const std::string& created_by) {
  ST_TRY(ValidateNamespaceName(name));
  ST_TRY(ValidateAccountId(created_by));
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Result<Namespace> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(TableBucket bucket, LoadBucket(bucket_arn));
    Namespace out{bucket_arn,
                  bucket.table_bucket_id,
                  name,
                  NewEntityId(random_),
                  created_by,
                  bucket.owner_account_id,
                  FromMillis(NowMs())};
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("INSERT INTO namespaces(bucket_arn, name, namespace_id, "
                                     "created_at_ms, created_by, owner_account_id) "
                                     "VALUES (?, ?, ?, ?, ?, ?)"));
    Status status = stmt.Bind(1, bucket_arn)
                        .Bind(2, name)
                        .Bind(3, out.namespace_id)
                        .Bind(4, NowMs())
                        .Bind(5, created_by)
                        .Bind(6, out.owner_account_id)
                        .Run();
    if (status.code() == StatusCode::kAlreadyExists) {
      return Err(
          AlreadyExists("A namespace named '" + name + "' already exists in the table bucket."));
    }
    ST_TRY(status);
    ST_TRY(txn.Commit());
    return out;
  });
}

Result<Namespace> SqlMetadataStore::GetNamespace(const std::string& bucket_arn,
                                                 const std::string& name) {
  ConnectionLock lock(*this);
  return LoadNamespace(bucket_arn, name);
}

Result<Page<Namespace>> SqlMetadataStore::ListNamespaces(const std::string& bucket_arn,
                                                         const PageRequest& page) {
  ST_TRY(ValidatePageLimit(page.limit));
  ST_ASSIGN_OR_RETURN(std::vector<std::string> after,
                      DecodePageToken(page.continuation_token, "namespaces", page.prefix));
  if (after.size() > 1) return Err(InvalidArgument("The continuation token is not valid."));
  ConnectionLock lock(*this);
  ST_TRY(LoadBucket(bucket_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kNamespaceColumns +
                                   " FROM namespaces n JOIN table_buckets b ON b.arn = "
                                   "n.bucket_arn WHERE n.bucket_arn = ?1 AND "
                                   "substr(n.name, 1, length(?2)) = ?2 AND n.name > ?3 "
                                   "ORDER BY n.name LIMIT ?4"));
  stmt.Bind(1, bucket_arn)
      .Bind(2, page.prefix)
      .Bind(3, after.empty() ? std::string() : after[0])
      .Bind(4, static_cast<int64_t>(page.limit) + 1);
  ST_ASSIGN_OR_RETURN(std::vector<Namespace> rows, stmt.ReadRows(ReadNamespace));
  return ToPage(std::move(rows), page.limit, [&](const Namespace& last) {
    return EncodePageToken("namespaces", page.prefix, {last.name});
  });
}

Status SqlMetadataStore::DeleteNamespace(const std::string& bucket_arn, const std::string& name) {
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(LoadNamespace(bucket_arn, name));
    ST_ASSIGN_OR_RETURN(Statement count, db_->Prepare("SELECT count(*) FROM tables WHERE "
                                                      "bucket_arn = ? AND namespace_name = ?"));
    ST_ASSIGN_OR_RETURN(bool row, count.Bind(1, bucket_arn).Bind(2, name).Step());
    if (row && count.Int64(0) > 0) {
      return Conflict("The namespace '" + name + "' is not empty: delete its " +
                      std::to_string(count.Int64(0)) + " table(s) first.");
    }
    ST_ASSIGN_OR_RETURN(Statement del,
                        db_->Prepare("DELETE FROM namespaces WHERE bucket_arn = ? AND name = ?"));
    ST_TRY(del.Bind(1, bucket_arn).Bind(2, name).Run());
    return txn.Commit();
  });
}

}  // namespace st::catalog::sqlstore
