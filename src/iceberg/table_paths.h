// Where a table's files go (Java conventions; docs/api-contract-notes.md §5.3, §5.4).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

// Table property "write.metadata.path" if set, else "<location>/metadata"
// (no trailing '/').
std::string MetadataDirectory(const TableMetadata& metadata);
// Table property "write.data.path" if set, else "<location>/data".
std::string DataDirectory(const TableMetadata& metadata);

// "<metadata dir>/snap-<snapshot id>-<attempt>-<uuid>.avro".
std::string ManifestListPath(const TableMetadata& metadata, int64_t snapshot_id, int attempt,
                             const std::string& uuid);
// "<metadata dir>/<uuid>-m<n>.avro".
std::string ManifestPath(const TableMetadata& metadata, const std::string& uuid, int n);
// "<metadata dir>/<version padded to 5 digits>-<uuid>.metadata.json".
std::string MetadataFilePath(const TableMetadata& metadata, int64_t version,
                             const std::string& uuid);
// The one check for a location a client names (a metadata file, a
// write.*.path table property): OK when `location` lies strictly under the
// directory `root` ("s3://b--table-s3", with or without a trailing '/') and
// its path below `root` is plain: no empty, "." or ".." segment, no
// backslash or control character, and no percent-encoded '.', '/', '\',
// '%' or control character (%2e %2f %5c %25 %00-%1f, any case), so no client
// that decodes or normalizes the path can read it as anything but a place
// under `root`. A string-prefix test alone would let "s3://b/../other/x" by.
// Error: InvalidArgument "<what> '<location>' is not valid: ...".
Status CheckLocationUnder(std::string_view location, std::string_view root, std::string_view what);
// The table properties that name a location (write.metadata.path,
// write.data.path, write.object-storage.path, write.folder-storage.path):
// each set one must pass CheckLocationUnder(value, root). Error:
// InvalidArgument naming the property.
Status CheckLocationProperties(const std::map<std::string, std::string>& properties,
                               std::string_view root);

// The version number a metadata file name starts with ("00012-..." → 12), or
// -1 when the name does not follow the convention.
int64_t MetadataFileVersion(const std::string& metadata_location);

}  // namespace st::iceberg
