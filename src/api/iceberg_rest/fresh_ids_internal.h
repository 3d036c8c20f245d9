// Fresh field ids for createTable, as an Iceberg REST server must assign
// them (Java's catalog does so in TableMetadata.newTableMetadata): Iceberg
// Java clients (Spark) send schemas numbered from 0, PyIceberg sends ids it
// already freshened. Works on the request JSON, before the strict parsers
// of iceberg/json_serde.h see it.
#pragma once

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace st::api::iceberg_rest {

// Renumbers every field id of `schema` from 1 in Java's order (a struct's
// fields first, then their nested types; list element; map key then value)
// and rewrites identifier-field-ids and the source-id of every field of
// `spec` and `order` (either may be null) to the new ids. Parts that are not
// shaped as expected are left alone for the parsers to reject. Errors:
// InvalidArgument when a spec or order field names an id the schema uses
// twice (it cannot be mapped).
Status AssignFreshIds(nlohmann::json& schema, nlohmann::json* spec, nlohmann::json* order);

}  // namespace st::api::iceberg_rest
