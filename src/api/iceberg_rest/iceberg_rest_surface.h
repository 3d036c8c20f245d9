// The Iceberg REST catalog as S3 Tables serves it (docs/api-contract-notes.md §2, §3):
// mounted at /iceberg on the API endpoint and signed with SigV4 for the
// service `s3tables`. The warehouse is a table bucket ARN and the {prefix}
// path segment is that ARN percent-encoded, as GET /v1/config tells clients.
//
// Every route names the IAM action S3 Tables checks for it (§2.1) and
// computes the resource ARN plus the s3tables:namespace / s3tables:tableName
// condition keys, so the router authorizes before any handler runs. Commits
// go through catalog::TableCommits, the same compare-and-swap as the control
// plane's UpdateTableMetadataLocation; a streaming table refuses them all
// with 403 ForbiddenException naming its channel.
#pragma once

#include <string>

#include "catalog/metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/random.h"
#include "http/router.h"
#include "storage/object_store.h"

namespace st::api::iceberg_rest {

// What the surface needs; every reference must outlive the mounted router
// and be thread-safe (handlers run on several I/O threads).
struct IcebergRestDeps {
  catalog::MetadataStore& store;
  catalog::TableCommits& commits;
  // Where table files live; dropTable purges the table's objects here.
  storage::ObjectStore& objects;
  // The key root the TableCommits engine was built with ("" or "x/").
  std::string object_key_root;
  // Region of the server; sent to clients as client.region / s3.region.
  std::string region;
  // Base URL of the S3 data endpoint ("http://127.0.0.1:9000"), sent as
  // s3.endpoint in the config and in every LoadTableResult.
  std::string s3_endpoint;
  const Clock& clock;
  // Table UUIDs of staged creates.
  Random& random;
};

// The surface "iceberg" at prefix "/iceberg" with the Iceberg REST error
// envelope. Mount it with http::Router::Mount; the router owns nothing of
// `deps` (the referenced objects are shared, the strings copied).
http::Surface MakeIcebergRestSurface(const IcebergRestDeps& deps);

}  // namespace st::api::iceberg_rest
