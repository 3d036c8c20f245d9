// What every S3 handler shares: the injected dependencies and the mapping of
// a request onto a bucket (a table's warehouse bucket or a general-purpose
// bucket) and an object-store key.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "api/s3/s3_surface.h"
#include "catalog/channel_records.h"
#include "catalog/records.h"
#include "http/router.h"

namespace st::api::s3 {

struct S3State {
  catalog::MetadataStore& store;
  storage::ObjectStore& objects;
  std::string key_root;
  Random& random;
  std::string region;            // Of new general-purpose buckets.
  std::string local_object_dir;  // S3Deps::local_object_dir.
  // Null when S3Deps carried no secrets: chunk signatures go unchecked.
  std::unique_ptr<const auth::SigV4Verifier> chunk_verifier;
  const auth::Authorizer* authorizer = nullptr;  // S3Deps::authorizer.
};

using SharedState = std::shared_ptr<const S3State>;

// Where a request points: the warehouse bucket and the decoded object key
// ("" for a bucket-level request).
struct ObjectAddress {
  std::string bucket;
  std::string key;
  bool virtual_hosted = false;
};

// The error of `result`, or OK.
template <typename T>
Status StatusOf(const Result<T>& result) {
  return result.has_value() ? Status::OK() : result.error();
}

// Warehouse buckets (`<id>--table-s3`) hold a table's files; every other
// name is a general-purpose bucket (no GP bucket may take that suffix).
bool IsWarehouseBucket(std::string_view bucket);

// Reads the bucket from the Host header (`<bucket>.<host>`: a first label with
// the `--table-s3` suffix, or naming an existing general-purpose bucket) or
// else from the first path segment, and the key from the remaining segments.
// Errors: InvalidArgument for a key that could climb out of the bucket or
// that no object can have: an empty, "." or ".." segment (raw or
// percent-encoded), an encoded '/', a key over 1024 bytes.
Result<ObjectAddress> AddressOf(const S3State& state, const http::Request& request);

// The table whose warehouse location is s3://<bucket>. Errors: NotFound
// shaped as NoSuchBucket (see s3_errors_internal.h), the store's others.
Result<catalog::Table> OwningTable(const S3State& state, const std::string& bucket);

// The general-purpose bucket `bucket`. Errors: NotFound shaped as NoSuchBucket
// (also for warehouse names and stores without GP buckets), the store's others.
Result<catalog::GeneralPurposeBucket> GeneralPurposeBucketOf(const S3State& state,
                                                             const std::string& bucket);
// OK when `bucket` exists (either kind); else NoSuchBucket-shaped NotFound.
Status CheckBucketExists(const S3State& state, const std::string& bucket);
// For handlers that change objects: CheckBucketExists, and for a warehouse
// bucket also WritableTable's streaming-table refusal.
Status CheckBucketWritable(const S3State& state, const ObjectAddress& address,
                           std::string_view operation);

// The object-store key of `key` in `bucket`: the layout of
// catalog::TableFileIO for warehouse buckets, under
// catalog::GeneralPurposeBucketKeyPrefix for general-purpose ones.
std::string StoreKey(const S3State& state, const std::string& bucket, const std::string& key);
// The object-store prefix every key of `bucket` starts with.
std::string BucketRoot(const S3State& state, const std::string& bucket);

// The route handlers, grouped by file.
Result<http::Response> GetObject(const S3State& state, http::RouteContext& context);
Result<http::Response> HeadObject(const S3State& state, http::RouteContext& context);
Result<http::Response> ListObjectsV2(const S3State& state, http::RouteContext& context);
Result<http::Response> PutObject(const S3State& state, http::RouteContext& context);
Result<http::Response> DeleteObject(const S3State& state, http::RouteContext& context);
Result<http::Response> CreateMultipartUpload(const S3State& state, http::RouteContext& context);
Result<http::Response> UploadPart(const S3State& state, http::RouteContext& context);
Result<http::Response> CompleteMultipartUpload(const S3State& state, http::RouteContext& context);
Result<http::Response> AbortMultipartUpload(const S3State& state, http::RouteContext& context);
Result<http::Response> ListParts(const S3State& state, http::RouteContext& context);
// Removes the staged parts of every unfinished upload into `bucket`
// (DeleteBucket of a general-purpose bucket). Best effort.
void DiscardBucketUploads(const S3State& state, const std::string& bucket);
// General-purpose buckets (gp_buckets.cc).
Result<http::Response> CreateBucket(const S3State& state, http::RouteContext& context);
Result<http::Response> DeleteBucket(const S3State& state, http::RouteContext& context);
Result<http::Response> ListBuckets(const S3State& state, http::RouteContext& context);

// The bytes an upload carries: the body, or its aws-chunked payload (chunk
// signatures checked when the state has a verifier), checked against
// x-amz-decoded-content-length and Content-MD5. Errors: 400 IncompleteBody /
// InvalidArgument / BadDigest, 403 SignatureDoesNotMatch.
tl::expected<std::string, http::HttpError> UploadPayload(const S3State& state,
                                                         const http::Request& request);

// For handlers that change objects: the owning table, or AccessDenied naming
// its channel when it is a streaming table (read-only to every client).
Result<catalog::Table> WritableTable(const S3State& state, const ObjectAddress& address,
                                     std::string_view operation);

}  // namespace st::api::s3
