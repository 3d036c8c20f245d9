// Manifest lists: one Avro object container file per snapshot listing its
// manifests as `manifest_file` records (docs/api-contract-notes.md §5.3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/file_io.h"

namespace st::iceberg {

struct ManifestListInfo {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
};

// Encodes a manifest list (deflate) with header keys snapshot-id,
// parent-snapshot-id, sequence-number and format-version. `random` feeds the
// Avro sync marker (nullptr = DefaultRandom::Default()).
// Errors: InvalidArgument for records Avro cannot hold (never for our own).
Result<std::string> EncodeManifestList(const ManifestListInfo& info,
                                       const std::vector<ManifestFile>& manifests,
                                       Random* random = nullptr);
// Encodes and writes to `path` (conventionally
// <metadata dir>/snap-<snapshot id>-<attempt>-<uuid>.avro), never overwriting.
// Errors: AlreadyExists, InvalidArgument, Io.
Status WriteManifestList(FileIO& io, const std::string& path, const ManifestListInfo& info,
                         const std::vector<ManifestFile>& manifests, Random* random = nullptr);

// Parses a manifest list; v1 lists read with zero sequence numbers and
// content data. `what` names the file in errors. Errors: Corruption.
Result<std::vector<ManifestFile>> ParseManifestList(std::string_view bytes,
                                                    const std::string& what);
// Reads and parses `path`. Errors: NotFound, Io, Corruption.
Result<std::vector<ManifestFile>> ReadManifestList(FileIO& io, const std::string& path);

}  // namespace st::iceberg
