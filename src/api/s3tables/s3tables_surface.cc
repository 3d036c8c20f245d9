// The route table: one row per operation with its IAM action (§1.6), path
// template (§1.3–§1.5) and access resolver.
#include "api/s3tables/s3tables_surface.h"

#include <memory>

#include "api/s3tables/access_internal.h"
#include "api/s3tables/operations_internal.h"
#include "http/error_shapes.h"

namespace st::api::s3tables {

namespace {

using Operation = Reply (*)(const S3TablesDeps&, Ctx&);

http::RouteHandler Bind(const DepsPtr& deps, Operation operation) {
  return [deps, operation](http::RouteContext& context) { return operation(*deps, context); };
}

}  // namespace

http::Surface MakeS3TablesSurface(const S3TablesDeps& deps_in,
                                  std::vector<http::Route> extra_routes) {
  auto deps = std::make_shared<const S3TablesDeps>(deps_in);
  const std::string kBucket = "/buckets/{tableBucketARN}";
  const std::string kTable = "/tables/{tableBucketARN}/{namespace}/{name}";
  auto route = [&](std::string method, std::string path, std::string operation,
                   http::AccessResolver resolver, Operation handler) {
    std::string action = "s3tables:" + operation;
    return http::Route{std::move(method),
                       std::move(path),
                       {},
                       std::move(operation),
                       http::Requires(std::move(action), std::move(resolver)),
                       Bind(deps, handler)};
  };

  std::vector<http::Route> routes = {
      // Table buckets.
      route("PUT", "/buckets", "CreateTableBucket", AccountAccess(), CreateTableBucket),
      route("GET", "/buckets", "ListTableBuckets", AccountAccess(), ListTableBuckets),
      route("GET", kBucket, "GetTableBucket", BucketAccess(), GetTableBucket),
      route("DELETE", kBucket, "DeleteTableBucket", BucketAccess(), DeleteTableBucket),
      route("PUT", kBucket + "/policy", "PutTableBucketPolicy", BucketAccess(),
            PutTableBucketPolicy),
      route("GET", kBucket + "/policy", "GetTableBucketPolicy", BucketAccess(),
            GetTableBucketPolicy),
      route("DELETE", kBucket + "/policy", "DeleteTableBucketPolicy", BucketAccess(),
            DeleteTableBucketPolicy),
      route("GET", kBucket + "/encryption", "GetTableBucketEncryption", BucketAccess(),
            GetTableBucketEncryption),
      route("PUT", kBucket + "/encryption", "PutTableBucketEncryption", BucketAccess(),
            PutTableBucketEncryption),
      route("DELETE", kBucket + "/encryption", "DeleteTableBucketEncryption", BucketAccess(),
            DeleteTableBucketEncryption),
      route("GET", kBucket + "/maintenance", "GetTableBucketMaintenanceConfiguration",
            BucketAccess(), GetTableBucketMaintenanceConfiguration),
      route("PUT", kBucket + "/maintenance/{type}", "PutTableBucketMaintenanceConfiguration",
            BucketAccess(), PutTableBucketMaintenanceConfiguration),
      // Namespaces.
      route("PUT", "/namespaces/{tableBucketARN}", "CreateNamespace", CreateNamespaceAccess(),
            CreateNamespace),
      route("GET", "/namespaces/{tableBucketARN}", "ListNamespaces", BucketAccess(),
            ListNamespaces),
      route("GET", "/namespaces/{tableBucketARN}/{namespace}", "GetNamespace", NamespaceAccess(),
            GetNamespace),
      route("DELETE", "/namespaces/{tableBucketARN}/{namespace}", "DeleteNamespace",
            NamespaceAccess(), DeleteNamespace),
      // Tables.
      route("PUT", "/tables/{tableBucketARN}/{namespace}", "CreateTable", CreateTableAccess(),
            CreateTable),
      route("GET", "/tables/{tableBucketARN}", "ListTables", ListTablesAccess(), ListTables),
      route("GET", "/get-table", "GetTable", GetTableAccess(deps), GetTable),
      route("DELETE", kTable, "DeleteTable", TableAccess(deps), DeleteTable),
      route("PUT", kTable + "/rename", "RenameTable", TableAccess(deps), RenameTable),
      route("GET", kTable + "/metadata-location", "GetTableMetadataLocation", TableAccess(deps),
            GetTableMetadataLocation),
      route("PUT", kTable + "/metadata-location", "UpdateTableMetadataLocation", TableAccess(deps),
            UpdateTableMetadataLocation),
      route("PUT", kTable + "/policy", "PutTablePolicy", TableAccess(deps), PutTablePolicy),
      route("GET", kTable + "/policy", "GetTablePolicy", TableAccess(deps), GetTablePolicy),
      route("DELETE", kTable + "/policy", "DeleteTablePolicy", TableAccess(deps),
            DeleteTablePolicy),
      route("GET", kTable + "/maintenance", "GetTableMaintenanceConfiguration", TableAccess(deps),
            GetTableMaintenanceConfiguration),
      route("PUT", kTable + "/maintenance/{type}", "PutTableMaintenanceConfiguration",
            TableAccess(deps), PutTableMaintenanceConfiguration),
      route("GET", kTable + "/maintenance-job-status", "GetTableMaintenanceJobStatus",
            TableAccess(deps), GetTableMaintenanceJobStatus),
      route("GET", kTable + "/encryption", "GetTableEncryption", TableAccess(deps),
            GetTableEncryption),
      route("GET", "/table-record-expiration", "GetTableRecordExpirationConfiguration",
            TableArnQueryAccess(deps), GetTableRecordExpirationConfiguration),
      route("PUT", "/table-record-expiration", "PutTableRecordExpirationConfiguration",
            TableArnQueryAccess(deps), PutTableRecordExpirationConfiguration),
      route("GET", "/table-record-expiration-job-status", "GetTableRecordExpirationJobStatus",
            TableArnQueryAccess(deps), GetTableRecordExpirationJobStatus),
      // Tags.
      route("POST", "/tag/{resourceArn}", "TagResource", TaggedResourceAccess(deps), TagResource),
      route("DELETE", "/tag/{resourceArn}", "UntagResource", TaggedResourceAccess(deps),
            UntagResource),
      route("GET", "/tag/{resourceArn}", "ListTagsForResource", TaggedResourceAccess(deps),
            ListTagsForResource),
  };
  for (http::Route& extra : extra_routes) routes.push_back(std::move(extra));
  return http::Surface{"s3tables", "", std::make_shared<http::S3TablesErrorWriter>(),
                       std::move(routes)};
}

}  // namespace st::api::s3tables
