// FileIO: table files addressed by URI, stored in an ObjectStore.
//
// Iceberg metadata names every file by a full URI ("s3://b--table-s3/data/x",
// or a plain absolute path for local tables). A FileIO maps the URIs under one
// prefix onto object-store keys under another: `uri_prefix + rest` <->
// `key_prefix + rest`. Both prefixes are taken as directories (a missing
// trailing '/' is added, except to an empty key prefix), so "/tmp/wh" never
// matches "/tmp/wh2/x".
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "storage/object_store.h"

namespace st::iceberg {

// Thread-safe when the store is (ObjectStore implementations are).
class FileIO {
 public:
  // `store` is not owned and must outlive the FileIO.
  FileIO(storage::ObjectStore& store, std::string uri_prefix, std::string key_prefix);

  // The object key of `uri`. Errors: InvalidArgument when `uri` is not under
  // the URI prefix or the resulting key is not a valid object key.
  Result<std::string> KeyFor(std::string_view uri) const;
  // The URI of object key `key` (the inverse). Errors: InvalidArgument when
  // the key is not under the key prefix.
  Result<std::string> UriFor(std::string_view key) const;

  // Whole file. Errors: InvalidArgument, NotFound, Io.
  Result<std::string> Read(std::string_view uri);
  // Creates or replaces. Errors: InvalidArgument, Io.
  Status Write(std::string_view uri, std::string_view bytes);
  // Never overwrites (metadata files). Errors: AlreadyExists, InvalidArgument, Io.
  Status WriteIfAbsent(std::string_view uri, std::string_view bytes);
  // Idempotent. Errors: InvalidArgument, Io.
  Status Delete(std::string_view uri);
  // Whether the file exists. Errors: InvalidArgument, Io.
  Result<bool> Exists(std::string_view uri);
  // A streaming upload, visible on Commit(). Errors: InvalidArgument, Io.
  Result<std::unique_ptr<storage::ObjectWriter>> NewWriter(std::string_view uri);

  const std::string& uri_prefix() const { return uri_prefix_; }
  const std::string& key_prefix() const { return key_prefix_; }
  storage::ObjectStore& store() { return store_; }

 private:
  storage::ObjectStore& store_;
  std::string uri_prefix_;
  std::string key_prefix_;
};

}  // namespace st::iceberg
