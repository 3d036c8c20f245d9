// CreateTable's `metadata.iceberg` (docs/api-contract-notes.md §1.5) as the initial
// metadata the commit engine writes: `schema` (simple fields, ids assigned
// 1..n where absent) or `schemaV2` (full Iceberg schema JSON), optional
// `partitionSpec`, `writeOrder` and `properties`.
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/table_commits.h"
#include "common/status.h"

namespace st::api::s3tables {

// `metadata` is the TableMetadata union object ({"iceberg": {...}}).
// Errors: InvalidArgument naming the member (unknown union member, both or
// neither schema forms, unknown types, duplicate ids, a partition or sort
// field whose source is not in the schema).
Result<catalog::InitialMetadata> ParseInitialMetadata(const nlohmann::json& metadata);

}  // namespace st::api::s3tables
