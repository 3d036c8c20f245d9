#include "sql/migrations.h"

#include <string>

#include "sql/transaction.h"

namespace st::sql {

namespace {

Status TooNew(const Connection& db, int64_t version, int latest) {
  return FailedPrecondition("the " + db.label() + " schema is version " + std::to_string(version) +
                            " but this binary knows only up to " + std::to_string(latest) +
                            "; run a newer streamtables");
}

}  // namespace

Result<int64_t> SchemaVersion(Connection& db) {
  ST_ASSIGN_OR_RETURN(Statement exists, db.Prepare(db.dialect().TableExistsQuery()));
  ST_ASSIGN_OR_RETURN(bool row, exists.Bind(1, std::string_view("schema_migrations")).Step());
  if (!row || exists.Int64(0) == 0) return 0;
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db.Prepare("SELECT coalesce(max(version), 0) FROM schema_migrations"));
  ST_ASSIGN_OR_RETURN(row, stmt.Step());
  return row ? stmt.Int64(0) : 0;
}

Status Migrate(Connection& db, std::span<const Migration> migrations, int64_t now_ms) {
  const int latest = migrations.empty() ? 0 : migrations.back().version;
  ST_ASSIGN_OR_RETURN(int64_t current, SchemaVersion(db));
  if (current > latest) return TooNew(db, current, latest);
  if (current == latest) return Status::OK();
  for (const Migration& migration : migrations) {
    Transaction txn(db, db.dialect().BeginMigration());
    ST_TRY(txn.status());
    ST_TRY(db.Exec(
        db.dialect().Schema("CREATE TABLE IF NOT EXISTS schema_migrations ("
                            " version INTEGER PRIMARY KEY, applied_at_ms INTEGER NOT NULL)")));
    // Re-read under the write lock: another process may have migrated meanwhile.
    ST_ASSIGN_OR_RETURN(current, SchemaVersion(db));
    if (current > latest) return TooNew(db, current, latest);
    if (current >= migration.version) continue;
    ST_TRY(db.Exec(db.dialect().Schema(migration.sql)));
    ST_ASSIGN_OR_RETURN(
        Statement record,
        db.Prepare("INSERT INTO schema_migrations(version, applied_at_ms) VALUES (?, ?)"));
    ST_TRY(record.Bind(1, static_cast<int64_t>(migration.version)).Bind(2, now_ms).Run());
    ST_TRY(txn.Commit());
  }
  return Status::OK();
}

}  // namespace st::sql
