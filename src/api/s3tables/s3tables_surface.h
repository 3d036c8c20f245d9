// The S3 Tables control plane (docs/api-contract-notes.md §1): the route table that
// boto3's `s3tables` client and `aws s3tables` speak to, mounted at the API
// endpoint's root. Every route names its one IAM action (§1.6) and computes
// the resource ARN and the s3tables:namespace / s3tables:tableName condition
// keys, so the router authorizes before any handler runs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "catalog/metadata_store.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "http/router.h"
#include "storage/object_store.h"

namespace st::api::s3tables {

// What the surface needs; every reference must outlive the mounted router.
// All of them must be thread-safe (handlers run on several I/O threads).
struct S3TablesDeps {
  catalog::MetadataStore& store;
  catalog::TableCommits& commits;
  // Where table files live; DeleteTable purges the table's objects here.
  storage::ObjectStore& objects;
  // The same key root the TableCommits engine was built with ("" or "x/").
  std::string object_key_root;
  std::string region;
  // The account that owns resources created by callers whose principal
  // carries no account (anonymous test hooks).
  std::string account_id;
  const Clock& clock;
  // The router's authorizer: CreateTable also needs s3tables:PutTableData
  // (with initial metadata), s3tables:PutTableEncryption (with an encryption
  // configuration) and s3tables:TagResource (with tags) on the new table's
  // <bucket ARN>/table/*. Null skips those extra checks (unit tests).
  const auth::Authorizer* authorizer = nullptr;
  // Whether the SSE-KMS key an encryptionConfiguration names can be used:
  // OK when it exists and is Enabled, else an error naming the key (it
  // becomes a 400 BadRequestException). Null skips the check (unit tests).
  std::function<Status(const std::string& key_arn)> check_kms_key;
};

// The surface "s3tables" at prefix "" with the S3 Tables JSON error shape.
// Mount it with http::Router::Mount; the router owns nothing of `deps`.
// `extra_routes` are other owners' routes served at the same root (a router
// mounts one surface per prefix), such as the server's public /health.
http::Surface MakeS3TablesSurface(const S3TablesDeps& deps,
                                  std::vector<http::Route> extra_routes = {});

}  // namespace st::api::s3tables
