// The handlers of the S3 Tables control plane, one per operation
// (docs/api-contract-notes.md §1.3–§1.5), and what they share: reading the path's
// bucket/namespace/table, the caller's account. Authorization has already
// happened when a handler runs (access_internal.h computes what the router
// checks).
#pragma once

#include <string>

#include "api/s3tables/s3tables_surface.h"
#include "catalog/records.h"
#include "common/status.h"
#include "http/router.h"

namespace st::api::s3tables {

using Ctx = http::RouteContext;
using Reply = Result<http::Response>;

// The account the caller acts for: the principal's, else the deps' default.
std::string CallerAccount(const S3TablesDeps& deps, const Ctx& context);

// The bucket named by the {tableBucketARN} label. Errors: InvalidArgument
// (not a bucket ARN), NotFound.
Result<catalog::TableBucket> BucketFromPath(const S3TablesDeps& deps, const Ctx& context);
// The table named by {tableBucketARN}/{namespace}/{name}. Errors:
// InvalidArgument (bad ARN or names), NotFound.
Result<catalog::Table> TableFromPath(const S3TablesDeps& deps, const Ctx& context);
// The table named by the `tableArn` query parameter. Errors: InvalidArgument,
// NotFound.
Result<catalog::Table> TableFromArnQuery(const S3TablesDeps& deps, const Ctx& context);

// Buckets (bucket_operations.cc).
Reply CreateTableBucket(const S3TablesDeps& deps, Ctx& context);
Reply GetTableBucket(const S3TablesDeps& deps, Ctx& context);
Reply ListTableBuckets(const S3TablesDeps& deps, Ctx& context);
Reply DeleteTableBucket(const S3TablesDeps& deps, Ctx& context);

// Namespaces (namespace_operations.cc).
Reply CreateNamespace(const S3TablesDeps& deps, Ctx& context);
Reply GetNamespace(const S3TablesDeps& deps, Ctx& context);
Reply ListNamespaces(const S3TablesDeps& deps, Ctx& context);
Reply DeleteNamespace(const S3TablesDeps& deps, Ctx& context);

// Tables (table_operations.cc).
Reply CreateTable(const S3TablesDeps& deps, Ctx& context);
Reply GetTable(const S3TablesDeps& deps, Ctx& context);
Reply ListTables(const S3TablesDeps& deps, Ctx& context);
Reply DeleteTable(const S3TablesDeps& deps, Ctx& context);
Reply RenameTable(const S3TablesDeps& deps, Ctx& context);
Reply GetTableMetadataLocation(const S3TablesDeps& deps, Ctx& context);
Reply UpdateTableMetadataLocation(const S3TablesDeps& deps, Ctx& context);

// Resource policies (policy_operations.cc).
Reply PutTableBucketPolicy(const S3TablesDeps& deps, Ctx& context);
Reply GetTableBucketPolicy(const S3TablesDeps& deps, Ctx& context);
Reply DeleteTableBucketPolicy(const S3TablesDeps& deps, Ctx& context);
Reply PutTablePolicy(const S3TablesDeps& deps, Ctx& context);
Reply GetTablePolicy(const S3TablesDeps& deps, Ctx& context);
Reply DeleteTablePolicy(const S3TablesDeps& deps, Ctx& context);

// Maintenance (maintenance_operations.cc).
Reply GetTableBucketMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context);
Reply PutTableBucketMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context);
Reply GetTableMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context);
Reply PutTableMaintenanceConfiguration(const S3TablesDeps& deps, Ctx& context);
Reply GetTableMaintenanceJobStatus(const S3TablesDeps& deps, Ctx& context);

// Record expiration (record_expiration_operations.cc).
Reply GetTableRecordExpirationConfiguration(const S3TablesDeps& deps, Ctx& context);
Reply PutTableRecordExpirationConfiguration(const S3TablesDeps& deps, Ctx& context);
Reply GetTableRecordExpirationJobStatus(const S3TablesDeps& deps, Ctx& context);

// Encryption (encryption_operations.cc).
Reply GetTableBucketEncryption(const S3TablesDeps& deps, Ctx& context);
Reply PutTableBucketEncryption(const S3TablesDeps& deps, Ctx& context);
Reply DeleteTableBucketEncryption(const S3TablesDeps& deps, Ctx& context);
Reply GetTableEncryption(const S3TablesDeps& deps, Ctx& context);

// Tags (tag_operations.cc).
Reply TagResource(const S3TablesDeps& deps, Ctx& context);
Reply UntagResource(const S3TablesDeps& deps, Ctx& context);
Reply ListTagsForResource(const S3TablesDeps& deps, Ctx& context);

}  // namespace st::api::s3tables
