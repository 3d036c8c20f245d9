// Writing table metadata versions to storage:
// <metadata dir>/<version padded to 5>-<uuid>.metadata.json, never overwritten.
//
// This is "write version N+1 on top of N"; making it current (the
// compare-and-swap of the table's metadata pointer) is the catalog's job.
#pragma once

#include <string>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "iceberg/file_io.h"
#include "iceberg/table_metadata.h"

namespace st::iceberg {

// A metadata file and what it holds.
struct MetadataVersion {
  std::string location;  // Full URI of the *.metadata.json file.
  TableMetadata metadata;
};

// Writes `metadata` as version 0 of a new table. Errors: InvalidArgument when
// metadata.Validate() fails; AlreadyExists (the
// file name collides: retry), InvalidArgument (location outside the FileIO), Io.
Result<MetadataVersion> WriteInitialMetadata(FileIO& io, TableMetadata metadata, Random& random);

struct NewVersion {
  MetadataVersion version;
  // Older metadata files that fell off the metadata-log (beyond
  // write.metadata.previous-versions-max); the caller may delete them after
  // the pointer swap succeeded.
  std::vector<std::string> dropped_from_log;
};

// Writes `next` as the version after `base`: base's file is appended to
// next's metadata-log (with base's last-updated-ms), the log is trimmed to
// write.metadata.previous-versions-max entries (table_update.h
// AddMetadataLogEntry), and the file is named with base's version + 1.
// Errors: AlreadyExists, InvalidArgument (also for a malformed
// previous-versions-max), Io.
Result<NewVersion> WriteNextMetadata(FileIO& io, const MetadataVersion& base, TableMetadata next,
                                     Random& random);

// Reads and parses a metadata file. Errors: NotFound, Io, Corruption.
Result<MetadataVersion> ReadMetadata(FileIO& io, const std::string& location);

}  // namespace st::iceberg
