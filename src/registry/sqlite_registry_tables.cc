#include "registry/sqlite_registry_tables_internal.h"

namespace st::registry::internal {

namespace {

constexpr std::string_view kCreateTables = R"sql(
CREATE TABLE IF NOT EXISTS registry_registries (
  account_id TEXT NOT NULL,
  registry_name TEXT NOT NULL,
  description TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, registry_name));
CREATE TABLE IF NOT EXISTS registry_schemas (
  account_id TEXT NOT NULL,
  registry_name TEXT NOT NULL,
  schema_name TEXT NOT NULL,
  data_format TEXT NOT NULL,
  compatibility TEXT NOT NULL,
  description TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, registry_name, schema_name));
CREATE TABLE IF NOT EXISTS registry_schema_versions (
  schema_version_id TEXT NOT NULL PRIMARY KEY,
  account_id TEXT NOT NULL,
  registry_name TEXT NOT NULL,
  schema_name TEXT NOT NULL,
  version_number INTEGER NOT NULL,
  definition TEXT NOT NULL,
  definition_key TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  UNIQUE (account_id, registry_name, schema_name, version_number));
CREATE INDEX IF NOT EXISTS registry_schema_versions_by_key
  ON registry_schema_versions (account_id, registry_name, schema_name, definition_key);
)sql";

}  // namespace

Status CreateRegistryTables(sql::Connection& db) {
  return db.Exec(db.dialect().Schema(kCreateTables));
}

}  // namespace st::registry::internal
