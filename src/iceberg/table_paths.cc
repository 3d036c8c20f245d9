#include "iceberg/table_paths.h"

#include <cstdio>
#include <map>

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

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Why `rest` (the path below the root) is not plain, or nullptr.
const char* PathProblem(std::string_view rest) {
  if (rest.empty()) return "it names the root itself, not a file under it";
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find('/', start);
    if (end == std::string_view::npos) end = rest.size();
    std::string_view segment = rest.substr(start, end - start);
    if (segment.empty()) return "it has an empty path segment ('//' or a trailing '/')";
    if (segment == "." || segment == "..") return "it has a '.' or '..' path segment";
    for (size_t i = 0; i < segment.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(segment[i]);
      if (c == '\\') return "it contains a backslash";
      if (c < 0x20 || c == 0x7f) return "it contains a control character";
      if (c == '%' && i + 2 < segment.size() && HexValue(segment[i + 1]) >= 0 &&
          HexValue(segment[i + 2]) >= 0) {
        const int decoded = HexValue(segment[i + 1]) * 16 + HexValue(segment[i + 2]);
        if (decoded == '.' || decoded == '/' || decoded == '\\' || decoded == '%' ||
            decoded < 0x20 || decoded == 0x7f) {
          return "it contains a percent-encoded '.', '/', '\\', '%' or control character";
        }
      }
    }
    start = end + 1;
  }
  return nullptr;
}

constexpr const char* kLocationProperties[] = {"write.metadata.path", "write.data.path",
                                               "write.object-storage.path",
                                               "write.folder-storage.path"};

}  // namespace

Status CheckLocationUnder(std::string_view location, std::string_view root, std::string_view what) {
  while (!root.empty() && root.back() == '/') root.remove_suffix(1);
  const char* problem = nullptr;
  if (location.size() <= root.size() || location.substr(0, root.size()) != root ||
      location[root.size()] != '/') {
    problem = "it is not under the table location";
  } else {
    problem = PathProblem(location.substr(root.size() + 1));
  }
  if (problem == nullptr) return Status::OK();
  return InvalidArgument(std::string(what) + " '" + std::string(location) + "' is not valid: " +
                         problem + "; it must be a plain path under " + std::string(root) + "/");
}

Status CheckLocationProperties(const std::map<std::string, std::string>& properties,
                               std::string_view root) {
  for (const char* name : kLocationProperties) {
    auto it = properties.find(name);
    if (it == properties.end() || it->second.empty()) continue;
    std::string_view directory = it->second;
    while (directory.size() > 1 && directory.back() == '/') directory.remove_suffix(1);
    ST_TRY(CheckLocationUnder(directory, root, std::string("table property ") + name));
  }
  return Status::OK();
}

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
