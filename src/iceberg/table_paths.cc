#include "iceberg/table_paths.h"

#include <cstdio>

namespace st::iceberg {

namespace {
std::string Trimmed(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}
std::string PropertyOr(const TableMetadata& metadata, const std::string& key,
                       const std::string& fallback) {
  auto it = metadata.properties.find(key);
  return Trimmed(it != metadata.properties.end() && !it->second.empty() ? it->second : fallback);
}
}  // namespace

std::string MetadataDirectory(const TableMetadata& metadata) {
  return PropertyOr(metadata, "write.metadata.path", Trimmed(metadata.location) + "/metadata");
}

std::string DataDirectory(const TableMetadata& metadata) {
  return PropertyOr(metadata, "write.data.path", Trimmed(metadata.location) + "/data");
}

std::string ManifestListPath(const TableMetadata& metadata, int64_t snapshot_id, int attempt,
                             const std::string& uuid) {
  return MetadataDirectory(metadata) + "/snap-" + std::to_string(snapshot_id) + "-" +
         std::to_string(attempt) + "-" + uuid + ".avro";
}

std::string ManifestPath(const TableMetadata& metadata, const std::string& uuid, int n) {
  return MetadataDirectory(metadata) + "/" + uuid + "-m" + std::to_string(n) + ".avro";
}

std::string MetadataFilePath(const TableMetadata& metadata, int64_t version,
                             const std::string& uuid) {
  char padded[32];
  std::snprintf(padded, sizeof(padded), "%05lld", static_cast<long long>(version));
  return MetadataDirectory(metadata) + "/" + padded + "-" + uuid + ".metadata.json";
}

int64_t MetadataFileVersion(const std::string& metadata_location) {
  size_t slash = metadata_location.rfind('/');
  size_t start = slash == std::string::npos ? 0 : slash + 1;
  size_t dash = metadata_location.find('-', start);
  if (dash == std::string::npos || dash == start || dash - start > 18) return -1;
  int64_t version = 0;
  for (size_t i = start; i < dash; ++i) {
    char c = metadata_location[i];
    if (c < '0' || c > '9') return -1;
    version = version * 10 + (c - '0');
  }
  return version;
}

}  // namespace st::iceberg
