// JSON forms of the Iceberg model objects, as table metadata files and the
// REST catalog spell them (spec Appendix C). Parsers are strict: a missing
// required key or a value of the wrong JSON type is an error naming the key.
// All parse errors are InvalidArgument (request input); ParseTableMetadata
// re-codes them as Corruption. Stateless and thread-safe.
//
// Callers include <nlohmann/json.hpp> themselves to use the values.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "common/status.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/snapshot.h"
#include "iceberg/sort_order.h"
#include "iceberg/types.h"

namespace st::iceberg {

// A type: primitives as their type string, nested types as objects
// ({"type":"struct","fields":[...]}, {"type":"list","element-id",...},
// {"type":"map","key-id",...}). Unknown type strings are InvalidArgument
// naming the string.
nlohmann::json TypeToJson(const Type& type);
Result<TypePtr> TypeFromJson(const nlohmann::json& json);

// {"type":"struct","schema-id":N,"identifier-field-ids":[...],"fields":[...]}.
// "schema-id" and "identifier-field-ids" may be absent (0 and empty).
// Duplicate field ids are InvalidArgument (Schema::Make).
nlohmann::json SchemaToJson(const Schema& schema);
Result<Schema> SchemaFromJson(const nlohmann::json& json);

// {"spec-id":N,"fields":[{"source-id","field-id","name","transform"}]}.
// Not validated against a schema (the result is MakeUnchecked). "spec-id"
// absent reads as 0; a field without "field-id" reads as field id 0
// ("unassigned": REST add-spec may omit it; table_update assigns it).
nlohmann::json PartitionSpecToJson(const PartitionSpec& spec);
Result<PartitionSpec> PartitionSpecFromJson(const nlohmann::json& json);
// Just the fields array (v1 metadata's "partition-spec").
nlohmann::json PartitionFieldsToJson(const std::vector<PartitionField>& fields);
Result<std::vector<PartitionField>> PartitionFieldsFromJson(const nlohmann::json& json);

// {"order-id":N,"fields":[{"transform","source-id","direction":"asc|desc",
// "null-order":"nulls-first|nulls-last"}]}.
nlohmann::json SortOrderToJson(const SortOrder& order);
Result<SortOrder> SortOrderFromJson(const nlohmann::json& json);

// A snapshot. Format v2 requires "sequence-number", "manifest-list" and
// "summary" with "operation"; v1 reads a missing sequence number as 0 and a
// missing summary as empty. A v1 snapshot with an inline "manifests" list
// instead of "manifest-list" is Unsupported. Summary values must be strings.
nlohmann::json SnapshotToJson(const Snapshot& snapshot);
Result<Snapshot> SnapshotFromJson(const nlohmann::json& json, int format_version = 2);

// {"snapshot-id","type":"branch|tag","min-snapshots-to-keep"?,
//  "max-snapshot-age-ms"?,"max-ref-age-ms"?}.
nlohmann::json SnapshotRefToJson(const SnapshotRef& ref);
Result<SnapshotRef> SnapshotRefFromJson(const nlohmann::json& json);

}  // namespace st::iceberg
