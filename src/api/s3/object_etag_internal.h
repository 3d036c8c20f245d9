// ETags (docs/api-contract-notes.md §4.2): the MD5 of the bytes for a PutObject, the
// MD5 of the part MD5s plus "-N" for a multipart upload, as S3 computes them.
// They are remembered in a small record beside the object
// (<key_root>s3-object-etags/<bucket>/<key>: size, mtime, etag) and trusted
// only while the object still has that size and mtime. Objects written by
// other paths (the catalog, delivery) get a stable synthetic ETag derived
// from key, size and mtime instead of a hash of the bytes, so a HEAD never
// reads a 256 MB file; S3 does the same for SSE-KMS and multipart objects.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "storage/object_store.h"

namespace st::api::s3 {

// Incremental MD5 (OpenSSL). Not thread-safe.
class Md5 {
 public:
  Md5();
  ~Md5();
  Md5(const Md5&) = delete;
  Md5& operator=(const Md5&) = delete;
  void Update(std::string_view bytes);
  // Raw 16 bytes; the object is spent afterwards.
  std::string Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::string Md5Raw(std::string_view bytes);
std::string HexLower(std::string_view bytes);

// The quoted ETag of `info` (an object of the store); never fails: a missing
// or stale record gives the synthetic ETag.
std::string EtagOf(storage::ObjectStore& objects, const std::string& key_root,
                   const std::string& bucket_relative_key, const storage::ObjectInfo& info);
// Records `etag` (unquoted) for the object now at `store_key`. Best effort: a
// failure only means readers see the synthetic ETag.
void RecordEtag(storage::ObjectStore& objects, const std::string& key_root,
                const std::string& bucket_relative_key, const std::string& store_key,
                const std::string& etag);
void ForgetEtag(storage::ObjectStore& objects, const std::string& key_root,
                const std::string& bucket_relative_key);
// Drops every ETag record of `bucket` (a general-purpose bucket being
// deleted), best effort, so a later bucket of the same name starts clean.
void ForgetBucketEtags(storage::ObjectStore& objects, const std::string& key_root,
                       const std::string& bucket);

}  // namespace st::api::s3
