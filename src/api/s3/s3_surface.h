// The S3 data endpoint (docs/api-contract-notes.md §4): the object operations Iceberg
// readers and writers use, served on the server's second port under each
// table's warehouse bucket (`<id>--table-s3`, the authority of the table's
// warehouse location), plus general-purpose buckets (CreateBucket,
// HeadBucket, DeleteBucket, ListBuckets and the same object operations) for
// dead-letter queues. Path-style (`/<bucket>/<key>`) and virtual-hosted
// (`Host: <bucket>.<host>`) addressing both work.
//
// Every route authorizes against the owning TABLE's ARN with the
// s3tables:namespace / s3tables:tableName condition keys: reads need
// s3tables:GetTableData, writes s3tables:PutTableData. Writes to a streaming
// table are refused with 403 AccessDenied naming its channel. Object keys map
// onto ObjectStore keys exactly as catalog::TableFileIO maps them
// (`<key_root><bucket>/<key>`), so the endpoint serves the files the catalog
// writes.
//
// General-purpose buckets (catalog::GeneralPurposeBucket, names global) need
// s3:CreateBucket / s3:DeleteBucket / s3:ListBucket on arn:aws:s3:::<bucket>,
// s3:GetObject / s3:PutObject / s3:DeleteObject (and the multipart actions)
// on arn:aws:s3:::<bucket>/<key>, s3:ListAllMyBuckets on "*" for ListBuckets
// (the caller's account's buckets only). Only principals of the bucket's
// owner account get in (these buckets have no bucket policies). Objects live
// at <key_root> + catalog::GeneralPurposeBucketKeyPrefix(bucket) + key.
#pragma once

#include <string>

#include "auth/authorizer.h"
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
  // The region general-purpose buckets are created in (CreateBucket refuses
  // another LocationConstraint; HeadBucket reports it).
  std::string region = "us-east-1";
  // When `objects` is a storage::OpenLocalObjectStore rooted at this
  // directory: GetObject opens the object's file itself (after checking it is
  // the version the store reported) so the HTTP server can sendfile(2) it.
  // "" (default): bodies are read through storage::ObjectReader.
  std::string local_object_dir;
  // When set, reading an SSE-KMS object (GetObject) also needs kms:Decrypt
  // on its key for the caller, with kms:ViaService = s3.<region>.amazonaws.com
  // and the object's encryption context, as S3 asks KMS on the caller's
  // behalf; refused → 403 AccessDenied naming the key.
  const auth::Authorizer* authorizer = nullptr;
};

// The surface "s3" at prefix "" with the S3 XML error shape (NoSuchBucket,
// NoSuchKey, InvalidRange, ...). Mount it with http::Router::Mount; the
// router owns nothing of `deps` (references are shared, strings copied).
http::Surface MakeS3Surface(const S3Deps& deps);

}  // namespace st::api::s3
