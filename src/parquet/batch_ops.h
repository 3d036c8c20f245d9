// Row-level operations on ColumnBatch (file_reader.h), the columnar form a
// rewrite (compaction) moves between FileReader and FileWriter without
// assembling rows: where each row's level entries and dense values start,
// taking rows of one or more batches in any order (sort, z-order), and
// appending batches into one.
//
// A row is what FileWriter's batch API counts: a level entry with
// repetition level 0 starts one (columns inside lists and maps); a column
// without repetition levels has one level entry per row; a column without
// any levels (required, outside lists) has one value per row.
//
// Lifetimes: TakeRows copies levels and fixed-width values, but its
// BYTE_ARRAY/FIXED values are views into the sources' bytes (their
// `storage`, or the memory of a source whose views outlive reads); the
// result owns no storage and is valid only while every source batch (and
// its file's bytes) lives. AppendBatch moves the appended batch's storage
// into the destination, so the destination owns what it points to (except
// views into a MemorySource, which must outlive it as before).
//
// Thread-safety: the functions share no state; concurrent calls on distinct
// destinations are safe.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "parquet/file_reader.h"

namespace st::parquet {

// Where each row of a batch starts: row i spans level entries
// [level_starts[i], level_starts[i + 1]) and dense values
// [value_starts[i], value_starts[i + 1]); both hold num_rows + 1 entries.
struct RowSpans {
  std::vector<int64_t> level_starts;
  std::vector<int64_t> value_starts;
  int64_t num_rows() const { return static_cast<int64_t>(level_starts.size()) - 1; }
};

// The row spans of `batch` whose column has `max_def_level` (a value is an
// entry at that level). Errors: Corruption when the levels do not describe
// whole rows (rep_levels[0] != 0, a level array of the wrong length), when
// the row count differs from batch.num_rows, or when the values held differ
// from the entries at max_def_level.
Result<RowSpans> ComputeRowSpans(const ColumnBatch& batch, int16_t max_def_level);

// A row of one of several source batches.
struct RowRef {
  int32_t source = 0;  // Index into the sources.
  int64_t row = 0;     // Row of that source.
  friend bool operator==(const RowRef&, const RowRef&) = default;
};

// A batch of `rows` of `sources` in that order (rows may repeat).
// `spans[i]` are ComputeRowSpans(*sources[i]). Every source must be of the
// same column and physical type; a source without definition levels, mixed
// with sources that have them, counts as every entry at max_def_level (and
// likewise rep level 0 per entry). See the header comment for lifetimes.
// Errors: InvalidArgument (mismatched sources or spans, a row or source out
// of range).
Result<ColumnBatch> TakeRows(const std::vector<const ColumnBatch*>& sources,
                             const std::vector<const RowSpans*>& spans,
                             const std::vector<RowRef>& rows, int16_t max_def_level);
// One source: rows by index.
Result<ColumnBatch> TakeRows(const ColumnBatch& source, const RowSpans& spans,
                             const std::vector<int64_t>& rows, int16_t max_def_level);

// Appends the rows of `source` to `dest` (same column and physical type; an
// empty dest of num_levels 0 takes the source's column and type) and moves
// the source's storage into dest. A side without levels gets them
// materialised (max_def_level / rep 0) when the other side has them.
// Errors: InvalidArgument for a different column or type.
Status AppendBatch(ColumnBatch* dest, ColumnBatch source, int16_t max_def_level);

}  // namespace st::parquet
