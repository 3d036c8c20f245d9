// The Parquet schema of an Iceberg table's data files (docs/api-contract-notes.md §5.5):
// every element, nested ones included, carries its Iceberg field id; lists are
// 3-level (`list`/`element`), maps `key_value`/`key`/`value`; decimals are
// INT32 (P<=9), INT64 (P<=18) or FIXED(minimal bytes); uuid is FIXED(16)+UUID;
// timestamp/timestamptz are INT64 TIMESTAMP(MICROS, isAdjustedToUTC=false/true);
// time is INT64 TIME(MICROS); date INT32 DATE; string BYTE_ARRAY STRING.
#pragma once

#include "common/status.h"
#include "iceberg/schema.h"
#include "parquet/schema.h"

namespace st::iceberg {

// Leaf columns come out in depth-first schema order, so the i-th Parquet
// column maps to the i-th primitive field of a depth-first walk. Errors:
// whatever parquet::Schema::Make reports (InvalidArgument), which a schema
// that passed Schema::Make does not trigger.
Result<parquet::Schema> ToParquetSchema(const Schema& schema);

}  // namespace st::iceberg
