// What every S3 handler shares: the injected dependencies and the mapping of
// a request onto a table and an object-store key.
#pragma once

#include <memory>
#include <string>

#include "api/s3/s3_surface.h"
#include "catalog/records.h"
#include "http/router.h"

namespace st::api::s3 {

struct S3State {
  catalog::MetadataStore& store;
  storage::ObjectStore& objects;
  std::string key_root;
  Random& random;
  // Null when S3Deps carried no secrets: chunk signatures go unchecked.
  std::unique_ptr<const auth::SigV4Verifier> chunk_verifier;
};

using SharedState = std::shared_ptr<const S3State>;

// Where a request points: the warehouse bucket and the decoded object key
// ("" for a bucket-level request).
struct ObjectAddress {
  std::string bucket;
  std::string key;
  bool virtual_hosted = false;
};

// Reads the bucket from the Host header (`<bucket>.<host>`, recognised by the
// `--table-s3` suffix of the first label) or else from the first path
// segment, and the key from the remaining segments. Errors: InvalidArgument
// for a key that could climb out of the bucket or that no object can have: an
// empty, "." or ".." segment (raw or percent-encoded), an encoded '/', a key
// over 1024 bytes.
Result<ObjectAddress> AddressOf(const http::Request& request);

// The table whose warehouse location is s3://<bucket>. Errors: NotFound
// shaped as NoSuchBucket (see s3_errors_internal.h), the store's others.
Result<catalog::Table> OwningTable(const S3State& state, const std::string& bucket);

// The object-store key of `key` in `bucket`, the layout of catalog::TableFileIO.
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
