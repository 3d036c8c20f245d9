#include "iceberg/table_commit.h"

#include <algorithm>
#include <utility>

#include "common/uuid.h"
#include "iceberg/snapshot_producer_internal.h"
#include "iceberg/table_paths.h"

namespace st::iceberg {

namespace {

Result<MetadataVersion> WriteVersion(FileIO& io, TableMetadata metadata, int64_t version,
                                     Random& random) {
  Status valid = metadata.Validate();
  if (!valid.ok()) {
    return Err(InvalidArgument("refusing to write invalid metadata for " + metadata.location +
                               ": " + valid.message()));
  }
  MetadataVersion out;
  out.location = MetadataFilePath(metadata, version, Uuid::Generate(random).ToString());
  ST_TRY(io.WriteIfAbsent(out.location, SerializeTableMetadata(metadata)));
  out.metadata = std::move(metadata);
  return out;
}

}  // namespace

Result<MetadataVersion> WriteInitialMetadata(FileIO& io, TableMetadata metadata, Random& random) {
  return WriteVersion(io, std::move(metadata), 0, random);
}

Result<NewVersion> WriteNextMetadata(FileIO& io, const MetadataVersion& base, TableMetadata next,
                                     Random& random) {
  int64_t base_version = MetadataFileVersion(base.location);
  if (base_version < 0) base_version = static_cast<int64_t>(base.metadata.metadata_log.size());
  NewVersion out;
  next.metadata_log.push_back({base.location, base.metadata.last_updated_ms});
  int64_t max_entries =
      std::max<int64_t>(1, internal::IntProperty(next, kMetadataPreviousVersionsMax,
                                                 kMetadataPreviousVersionsMaxDefault));
  auto& log = next.metadata_log;
  if (static_cast<int64_t>(log.size()) > max_entries) {
    size_t drop = log.size() - static_cast<size_t>(max_entries);
    for (size_t i = 0; i < drop; ++i) out.dropped_from_log.push_back(log[i].metadata_file);
    log.erase(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(drop));
  }
  ST_ASSIGN_OR_RETURN(out.version, WriteVersion(io, std::move(next), base_version + 1, random));
  return out;
}

Result<MetadataVersion> ReadMetadata(FileIO& io, const std::string& location) {
  ST_ASSIGN_OR_RETURN(std::string json, io.Read(location));
  auto metadata = ParseTableMetadata(json);
  if (!metadata.has_value()) return Err(metadata.error().WithContext(location));
  return MetadataVersion{location, *std::move(metadata)};
}

}  // namespace st::iceberg
