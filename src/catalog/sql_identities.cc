// Opening a store on a connection; accounts, identities, access keys,
// identity policies and tags.
#include "catalog/arns.h"
#include "catalog/id_generation.h"
#include "catalog/names.h"
#include "catalog/page_token_internal.h"
#include "catalog/sql_metadata_store_internal.h"
#include "catalog/sql_schema_internal.h"

namespace st::catalog::sqlstore {

Result<std::unique_ptr<MetadataStore>> OpenOnConnections(
    std::vector<std::unique_ptr<Connection>> dbs, const std::string& where,
    const auth::SecretSealer* sealer, const Clock& clock, Random& random) {
  if (dbs.empty()) return Err(InvalidArgument("no connection to the catalog database"));
  Status migrated = MigrateSchema(*dbs.front(), clock.NowMillis());
  if (!migrated.ok()) return Err(migrated.WithContext("catalog database '" + where + "'"));
  ST_TRY(PrepareSecretsAtRest(*dbs.front(), sealer, where));
  return std::unique_ptr<MetadataStore>(
      new SqlMetadataStore(std::move(dbs), clock, random, sealer));
}

namespace {

const char* KindText(IdentityKind kind) { return kind == IdentityKind::kUser ? "user" : "role"; }

Identity ReadIdentity(const Statement& stmt) {
  Identity out;
  out.arn = stmt.Text(0);
  out.account_id = stmt.Text(1);
  out.kind = stmt.Text(2) == "role" ? IdentityKind::kRole : IdentityKind::kUser;
  out.name = stmt.Text(3);
  out.created_at = FromMillis(stmt.Int64(4));
  return out;
}

// secret_access_key holds the column as stored (sealed: the sealed bytes)
// until OpenSecret turns it into the secret.
struct StoredAccessKey {
  AccessKey key;
  bool sealed = false;
};

StoredAccessKey ReadAccessKey(const Statement& stmt) {
  StoredAccessKey out;
  out.key.access_key_id = stmt.Text(0);
  StoredSecret secret = ReadStoredSecret(stmt, 1);
  out.sealed = secret.sealed;
  out.key.secret_access_key = std::move(secret.bytes);
  out.key.owner_arn = stmt.Text(2);
  out.key.status = stmt.Text(3) == "active" ? AccessKeyStatus::kActive : AccessKeyStatus::kInactive;
  out.key.created_at = FromMillis(stmt.Int64(4));
  return out;
}

// The counts use the identities (account_id, kind, name) and table_buckets_by_owner indexes.
constexpr const char* kAccountColumns =
    "a.account_id, a.created_at_ms, "
    "(SELECT count(*) FROM identities i WHERE i.account_id = a.account_id AND i.kind = 'user'), "
    "(SELECT count(*) FROM identities i WHERE i.account_id = a.account_id AND i.kind = 'role'), "
    "(SELECT count(*) FROM table_buckets b WHERE b.owner_account_id = a.account_id)";

Account ReadAccount(const Statement& stmt) {
  Account out;
  out.account_id = stmt.Text(0);
  out.created_at = FromMillis(stmt.Int64(1));
  out.user_count = stmt.Int64(2);
  out.role_count = stmt.Int64(3);
  out.table_bucket_count = stmt.Int64(4);
  return out;
}

constexpr const char* kIdentityColumns = "arn, account_id, kind, name, created_at_ms";
constexpr const char* kAccessKeyColumns = "access_key_id, secret, owner_arn, status, created_at_ms";

Status IdentityNotFound(const std::string& arn) {
  return NotFound("The user or role '" + arn + "' does not exist.");
}

Status AccessKeyNotFound(const std::string& id) {
  return NotFound("The access key '" + id + "' does not exist.");
}

}  // namespace

TimePoint FromMillis(int64_t ms) { return TimePoint(std::chrono::milliseconds(ms)); }

Status TableNotFound() { return NotFound("The specified table does not exist."); }
Status BucketNotFound() { return NotFound("The specified table bucket does not exist."); }
Status NamespaceNotFound() { return NotFound("The specified namespace does not exist."); }

Status SqlMetadataStore::RequireIdentity(const std::string& arn) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("SELECT 1 FROM identities WHERE arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, arn).Step());
  return found ? Status::OK() : IdentityNotFound(arn);
}

Status SqlMetadataStore::CreateAccount(const std::string& account_id) {
  ST_TRY(ValidateAccountId(account_id));
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("INSERT INTO accounts(account_id, created_at_ms) VALUES (?, ?)"));
  Status status = stmt.Bind(1, account_id).Bind(2, NowMs()).Run();
  if (status.code() == StatusCode::kAlreadyExists) {
    return AlreadyExists("The account " + account_id + " already exists.");
  }
  return status;
}

Result<bool> SqlMetadataStore::AccountExists(const std::string& account_id) {
  ST_TRY(ValidateAccountId(account_id));
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("SELECT 1 FROM accounts WHERE account_id = ?"));
  return stmt.Bind(1, account_id).Step();
}

Result<Account> SqlMetadataStore::GetAccount(const std::string& account_id) {
  ST_TRY(ValidateAccountId(account_id));
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kAccountColumns +
                                                   " FROM accounts a WHERE account_id = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, account_id).Step());
  if (!found) return Err(NotFound("The account '" + account_id + "' does not exist."));
  return ReadAccount(stmt);
}

Result<Page<Account>> SqlMetadataStore::ListAccounts(const PageRequest& page) {
  ST_TRY(ValidatePageLimit(page.limit));
  ST_ASSIGN_OR_RETURN(std::vector<std::string> after,
                      DecodePageToken(page.continuation_token, "accounts", page.prefix));
  if (after.size() > 1) return Err(InvalidArgument("The continuation token is not valid."));
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kAccountColumns +
                                   " FROM accounts a WHERE substr(account_id, 1, length(?1)) = ?1 "
                                   "AND account_id > ?2 ORDER BY account_id LIMIT ?3"));
  stmt.Bind(1, page.prefix)
      .Bind(2, after.empty() ? std::string() : after[0])
      .Bind(3, static_cast<int64_t>(page.limit) + 1);
  Page<Account> out;
  while (true) {
    ST_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    if (static_cast<int>(out.items.size()) == page.limit) {
      out.continuation_token =
          EncodePageToken("accounts", page.prefix, {out.items.back().account_id});
      break;
    }
    out.items.push_back(ReadAccount(stmt));
  }
  return out;
}

Result<Identity> SqlMetadataStore::CreateIdentity(IdentityKind kind, const std::string& account_id,
                                                  const std::string& name) {
  ST_TRY(ValidateAccountId(account_id));
  ST_TRY(ValidateIamName(name));
  Identity identity{
      kind,
      account_id,
      name,
      kind == IdentityKind::kUser ? IamUserArn(account_id, name) : IamRoleArn(account_id, name),
      {}};
  ConnectionLock lock(*this);
  identity.created_at = FromMillis(NowMs());
  return RunWrite([&]() REQUIRES(mu_) -> Result<Identity> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(Statement account,
                        db_->Prepare("SELECT 1 FROM accounts WHERE account_id = ?"));
    ST_ASSIGN_OR_RETURN(bool account_found, account.Bind(1, account_id).Step());
    if (!account_found) return Err(NotFound("The account " + account_id + " does not exist."));
    ST_ASSIGN_OR_RETURN(Statement insert,
                        db_->Prepare("INSERT INTO identities(arn, account_id, kind, name, "
                                     "created_at_ms) VALUES (?, ?, ?, ?, ?)"));
    Status status = insert.Bind(1, identity.arn)
                        .Bind(2, account_id)
                        .Bind(3, KindText(kind))
                        .Bind(4, name)
                        .Bind(5, NowMs())
                        .Run();
    if (status.code() == StatusCode::kAlreadyExists) {
      return Err(AlreadyExists("The " + std::string(KindText(kind)) + " '" + identity.arn +
                               "' already exists."));
    }
    ST_TRY(status);
    ST_TRY(txn.Commit());
    return identity;
  });
}

Result<Identity> SqlMetadataStore::GetIdentity(const std::string& arn) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kIdentityColumns +
                                                   " FROM identities WHERE arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, arn).Step());
  if (!found) return Err(IdentityNotFound(arn));
  return ReadIdentity(stmt);
}

Result<std::vector<Identity>> SqlMetadataStore::ListIdentities(const std::string& account_id) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kIdentityColumns +
                                   " FROM identities WHERE account_id = ? ORDER BY arn"));
  stmt.Bind(1, account_id);
  return stmt.ReadRows(ReadIdentity);
}

Status SqlMetadataStore::DeleteIdentity(const std::string& arn) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("DELETE FROM identities WHERE arn = ?"));
  ST_TRY(stmt.Bind(1, arn).Run());  // Keys and policies go by ON DELETE CASCADE.
  return db_->Changes() == 0 ? IdentityNotFound(arn) : Status::OK();
}

Result<AccessKey> SqlMetadataStore::CreateAccessKey(const std::string& owner_arn) {
  ConnectionLock lock(*this);
  AccessKey key{NewAccessKeyId(random_), NewSecretAccessKey(random_), owner_arn,
                AccessKeyStatus::kActive, FromMillis(NowMs())};
  return RunWrite([&]() REQUIRES(mu_) -> Result<AccessKey> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(RequireIdentity(owner_arn));
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare(std::string("INSERT INTO access_keys(") + kAccessKeyColumns +
                                     ") VALUES (?, ?, ?, 'active', ?)"));
    ST_TRY(BindSecret(stmt, 2, key.access_key_id, key.secret_access_key));
    ST_TRY(stmt.Bind(1, key.access_key_id).Bind(3, owner_arn).Bind(4, NowMs()).Run());
    ST_TRY(txn.Commit());
    return key;
  });
}

Result<AccessKey> SqlMetadataStore::GetAccessKey(const std::string& access_key_id) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kAccessKeyColumns +
                                                   " FROM access_keys WHERE access_key_id = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, access_key_id).Step());
  if (!found) return Err(AccessKeyNotFound(access_key_id));
  StoredAccessKey stored = ReadAccessKey(stmt);
  ST_ASSIGN_OR_RETURN(
      stored.key.secret_access_key,
      OpenSecret(stored.key.access_key_id, stored.key.secret_access_key, stored.sealed));
  return stored.key;
}

Result<std::vector<AccessKey>> SqlMetadataStore::ListAccessKeys(const std::string& owner_arn) {
  ConnectionLock lock(*this);
  ST_TRY(RequireIdentity(owner_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kAccessKeyColumns +
                                   " FROM access_keys WHERE owner_arn = ? ORDER BY access_key_id"));
  stmt.Bind(1, owner_arn);
  ST_ASSIGN_OR_RETURN(std::vector<StoredAccessKey> rows, stmt.ReadRows(ReadAccessKey));
  std::vector<AccessKey> out;
  out.reserve(rows.size());
  for (StoredAccessKey& stored : rows) {
    ST_ASSIGN_OR_RETURN(
        stored.key.secret_access_key,
        OpenSecret(stored.key.access_key_id, stored.key.secret_access_key, stored.sealed));
    out.push_back(std::move(stored.key));
  }
  return out;
}

Status SqlMetadataStore::SetAccessKeyStatus(const std::string& access_key_id,
                                            AccessKeyStatus status) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("UPDATE access_keys SET status = ? WHERE access_key_id = ?"));
  ST_TRY(stmt.Bind(1, status == AccessKeyStatus::kActive ? "active" : "inactive")
             .Bind(2, access_key_id)
             .Run());
  return db_->Changes() == 0 ? AccessKeyNotFound(access_key_id) : Status::OK();
}

Status SqlMetadataStore::DeleteAccessKey(const std::string& access_key_id) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("DELETE FROM access_keys WHERE access_key_id = ?"));
  ST_TRY(stmt.Bind(1, access_key_id).Run());
  return db_->Changes() == 0 ? AccessKeyNotFound(access_key_id) : Status::OK();
}

Status SqlMetadataStore::PutIdentityPolicy(const std::string& owner_arn,
                                           const NamedPolicy& policy) {
  if (policy.name.empty() || policy.name.size() > 128 || policy.document.empty()) {
    return InvalidArgument(
        "An identity policy needs a name of 1 to 128 characters and a document.");
  }
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(RequireIdentity(owner_arn));
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("INSERT INTO identity_policies(owner_arn, name, document) "
                                     "VALUES (?, ?, ?) ON CONFLICT(owner_arn, name) DO UPDATE SET "
                                     "document = excluded.document"));
    ST_TRY(stmt.Bind(1, owner_arn).Bind(2, policy.name).Bind(3, policy.document).Run());
    return txn.Commit();
  });
}

Result<std::vector<NamedPolicy>> SqlMetadataStore::ListIdentityPolicies(
    const std::string& owner_arn) {
  ConnectionLock lock(*this);
  ST_TRY(RequireIdentity(owner_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("SELECT name, document FROM identity_policies "
                                                   "WHERE owner_arn = ? ORDER BY name"));
  stmt.Bind(1, owner_arn);
  return stmt.ReadRows([](const Statement& row) { return NamedPolicy{row.Text(0), row.Text(1)}; });
}

Status SqlMetadataStore::DeleteIdentityPolicy(const std::string& owner_arn,
                                              const std::string& name) {
  ConnectionLock lock(*this);
  ST_TRY(RequireIdentity(owner_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("DELETE FROM identity_policies "
                                                   "WHERE owner_arn = ? AND name = ?"));
  ST_TRY(stmt.Bind(1, owner_arn).Bind(2, name).Run());
  if (db_->Changes() == 0) {
    return NotFound("The policy '" + name + "' of '" + owner_arn + "' does not exist.");
  }
  return Status::OK();
}

// ---- Tags ----

Status SqlMetadataStore::RequireTaggable(const std::string& resource_arn) {
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("SELECT 1 FROM table_buckets WHERE arn = ?1 "
                                   "UNION ALL SELECT 1 FROM tables WHERE arn = ?1 "
                                   "UNION ALL SELECT 1 FROM channels WHERE arn = ?1 "
                                   "UNION ALL SELECT 1 FROM kafka_clusters WHERE arn = ?1"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, resource_arn).Step());
  if (!found) {
    return NotFound("The specified resource '" + resource_arn +
                    "' does not exist; tag a table bucket, table, Kafka cluster or channel ARN.");
  }
  return Status::OK();
}

Status SqlMetadataStore::TagResource(const std::string& resource_arn, const Tags& tags) {
  for (const auto& [key, value] : tags) ST_TRY(ValidateTag(key, value));
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(RequireTaggable(resource_arn));
    for (const auto& [key, value] : tags) {
      ST_ASSIGN_OR_RETURN(
          Statement stmt,
          db_->Prepare("INSERT INTO tags(resource_arn, key, value) VALUES (?, ?, ?) "
                       "ON CONFLICT(resource_arn, key) DO UPDATE SET value = "
                       "excluded.value"));
      ST_TRY(stmt.Bind(1, resource_arn).Bind(2, key).Bind(3, value).Run());
    }
    ST_ASSIGN_OR_RETURN(Statement count,
                        db_->Prepare("SELECT count(*) FROM tags WHERE resource_arn = ?"));
    ST_ASSIGN_OR_RETURN(bool row, count.Bind(1, resource_arn).Step());
    if (row && count.Int64(0) > kMaxTagsPerResource) {
      return InvalidArgument("A resource can have at most " + std::to_string(kMaxTagsPerResource) +
                             " tags; remove some with UntagResource first.");
    }
    return txn.Commit();
  });
}

Status SqlMetadataStore::UntagResource(const std::string& resource_arn,
                                       const std::vector<std::string>& keys) {
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(RequireTaggable(resource_arn));
    for (const std::string& key : keys) {
      ST_ASSIGN_OR_RETURN(Statement stmt,
                          db_->Prepare("DELETE FROM tags WHERE resource_arn = ? AND key = ?"));
      ST_TRY(stmt.Bind(1, resource_arn).Bind(2, key).Run());
    }
    return txn.Commit();
  });
}

Result<Tags> SqlMetadataStore::ListTags(const std::string& resource_arn) {
  ConnectionLock lock(*this);
  ST_TRY(RequireTaggable(resource_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("SELECT key, value FROM tags WHERE resource_arn = ?"));
  stmt.Bind(1, resource_arn);
  Tags out;
  ST_TRY(stmt.ForEachRow([&](const Statement& row) { out[row.Text(0)] = row.Text(1); }));
  return out;
}

}  // namespace st::catalog::sqlstore
