// An ObjectStore on any S3-compatible server (AWS S3, s3proxy, MinIO, ...),
// path-style, over plain HTTP/1.1, signed with SigV4 (auth/sigv4_signer.h).
//
// Store key K is the object "<prefix>/K" in the bucket. Guarantees against
// the ObjectStore contract:
//   - No partial object is ever visible: Put is one PUT below the multipart
//     threshold; above it, and for NewWriter, a multipart upload that only
//     CompleteMultipartUpload makes visible, aborted on any failure (and when
//     an uncommitted writer is destroyed).
//   - PutIfAbsent is one PUT with `If-None-Match: *` (412 -> AlreadyExists).
//     When it had to be retried after an ambiguous failure and then sees 412,
//     the stored object is read back: equal bytes mean our first attempt
//     landed, so it is OK; otherwise AlreadyExists.
//   - OpenReader snapshots the ETag of the version it opened; every ranged
//     GET carries If-Match, so a replaced object fails the read (Io) instead
//     of mixing versions (the local store keeps serving the old version).
//   - Retries: transport failures and 500/502/503/504/429 (SlowDown), with
//     capped exponential backoff and full jitter. Every S3 step retried is
//     idempotent or resolved as above (a retried CompleteMultipartUpload
//     answered NoSuchUpload is checked with HEAD); a retried
//     CreateMultipartUpload can at worst leave an empty, invisible upload.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "auth/sigv4_signer.h"
#include "common/clock.h"
#include "common/random.h"
#include "s3store/retry.h"
#include "storage/object_store.h"

namespace st::s3store {

// What `--object-store s3://bucket/prefix?endpoint=http://host:port&region=r`
// names.
struct S3Location {
  std::string bucket;
  std::string prefix;  // "" or "a/b" (no leading or trailing '/').
  std::string host;
  std::string port;  // "80" (http) or "443" (https) when the endpoint names none.
  std::string region = "us-east-1";
  // endpoint=https://...: TLS, the store's certificate verified for `host`.
  bool tls = false;
};

// Errors: InvalidArgument naming what is wrong (no bucket, no endpoint or
// one that is neither http:// nor https://, an unknown parameter).
Result<S3Location> ParseS3Url(std::string_view url);

// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) from the
// environment. Errors: InvalidArgument when the first two are not both set.
Result<auth::SigningCredentials> CredentialsFromEnvironment();

struct S3StoreOptions {
  S3Location location;
  auth::SigningCredentials credentials;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds io_timeout{30000};
  size_t max_idle_connections = 16;
  // https: the PEM CAs the store's certificate must chain to (the server
  // takes AWS_CA_BUNDLE, as AWS's SDKs do); empty: the system's trust store.
  std::string ca_file;
  RetryPolicy retry;
  // Objects of at least this many bytes are written as multipart uploads of
  // part_bytes parts (S3 requires >= 5 MiB for every part but the last).
  int64_t multipart_threshold = int64_t{16} << 20;
  int64_t part_bytes = int64_t{8} << 20;
};

// `clock` (signing time), `random` (jitter) and `sleep` must outlive the
// store; a null `sleep` sleeps for real.
Result<std::unique_ptr<storage::ObjectStore>> OpenS3ObjectStore(S3StoreOptions options,
                                                                const Clock& clock, Random& random,
                                                                Sleeper sleep = nullptr);

}  // namespace st::s3store
