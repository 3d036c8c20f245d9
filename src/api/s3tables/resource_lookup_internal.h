// Finding the resource a request names (a bucket ARN label, a
// bucket/namespace/table triple, a table ARN), shared by the access resolvers
// (which run before authorization) and the handlers.
#pragma once

#include <string>

#include "catalog/metadata_store.h"
#include "common/status.h"
#include "http/request_target.h"

namespace st::api::s3tables {

// `arn` must be a table bucket ARN. Errors: InvalidArgument naming `what`
// ("tableBucketARN") and the expected shape.
Status CheckBucketArn(const std::string& arn, const char* what);
// Validates the names, then looks the table up. Errors: InvalidArgument,
// NotFound.
Result<catalog::Table> LookupTable(catalog::MetadataStore& store, const std::string& bucket_arn,
                                   const std::string& namespace_name, const std::string& name);
// Errors: InvalidArgument (not a table ARN), NotFound.
Result<catalog::Table> LookupTableArn(catalog::MetadataStore& store, const std::string& table_arn);
// GetTable's query: ?tableArn, or ?tableBucketARN&namespace&name. Errors:
// InvalidArgument (neither form, or malformed), NotFound.
Result<catalog::Table> LookupTableByQuery(catalog::MetadataStore& store,
                                          const http::QueryParams& query);

}  // namespace st::api::s3tables
