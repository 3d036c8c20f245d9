// The access resolvers of the route table: what resource each Iceberg REST
// call touches and which s3tables condition keys it carries (docs/api-contract-notes.md
// §1.6, §2.1). They run after authentication and before the policy check.
#pragma once

#include <memory>

#include "api/iceberg_rest/iceberg_rest_surface.h"
#include "http/router.h"

namespace st::api::iceberg_rest {

using SharedDeps = std::shared_ptr<const IcebergRestDeps>;

// GET /v1/config: s3tables:GetTableBucket on the bucket named by ?warehouse=
// (required), or s3tables:GetTable / GetTableMetadataLocation on all its
// tables ("<bucket ARN>/table/*").
http::AccessResolver WarehouseAccess();
// Routes under {prefix}: the bucket; with s3tables:namespace when the route
// has a {namespace} capture.
http::AccessResolver BucketAccess();
// Routes under .../tables/{table}: the table's ARN, looked up by name. A
// table that does not exist is "<bucket ARN>/table/*", so a caller allowed
// on the bucket's tables learns it is missing (404) and anyone else gets 403.
http::AccessResolver TableAccess(SharedDeps deps);
// POST /v1/{prefix}/tables/rename: the source table named in the body.
http::AccessResolver RenameAccess(SharedDeps deps);

}  // namespace st::api::iceberg_rest
