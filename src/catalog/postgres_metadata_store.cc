// Opening the store on a PostgreSQL database.
#include "catalog/postgres_metadata_store.h"

#include <string>
#include <vector>

#include "catalog/sql_metadata_store_internal.h"
#include "postgres/connection.h"

namespace st::catalog {

Result<std::unique_ptr<MetadataStore>> OpenPostgresMetadataStore(
    const PostgresStoreOptions& options, const Clock& clock, Random& random) {
  if (options.url.empty()) return Err(InvalidArgument("no PostgreSQL URL given for the catalog"));
  if (options.connections < 1 || options.connections > 64) {
    return Err(InvalidArgument("the catalog's PostgreSQL connections must be 1 to 64, not " +
                               std::to_string(options.connections)));
  }
  std::vector<std::unique_ptr<sql::Connection>> dbs;
  for (int i = 0; i < options.connections; ++i) {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<::st::postgres::Connection> db,
                        ::st::postgres::Connection::Open({options.url, "catalog database"}));
    dbs.push_back(std::move(db));
  }
  return sqlstore::OpenOnConnections(std::move(dbs), ::st::postgres::RedactedUrl(options.url),
                                     options.secret_sealer, clock, random);
}

}  // namespace st::catalog
