#include "iceberg/table_commit.h"

#include <utility>

#include "common/uuid.h"
#include "iceberg/table_paths.h"
#include "iceberg/table_update.h"

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
  std::vector<MetadataLogEntry> before = next.metadata_log;
  before.push_back({base.location, base.metadata.last_updated_ms});
  ST_TRY(AddMetadataLogEntry(next, before.back()));
  // Trimming drops from the front, so the dropped files are a prefix.
  size_t dropped = before.size() - next.metadata_log.size();
  for (size_t i = 0; i < dropped; ++i) out.dropped_from_log.push_back(before[i].metadata_file);
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
