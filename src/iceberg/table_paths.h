// Where a table's files go (Java conventions; api-contract.md §5.3, §5.4).
#pragma once

#include <cstdint>
#include <string>

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
// The version number a metadata file name starts with ("00012-..." → 12), or
// -1 when the name does not follow the convention.
int64_t MetadataFileVersion(const std::string& metadata_location);

}  // namespace st::iceberg
