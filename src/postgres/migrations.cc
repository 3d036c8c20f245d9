#include "postgres/migrations.h"

#include <string>

namespace st::postgres {

namespace {

Status TooNew(const Connection& conn, int64_t version, int latest) {
  return FailedPrecondition("the " + conn.label() + " schema is version " +
                            std::to_string(version) + " but this binary knows only up to " +
                            std::to_string(latest) + "; run a newer streamtables");
}

}  // namespace

Result<int64_t> SchemaVersion(Connection& conn) {
  // to_regclass follows search_path, so a store confined to one schema
  // sees only its own migrations table.
  ST_ASSIGN_OR_RETURN(Statement exists,
                      conn.Prepare("SELECT to_regclass('schema_migrations') IS NOT NULL"));
  ST_ASSIGN_OR_RETURN(bool row, exists.Step());
  if (!row || exists.Text(0) != "t") return 0;
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      conn.Prepare("SELECT coalesce(max(version), 0) FROM schema_migrations"));
  ST_ASSIGN_OR_RETURN(row, stmt.Step());
  return row ? stmt.Int64(0) : 0;
}

Status Migrate(Connection& conn, std::span<const Migration> migrations, int64_t now_ms,
               int64_t lock_key) {
  const int latest = migrations.empty() ? 0 : migrations.back().version;
  ST_ASSIGN_OR_RETURN(int64_t current, SchemaVersion(conn));
  if (current > latest) return TooNew(conn, current, latest);
  if (current == latest) return Status::OK();
  for (const Migration& migration : migrations) {
    Transaction txn(conn, lock_key);
    ST_TRY(txn.status());
    ST_TRY(
        conn.Exec("CREATE TABLE IF NOT EXISTS schema_migrations ("
                  " version BIGINT PRIMARY KEY, applied_at_ms BIGINT NOT NULL)"));
    // Re-read under the lock: another process may have migrated meanwhile.
    ST_ASSIGN_OR_RETURN(current, SchemaVersion(conn));
    if (current > latest) return TooNew(conn, current, latest);
    if (current >= migration.version) continue;
    ST_TRY(conn.Exec(migration.sql));
    ST_ASSIGN_OR_RETURN(
        Statement record,
        conn.Prepare("INSERT INTO schema_migrations(version, applied_at_ms) VALUES (?, ?)"));
    ST_TRY(record.Bind(1, static_cast<int64_t>(migration.version)).Bind(2, now_ms).Run());
    ST_TRY(txn.Commit());
  }
  return Status::OK();
}

}  // namespace st::postgres
