// Access resolvers of the route table: for each operation, the resource ARN
// the router authorizes (the bucket ARN, or the table ARN, whose last segment
// is the table id and so needs a lookup) and the condition keys
// s3tables:namespace and s3tables:tableName (docs/api-contract-notes.md §1.6). A
// malformed ARN or name is answered 400 and a missing table 404 before
// authorization.
#pragma once

#include <memory>

#include "api/s3tables/s3tables_surface.h"
#include "http/router.h"

namespace st::api::s3tables {

using DepsPtr = std::shared_ptr<const S3TablesDeps>;

// Resource "*" (CreateTableBucket, ListTableBuckets).
http::AccessResolver AccountAccess();
// The {tableBucketARN} label.
http::AccessResolver BucketAccess();
// Bucket, plus s3tables:namespace from the {namespace} label.
http::AccessResolver NamespaceAccess();
// CreateNamespace: bucket, plus s3tables:namespace from the body.
http::AccessResolver CreateNamespaceAccess();
// CreateTable: bucket, s3tables:namespace from the label, s3tables:tableName
// from the body.
http::AccessResolver CreateTableAccess();
// ListTables: bucket, plus s3tables:namespace from ?namespace when given.
http::AccessResolver ListTablesAccess();
// {tableBucketARN}/{namespace}/{name}: the table's ARN and both keys.
http::AccessResolver TableAccess(DepsPtr deps);
// GetTable: ?tableArn, or ?tableBucketARN&namespace&name.
http::AccessResolver GetTableAccess(DepsPtr deps);
// ?tableArn (record expiration).
http::AccessResolver TableArnQueryAccess(DepsPtr deps);
// {resourceArn}: a bucket or table ARN (tags).
http::AccessResolver TaggedResourceAccess(DepsPtr deps);

}  // namespace st::api::s3tables
