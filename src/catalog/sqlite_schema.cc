#include <string>
#include <vector>

#include "catalog/sqlite_schema_internal.h"

namespace st::catalog::sqlite {

namespace {

struct Migration {
  int version;
  const char* sql;
};

// Append only: a released migration never changes. Times are epoch millis.
const std::vector<Migration>& Migrations() {
  static const std::vector<Migration> kMigrations = {
      {1, R"sql(
CREATE TABLE accounts (
  account_id    TEXT PRIMARY KEY,
  created_at_ms INTEGER NOT NULL
);
CREATE TABLE identities (
  arn           TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL REFERENCES accounts(account_id) ON DELETE CASCADE,
  kind          TEXT NOT NULL CHECK (kind IN ('user', 'role')),
  name          TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  UNIQUE (account_id, kind, name)
);
CREATE TABLE access_keys (
  access_key_id TEXT PRIMARY KEY,
  secret        TEXT NOT NULL,
  owner_arn     TEXT NOT NULL REFERENCES identities(arn) ON DELETE CASCADE,
  status        TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
  created_at_ms INTEGER NOT NULL
);
CREATE INDEX access_keys_by_owner ON access_keys(owner_arn);
CREATE TABLE identity_policies (
  owner_arn TEXT NOT NULL REFERENCES identities(arn) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  document  TEXT NOT NULL,
  PRIMARY KEY (owner_arn, name)
);
CREATE TABLE table_buckets (
  arn              TEXT PRIMARY KEY,
  table_bucket_id  TEXT NOT NULL UNIQUE,
  owner_account_id TEXT NOT NULL,
  region           TEXT NOT NULL,
  name             TEXT NOT NULL,
  created_at_ms    INTEGER NOT NULL,
  sse_algorithm    TEXT NOT NULL,
  kms_key_arn      TEXT,
  policy           TEXT
);
CREATE INDEX table_buckets_by_owner ON table_buckets(owner_account_id, name);
CREATE TABLE bucket_maintenance (
  bucket_arn TEXT NOT NULL REFERENCES table_buckets(arn) ON DELETE CASCADE,
  type       TEXT NOT NULL,
  value      TEXT NOT NULL,
  PRIMARY KEY (bucket_arn, type)
);
CREATE TABLE namespaces (
  bucket_arn       TEXT NOT NULL REFERENCES table_buckets(arn),
  name             TEXT NOT NULL,
  namespace_id     TEXT NOT NULL UNIQUE,
  created_at_ms    INTEGER NOT NULL,
  created_by       TEXT NOT NULL,
  owner_account_id TEXT NOT NULL,
  PRIMARY KEY (bucket_arn, name)
);
CREATE TABLE tables (
  table_id           TEXT PRIMARY KEY,
  arn                TEXT NOT NULL UNIQUE,
  bucket_arn         TEXT NOT NULL,
  namespace_name     TEXT NOT NULL,
  name               TEXT NOT NULL,
  type               TEXT NOT NULL,
  format             TEXT NOT NULL,
  metadata_location  TEXT,
  version_token      TEXT NOT NULL,
  warehouse_location TEXT NOT NULL UNIQUE,
  created_at_ms      INTEGER NOT NULL,
  created_by         TEXT NOT NULL,
  modified_at_ms     INTEGER NOT NULL,
  modified_by        TEXT NOT NULL,
  owner_account_id   TEXT NOT NULL,
  managed_by_channel TEXT,
  sse_algorithm      TEXT NOT NULL,
  kms_key_arn        TEXT,
  policy             TEXT,
  record_expiration  TEXT,
  UNIQUE (bucket_arn, namespace_name, name),
  FOREIGN KEY (bucket_arn, namespace_name) REFERENCES namespaces(bucket_arn, name)
);
CREATE TABLE table_maintenance (
  table_id TEXT NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  type     TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (table_id, type)
);
CREATE TABLE tags (
  resource_arn TEXT NOT NULL,
  key          TEXT NOT NULL,
  value        TEXT NOT NULL,
  PRIMARY KEY (resource_arn, key)
);
CREATE TABLE channel_offset_starts (
  channel_arn          TEXT PRIMARY KEY,
  default_start_offset INTEGER NOT NULL,
  created_at_ms        INTEGER NOT NULL
);
CREATE TABLE channel_offsets (
  channel_arn     TEXT NOT NULL REFERENCES channel_offset_starts(channel_arn) ON DELETE CASCADE,
  kafka_partition INTEGER NOT NULL,
  table_id        TEXT,
  next_offset     INTEGER NOT NULL,
  PRIMARY KEY (channel_arn, kafka_partition)
);
)sql"},
      {2, R"sql(
CREATE TABLE general_purpose_buckets (
  name             TEXT PRIMARY KEY,
  owner_account_id TEXT NOT NULL,
  region           TEXT NOT NULL,
  created_at_ms    INTEGER NOT NULL
);
CREATE INDEX general_purpose_buckets_by_owner ON general_purpose_buckets(owner_account_id, name);
CREATE TABLE kafka_clusters (
  arn               TEXT PRIMARY KEY,
  name              TEXT NOT NULL,
  cluster_uuid      TEXT NOT NULL,
  owner_account_id  TEXT NOT NULL,
  region            TEXT NOT NULL,
  bootstrap_servers TEXT NOT NULL,
  client_properties TEXT NOT NULL,
  created_at_ms     INTEGER NOT NULL,
  UNIQUE (owner_account_id, name)
);
CREATE TABLE channels (
  arn                   TEXT PRIMARY KEY,
  channel_id            TEXT NOT NULL UNIQUE,
  name                  TEXT NOT NULL,
  cluster_arn           TEXT NOT NULL REFERENCES kafka_clusters(arn),
  owner_account_id      TEXT NOT NULL,
  topic_name            TEXT NOT NULL,
  status                TEXT NOT NULL,
  state_code            TEXT,
  state_message         TEXT,
  cluster_operation_arn TEXT,
  configuration_json    TEXT NOT NULL,
  paused                INTEGER NOT NULL,
  table_id              TEXT,
  generation            INTEGER NOT NULL,
  created_at_ms         INTEGER NOT NULL,
  updated_at_ms         INTEGER NOT NULL,
  UNIQUE (cluster_arn, name)
);
)sql"},
  };
  return kMigrations;
}

// 0 for a new database (no schema_migrations table yet).
Result<int64_t> CurrentVersion(Database& db) {
  ST_ASSIGN_OR_RETURN(Statement exists,
                      db.Prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                                 "name = 'schema_migrations'"));
  ST_ASSIGN_OR_RETURN(bool row, exists.Step());
  if (!row || exists.Int64(0) == 0) return 0;
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db.Prepare("SELECT coalesce(max(version), 0) FROM schema_migrations"));
  ST_ASSIGN_OR_RETURN(row, stmt.Step());
  return row ? stmt.Int64(0) : 0;
}

Status TooNew(int64_t version) {
  return FailedPrecondition("the catalog database schema is version " + std::to_string(version) +
                            " but this binary knows only up to " +
                            std::to_string(LatestSchemaVersion()) + "; run a newer streamtables");
}

}  // namespace

int LatestSchemaVersion() { return Migrations().back().version; }

Status MigrateSchema(Database& db, int64_t now_ms) {
  // An up-to-date database needs no write lock, so opening never waits for a busy writer.
  ST_ASSIGN_OR_RETURN(int64_t current, CurrentVersion(db));
  if (current > LatestSchemaVersion()) return TooNew(current);
  if (current == LatestSchemaVersion()) return Status::OK();
  for (const Migration& migration : Migrations()) {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    Transaction txn(db);
    ST_TRY(txn.status());
    ST_TRY(
        db.Exec("CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, applied_at_ms INTEGER NOT NULL)"));
    ST_ASSIGN_OR_RETURN(current, CurrentVersion(db));
    if (current > LatestSchemaVersion()) return TooNew(current);
    if (current >= migration.version) continue;
    ST_TRY(db.Exec(migration.sql));
    ST_ASSIGN_OR_RETURN(
        Statement record,
        db.Prepare("INSERT INTO schema_migrations(version, applied_at_ms) VALUES (?, ?)"));
    ST_TRY(record.Bind(1, static_cast<int64_t>(migration.version)).Bind(2, now_ms).Run());
    ST_TRY(txn.Commit());
  }
  return Status::OK();
}

}  // namespace st::catalog::sqlite
