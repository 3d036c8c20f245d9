// The Avro header key-values of manifests (docs/api-contract-notes.md §5.4) and
// manifest lists (§5.3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"

namespace st::iceberg::internal {

using AvroMetadata = std::vector<std::pair<std::string, std::string>>;

// schema (table schema JSON), schema-id, partition-spec (the fields array
// only), partition-spec-id, format-version "2", content "data"/"deletes".
Result<AvroMetadata> ManifestMetadata(const Schema& schema, const PartitionSpec& spec,
                                      ManifestContent content);

// snapshot-id, parent-snapshot-id ("null" when none, as pyiceberg writes),
// sequence-number, format-version "2".
AvroMetadata ManifestListMetadata(int64_t snapshot_id, std::optional<int64_t> parent_snapshot_id,
                                  int64_t sequence_number);

}  // namespace st::iceberg::internal
