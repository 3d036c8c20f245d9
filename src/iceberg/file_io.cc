#include "iceberg/file_io.h"

#include <utility>

namespace st::iceberg {

namespace {
std::string AsDirectory(std::string prefix, bool allow_empty) {
  if (prefix.empty() && allow_empty) return prefix;
  if (prefix.empty() || prefix.back() != '/') prefix.push_back('/');
  return prefix;
}
}  // namespace

FileIO::FileIO(storage::ObjectStore& store, std::string uri_prefix, std::string key_prefix)
    : store_(store),
      uri_prefix_(AsDirectory(std::move(uri_prefix), /*allow_empty=*/false)),
      key_prefix_(AsDirectory(std::move(key_prefix), /*allow_empty=*/true)) {}

Result<std::string> FileIO::KeyFor(std::string_view uri) const {
  if (uri.substr(0, uri_prefix_.size()) != uri_prefix_) {
    return Err(InvalidArgument("file '" + std::string(uri) + "' is outside this FileIO's root '" +
                               uri_prefix_ + "'; table files must live under the table location"));
  }
  std::string key = key_prefix_ + std::string(uri.substr(uri_prefix_.size()));
  Status valid = storage::ValidateObjectKey(key);
  if (!valid.ok()) return Err(valid.WithContext("file '" + std::string(uri) + "'"));
  return key;
}

Result<std::string> FileIO::UriFor(std::string_view key) const {
  if (key.substr(0, key_prefix_.size()) != key_prefix_) {
    return Err(InvalidArgument("object key '" + std::string(key) + "' is outside key prefix '" +
                               key_prefix_ + "'"));
  }
  return uri_prefix_ + std::string(key.substr(key_prefix_.size()));
}

Result<std::string> FileIO::Read(std::string_view uri) {
  ST_ASSIGN_OR_RETURN(std::string key, KeyFor(uri));
  return store_.Get(key);
}

Status FileIO::Write(std::string_view uri, std::string_view bytes) {
  ST_ASSIGN_OR_RETURN(std::string key, KeyFor(uri));
  return store_.Put(key, bytes);
}

Status FileIO::WriteIfAbsent(std::string_view uri, std::string_view bytes) {
  ST_ASSIGN_OR_RETURN(std::string key, KeyFor(uri));
  return store_.PutIfAbsent(key, bytes);
}

Status FileIO::Delete(std::string_view uri) {
  ST_ASSIGN_OR_RETURN(std::string key, KeyFor(uri));
  return store_.Delete(key);
}

Result<bool> FileIO::Exists(std::string_view uri) {
  ST_ASSIGN_OR_RETURN(std::string key, KeyFor(uri));
  auto info = store_.Head(key);
  if (info.has_value()) return true;
  if (info.error().code() == StatusCode::kNotFound) return false;
  return Err(info.error());
}

Result<std::unique_ptr<storage::ObjectWriter>> FileIO::NewWriter(std::string_view uri) {
  ST_ASSIGN_OR_RETURN(std::string key, KeyFor(uri));
  return store_.NewWriter(key);
}

}  // namespace st::iceberg
