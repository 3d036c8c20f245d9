// Opening the store on an SQLite file.
#include "catalog/sqlite_metadata_store.h"

#include "catalog/sql_metadata_store_internal.h"
#include "catalog/sql_schema_internal.h"
#include "sqlite/database.h"

namespace st::catalog {

Result<std::unique_ptr<MetadataStore>> OpenSqliteMetadataStore(const SqliteStoreOptions& options,
                                                               const Clock& clock, Random& random) {
  if (options.path.empty()) {
    return Err(InvalidArgument("no catalog database path given; set the catalog file path"));
  }
  ::st::sqlite::OpenOptions open;
  open.path = options.path;
  open.label = "catalog database";
  open.busy_timeout = options.busy_timeout;
  open.durable = options.durable_commits;
  ST_ASSIGN_OR_RETURN(std::unique_ptr<::st::sqlite::Database> db,
                      ::st::sqlite::Database::Open(open));
  // One connection: SQLite has one writer at a time anyway, and a second
  // connection to one file buys only reads, which are fast locally.
  std::vector<std::unique_ptr<sql::Connection>> dbs;
  dbs.push_back(std::move(db));
  return sqlstore::OpenOnConnections(std::move(dbs), options.path, options.secret_sealer, clock,
                                     random);
}

int SqliteSchemaVersion() { return sqlstore::LatestSchemaVersion(); }

}  // namespace st::catalog
