// FileWriter: streams rows into one Parquet file on an OutputStream.
//
// Three ways in, which may not be mixed within a row:
//  - WriteRow(Value): shreds a Struct row (schema field order; Null = missing).
//    A row that does not fit the schema is rejected whole with
//    InvalidArgument naming the column, nothing of it is written, and the
//    writer stays usable (so a caller can dead-letter one bad record).
//  - The per-leaf API (WriteInt32(column, ...), WriteNull, ...; then EndRow()):
//    the caller supplies repetition levels (and definition levels for nulls;
//    a value always has its column's max definition level). Misuse (wrong
//    type, levels out of range, a row not started at repetition level 0, a
//    column left without an entry at EndRow) is a caller bug: the writer
//    fails with InvalidArgument/FailedPrecondition and stays failed.
//  - The columnar batch API (WriteInt64Batch(column, values, n, def, rep),
//    ...; then EndRows(rows)): whole rows of one column per call, levels and
//    values as arrays, checked once per batch. This is the fast path: a
//    caller that has its records shredded into column arrays should use it.
//    Misuse fails the writer for good, as for the per-leaf API; nothing of a
//    rejected batch is written.
// Any error from the sink also fails the writer; a failed writer returns
// that same error from every later call, Close() included.
//
// Memory: about one row group (options.row_group_size_bytes of encoded,
// compressed pages plus dictionaries) per writer. Not thread-safe; use one
// writer per thread. The sink must outlive the writer and is not closed by it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/output_stream.h"
#include "common/status.h"
#include "common/value.h"
#include "parquet/schema.h"
#include "parquet/writer_options.h"

namespace st::parquet {

// The footer's created_by. parquet-mr/Spark parse this to decide whether to
// trust statistics; an application name they do not know is trusted.
inline constexpr std::string_view kCreatedBy = "streamtables version 0.1.0";

// Per leaf column, over the whole file: what Iceberg's data file metrics need.
struct ColumnSummary {
  ColumnDescriptor column;  // Path, field id, physical and logical type.
  int64_t value_count = 0;  // Level entries, nulls included (Iceberg value_counts).
  int64_t null_count = 0;   // Entries below max definition level (incl. empty lists).
  int64_t nan_count = 0;    // FLOAT/DOUBLE only.
  // PLAIN-encoded bounds (BYTE_ARRAY/FIXED: the raw bytes; no truncation).
  // Absent when every value was null or NaN.
  std::optional<std::string> min_value;
  std::optional<std::string> max_value;
  int64_t compressed_size_bytes = 0;  // All chunks incl. page headers (Iceberg column_sizes).
};

struct FileSummary {
  int64_t row_count = 0;
  int64_t file_size_bytes = 0;
  std::vector<int64_t> row_group_offsets;  // Iceberg split_offsets.
  std::vector<ColumnSummary> columns;      // Schema::columns() order.
};

// One column chunk carried over still encoded, for a rewrite that needs
// no re-encoding (compaction of a row group already in the writer's codec):
// its pages exactly as read, headers included, and what the chunk's
// metadata and the file summary need, computed by the caller from decoding
// those pages (FileReader::EncodedChunkOf) rather than trusted from the
// input's footer.
struct EncodedChunk {
  std::string_view pages;                         // Every byte of the chunk, first page first.
  std::optional<int64_t> dictionary_page_offset;  // Offsets within `pages`.
  int64_t data_page_offset = 0;
  std::vector<int32_t> encodings;  // parquet.thrift Encoding numbers.
  int64_t num_values = 0;          // Level entries.
  int64_t total_uncompressed_size = 0;
  int64_t null_count = 0;
  int64_t nan_count = 0;
  // PLAIN-encoded bounds in the column's order; absent when every value
  // was null or NaN.
  std::optional<std::string> min_value;
  std::optional<std::string> max_value;
};

class FileWriter {
 public:
  // Writes the leading magic. Errors: InvalidArgument for non-positive sizes
  // or a compression level the codec rejects; the sink's error.
  static Result<std::unique_ptr<FileWriter>> Make(Schema schema, WriterOptions options,
                                                  OutputStream* sink);
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  const Schema& schema() const;

  // One whole row; flushes a row group when it is full. See above for errors.
  Status WriteRow(const Value& row);

  // Per-leaf API; `column` indexes Schema::columns().
  Status WriteNull(int column, int16_t def_level, int16_t rep_level = 0);
  Status WriteBool(int column, bool value, int16_t rep_level = 0);
  Status WriteInt32(int column, int32_t value, int16_t rep_level = 0);
  Status WriteInt64(int column, int64_t value, int16_t rep_level = 0);
  Status WriteFloat(int column, float value, int16_t rep_level = 0);
  Status WriteDouble(int column, double value, int16_t rep_level = 0);
  // BYTE_ARRAY, or FIXED_LEN_BYTE_ARRAY of exactly type_length bytes.
  Status WriteBytes(int column, std::string_view value, int16_t rep_level = 0);
  // Decimal columns of any physical type; the value must fit the precision.
  Status WriteDecimal(int column, Int128 unscaled, int16_t rep_level = 0);
  // Ends a row of per-leaf writes; every column must have received its entries.
  Status EndRow();

  // Columnar batch API; `column` indexes Schema::columns().
  //
  // A batch is num_levels level entries of one leaf column, holding whole
  // rows. def_levels: num_levels definition levels in 0..max_def_level, or
  // null when every entry is a value (always so for required columns).
  // rep_levels: num_levels repetition levels in 0..max_rep_level with
  // rep_levels[0] == 0, or null when every entry starts a row (always so for
  // columns outside lists and maps). `values` holds only the entries whose
  // definition level is max_def_level, densely and in order (the
  // parquet-cpp WriteBatch convention); it may be null when there are none.
  // All arrays are read during the call only.
  //
  // A column may receive several batches; once every column has received
  // the same number of rows, EndRows(that number) completes them. Errors
  // (the writer then stays failed): InvalidArgument for a bad column index,
  // a physical type other than the column's, levels out of range, a FIXED
  // value of the wrong length; the sticky error.
  Status WriteBoolBatch(int column, const uint8_t* values, int64_t num_levels,
                        const int16_t* def_levels = nullptr,
                        const int16_t* rep_levels = nullptr);  // Nonzero is true.
  Status WriteInt32Batch(int column, const int32_t* values, int64_t num_levels,
                         const int16_t* def_levels = nullptr, const int16_t* rep_levels = nullptr);
  Status WriteInt64Batch(int column, const int64_t* values, int64_t num_levels,
                         const int16_t* def_levels = nullptr, const int16_t* rep_levels = nullptr);
  Status WriteFloatBatch(int column, const float* values, int64_t num_levels,
                         const int16_t* def_levels = nullptr, const int16_t* rep_levels = nullptr);
  Status WriteDoubleBatch(int column, const double* values, int64_t num_levels,
                          const int16_t* def_levels = nullptr, const int16_t* rep_levels = nullptr);
  // BYTE_ARRAY, or FIXED_LEN_BYTE_ARRAY values of exactly type_length bytes.
  Status WriteBytesBatch(int column, const std::string_view* values, int64_t num_levels,
                         const int16_t* def_levels = nullptr, const int16_t* rep_levels = nullptr);
  // Completes num_rows rows written by batches (or by per-leaf calls:
  // EndRow() is EndRows(1)); flushes a row group when it is full, so a row
  // group may pass row_group_size_bytes by up to the rows of one EndRows.
  // Errors: FailedPrecondition when a column received a different number of
  // rows (the writer then stays failed).
  Status EndRows(int64_t num_rows);

  // Appends one whole row group of already-encoded chunks, one per column
  // in Schema::columns() order, compressed with this writer's codec (the
  // caller checks; the footer names one codec). Rows buffered by the other
  // APIs are flushed first as a row group of their own. The chunks' bytes
  // are read during the call only. Errors (the writer then stays failed):
  // FailedPrecondition in the middle of a row; InvalidArgument for a chunk
  // count other than the schema's, offsets outside a chunk, num_values of
  // a flat column other than num_rows, or bounds that do not fit the
  // column's type; the sink's.
  Status AppendEncodedRowGroup(const std::vector<EncodedChunk>& chunks, int64_t num_rows);

  // Rows accepted so far.
  int64_t rows_written() const;
  // Bytes already in the sink plus the buffered row group's estimated size:
  // what a caller rolling files by size should watch.
  int64_t EstimatedFileSizeBytes() const;

  // Flushes the last row group and writes the footer. Afterwards every call
  // returns FailedPrecondition. Errors: the sink's; a row left unfinished by
  // the per-leaf API (FailedPrecondition).
  Result<FileSummary> Close();

 private:
  class Impl;
  explicit FileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace st::parquet
