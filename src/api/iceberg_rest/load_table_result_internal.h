// Response bodies that carry table metadata (docs/api-contract-notes.md §3.4, §3.6) and
// the storage settings clients need to reach our S3 data endpoint with no
// S3 configuration of their own (§2.2, §6 item 6).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/iceberg_rest/iceberg_rest_surface.h"
#include "auth/principal.h"
#include "http/request.h"
#include "iceberg/table_metadata.h"

namespace st::api::iceberg_rest {

// s3.endpoint, s3.path-style-access, client.region and s3.region: what
// GET /v1/config sends as defaults.
nlohmann::json EndpointConfig(const IcebergRestDeps& deps);

// EndpointConfig plus the credentials for the S3 endpoint: the access key
// pair the request was signed with, when it belongs to `principal` and is
// active. No vending service exists; the caller already holds this secret,
// and our S3 endpoint verifies SigV4 with exactly these keys (PyIceberg,
// Spark and DuckDB all read s3.access-key-id / s3.secret-access-key here).
nlohmann::json TableConfig(const IcebergRestDeps& deps, const http::Request& request,
                           const auth::Principal& principal);

// LoadTableResult: {"metadata-location", "metadata", "config"}; the
// location is null for a staged create.
std::string LoadTableResultJson(const std::optional<std::string>& metadata_location,
                                const iceberg::TableMetadata& metadata,
                                const nlohmann::json& config);

// CommitTableResponse: {"metadata-location", "metadata"}.
std::string CommitTableResponseJson(const std::string& metadata_location,
                                    const iceberg::TableMetadata& metadata);

}  // namespace st::api::iceberg_rest
