// The S3 data endpoint (api-contract.md §4): the object operations Iceberg
// readers and writers use, served on the server's second port under each
// table's warehouse bucket (`<id>--table-s3`, the authority of the table's
// warehouse location). Path-style (`/<bucket>/<key>`) and virtual-hosted
// (`Host: <bucket>.<host>`) addressing both work.
//
// Every route authorizes against the owning TABLE's ARN with the
// s3tables:namespace / s3tables:tableName condition keys: reads need
// s3tables:GetTableData, writes s3tables:PutTableData. Writes to a streaming
// table are refused with 403 AccessDenied naming its channel. Object keys map
// onto ObjectStore keys exactly as catalog::TableFileIO maps them
// (`<key_root><bucket>/<key>`), so the endpoint serves the files the catalog
// writes.
#pragma once

#include <string>

#include "auth/sigv4.h"
#include "catalog/metadata_store.h"
#include "common/clock.h"
#include "common/random.h"
#include "http/router.h"
#include "storage/object_store.h"

namespace st::api::s3 {

// What the surface needs; every reference must outlive the mounted router and
// be thread-safe (handlers run on several I/O threads).
struct S3Deps {
  catalog::MetadataStore& store;
  storage::ObjectStore& objects;
  // The key root the catalog's TableCommits engine was built with ("" or
  // ending in '/'). Multipart staging and ETag records live beside the
  // tables under this root, in names no warehouse bucket can take.
  std::string object_key_root;
  Random& random;  // Upload ids.
  // When both are set, aws-chunked uploads signed per chunk
  // (STREAMING-AWS4-HMAC-SHA256-PAYLOAD) have every chunk signature checked
  // against the request's signing key (the router's authenticator has already
  // accepted the seed signature); when null only the framing is checked.
  const auth::SecretLookup* secrets = nullptr;
  const Clock* clock = nullptr;
};

// The surface "s3" at prefix "" with the S3 XML error shape (NoSuchBucket,
// NoSuchKey, InvalidRange, ...). Mount it with http::Router::Mount; the
// router owns nothing of `deps` (references are shared, strings copied).
http::Surface MakeS3Surface(const S3Deps& deps);

}  // namespace st::api::s3
