// Metadata for a new dev table. Its own translation unit because
// iceberg/table_update.h and iceberg/table_commit.h currently cannot be
// included together (both define kMetadataPreviousVersionsMax).
#pragma once

#include <map>
#include <string>

#include "common/status.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/table_metadata.h"

namespace st::cli::internal {

// Unsorted, format v2, no snapshots. Errors: as iceberg::NewTableMetadata.
Result<iceberg::TableMetadata> NewDevTableMetadata(const iceberg::Schema& schema,
                                                   const iceberg::PartitionSpec& spec,
                                                   std::string location,
                                                   std::map<std::string, std::string> properties,
                                                   std::string table_uuid, int64_t now_ms);

}  // namespace st::cli::internal
