#include <string>
#include <vector>

#include "catalog/sql_schema_internal.h"
#include "sql/migrations.h"

namespace st::catalog::sqlstore {

namespace {

using ::st::sql::Migration;

// Append only: a released migration never changes. Times are epoch millis.
// Written once in SQLite's type names; sql::Dialect::Schema() gives the
// PostgreSQL DDL (BIGINT, BYTEA, bytewise TEXT).
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
      {3, R"sql(
CREATE TABLE channel_operations (
  arn              TEXT PRIMARY KEY,
  owner_account_id TEXT NOT NULL,
  cluster_arn      TEXT NOT NULL,
  channel_arn      TEXT NOT NULL,
  operation_type   TEXT NOT NULL,
  state            TEXT NOT NULL,
  start_ms         INTEGER NOT NULL,
  end_ms           INTEGER,
  error_code       TEXT,
  error_message    TEXT
);
CREATE INDEX channel_operations_by_end ON channel_operations(end_ms);
)sql"},
      {4, R"sql(
CREATE TABLE maintenance_jobs (
  table_id           TEXT NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  job                TEXT NOT NULL,
  outcome            TEXT NOT NULL CHECK (outcome IN ('successful', 'failed')),
  last_run_ms        INTEGER NOT NULL,
  failure_message    TEXT NOT NULL,
  deleted_data_files INTEGER NOT NULL,
  deleted_records    INTEGER NOT NULL,
  removed_bytes      INTEGER NOT NULL,
  PRIMARY KEY (table_id, job)
);
)sql"},
      // KMS keys (src/kms): material is stored wrapped under the KMS master
      // key, which is never in this database.
      {5, R"sql(
CREATE TABLE kms_keys (
  key_id               TEXT PRIMARY KEY,
  account_id           TEXT NOT NULL,
  arn                  TEXT NOT NULL UNIQUE,
  description          TEXT NOT NULL,
  state                TEXT NOT NULL CHECK (state IN ('Enabled', 'Disabled', 'PendingDeletion')),
  created_at_ms        INTEGER NOT NULL,
  deletion_at_ms       INTEGER NOT NULL,
  pending_window_days  INTEGER NOT NULL,
  rotation_enabled     INTEGER NOT NULL,
  rotation_period_days INTEGER NOT NULL,
  last_rotation_ms     INTEGER NOT NULL,
  current_version      INTEGER NOT NULL,
  policy               TEXT NOT NULL,
  tags_json            TEXT NOT NULL
);
CREATE INDEX kms_keys_by_account ON kms_keys(account_id, key_id);
CREATE TABLE kms_key_versions (
  key_id           TEXT NOT NULL REFERENCES kms_keys(key_id) ON DELETE CASCADE,
  version          INTEGER NOT NULL,
  wrapped_material BLOB NOT NULL,
  created_at_ms    INTEGER NOT NULL,
  PRIMARY KEY (key_id, version)
);
CREATE TABLE kms_aliases (
  account_id    TEXT NOT NULL,
  alias_name    TEXT NOT NULL,
  key_id        TEXT NOT NULL REFERENCES kms_keys(key_id) ON DELETE CASCADE,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, alias_name)
);
)sql"},
      // Leases (lease_store.h): run-once work among replicas. Released
      // leases keep their row (holder '') so the epoch keeps counting.
      {6, R"sql(
CREATE TABLE leases (
  name          TEXT PRIMARY KEY,
  holder        TEXT NOT NULL,
  epoch         INTEGER NOT NULL,
  expires_at_ms INTEGER NOT NULL
);
)sql"},
  };
  return kMigrations;
}

}  // namespace

int LatestSchemaVersion() { return Migrations().back().version; }

Status MigrateSchema(::st::sql::Connection& db, int64_t now_ms) {
  return ::st::sql::Migrate(db, Migrations(), now_ms);
}

}  // namespace st::catalog::sqlstore
