// Opening the store on a PostgreSQL database.
#include "catalog/postgres_metadata_store.h"

#include "catalog/sql_metadata_store_internal.h"
#include "postgres/connection.h"

namespace st::catalog {

Result<std::unique_ptr<MetadataStore>> OpenPostgresMetadataStore(
    const PostgresStoreOptions& options, const Clock& clock, Random& random) {
  if (options.url.empty()) return Err(InvalidArgument("no PostgreSQL URL given for the catalog"));
  ST_ASSIGN_OR_RETURN(std::unique_ptr<::st::postgres::Connection> db,
                      ::st::postgres::Connection::Open({options.url, "catalog database"}));
  return sqlstore::OpenOnConnection(std::move(db), ::st::postgres::RedactedUrl(options.url),
                                    options.secret_sealer, clock, random);
}

}  // namespace st::catalog
