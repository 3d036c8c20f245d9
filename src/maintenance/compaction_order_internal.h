// Row orders of a compaction group held in memory: the table's sort order
// (compaction.h "sort") and the z-order of its source columns.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "iceberg/schema.h"
#include "iceberg/sort_order.h"
#include "parquet/batch_ops.h"
#include "parquet/schema.h"

namespace st::maintenance {

// A group's rows: every output column of every (file, row group) chunk,
// with their row spans. batches[chunk][column] is in the output schema's
// column order (already mapped from the file's columns).
struct GroupChunks {
  std::vector<std::vector<parquet::ColumnBatch>> batches;
  std::vector<std::vector<parquet::RowSpans>> spans;
  std::vector<int64_t> rows;  // Per chunk.
};

// The value of a flat column's row as an st::Value of its Iceberg type
// (types.h mapping; decimals from any physical form), Null when null.
Value ColumnValue(const parquet::ColumnBatch& batch, const parquet::RowSpans& spans, int64_t row,
                  const iceberg::Type& type);

// Orders a and b of the same Iceberg type ascending: numbers numerically
// (NaN above every number), strings and binary by unsigned bytes. Both
// non-null. Returns <0, 0, >0.
int CompareValues(const Value& a, const Value& b);

// An order-preserving 64-bit key of a non-null value (numbers by their
// bits with the sign folded, strings by their first 8 bytes big-endian);
// null is 0.
uint64_t NormalizedKey(const Value& value);

// Every row (RowRef.source = chunk) in the order of `order`'s fields whose
// source is a flat column of `columns`; fields on other columns (inside
// lists or maps, or dropped) are skipped, and with none left the rows keep
// their input order. Stable: equal keys keep their input order. Errors:
// Transform errors.
Result<std::vector<parquet::RowRef>> SortOrderRows(const iceberg::Schema& schema,
                                                   const parquet::Schema& columns,
                                                   const GroupChunks& chunks,
                                                   const iceberg::SortOrder& order);

// Every row by the z-value of the order's (distinct, flat) source columns;
// input order when there are none. Errors: none today (Result for symmetry).
Result<std::vector<parquet::RowRef>> ZOrderRows(const iceberg::Schema& schema,
                                                const parquet::Schema& columns,
                                                const GroupChunks& chunks,
                                                const iceberg::SortOrder& order);

}  // namespace st::maintenance
