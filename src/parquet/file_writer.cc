#include "parquet/file_writer.h"

#include <algorithm>
#include <utility>

#include "parquet/column_writer_internal.h"
#include "parquet/compression_internal.h"
#include "parquet/metadata_internal.h"
#include "parquet/row_shredder_internal.h"

namespace st::parquet {

using internal::ColumnWriter;

namespace {
constexpr std::string_view kMagic = "PAR1";
}  // namespace

class FileWriter::Impl {
 public:
  Impl(Schema schema, WriterOptions options, OutputStream* sink,
       std::unique_ptr<internal::Compressor> compressor)
      : schema_(std::move(schema)),
        options_(std::move(options)),
        sink_(sink),
        compressor_(std::move(compressor)),
        shredder_(schema_) {
    columns_.reserve(static_cast<size_t>(schema_.num_columns()));
    for (const ColumnDescriptor& c : schema_.columns()) {
      columns_.emplace_back(c, options_, compressor_.get());
    }
  }

  // Records the first error; every later call returns it.
  Status Fail(Status s) {
    if (status_.ok()) status_ = std::move(s);
    return status_;
  }

  // Checks a per-leaf call; on success `column` may be appended to.
  Status CheckLeaf(int column, PhysicalType type, int16_t rep, const char* call) {
    if (!status_.ok()) return status_;
    if (column < 0 || column >= schema_.num_columns()) {
      return Fail(InvalidArgument(std::string("parquet ") + call + ": column index " +
                                  std::to_string(column) + " is outside the schema's " +
                                  std::to_string(schema_.num_columns()) + " leaf columns"));
    }
    const ColumnDescriptor& d = schema_.columns()[static_cast<size_t>(column)];
    if (d.physical_type != type) {
      return Fail(InvalidArgument(std::string("parquet ") + call + ": column '" + d.DottedPath() +
                                  "' has a different physical type"));
    }
    return CheckRep(column, d, rep);
  }

  Status CheckRep(int column, const ColumnDescriptor& d, int16_t rep) {
    if (rep < 0 || rep > d.max_rep_level) {
      return Fail(InvalidArgument("parquet column '" + d.DottedPath() + "': repetition level " +
                                  std::to_string(rep) + " is outside 0.." +
                                  std::to_string(d.max_rep_level)));
    }
    const int64_t rows = columns_[static_cast<size_t>(column)].chunk_rows();
    if (rep == 0 ? rows != rows_in_group_ : rows != rows_in_group_ + 1) {
      return Fail(FailedPrecondition(
          "parquet column '" + d.DottedPath() +
          (rep == 0 ? "': a second row started without EndRow()"
                    : "': repetition level > 0 before the row's first entry (level 0)")));
    }
    row_in_progress_ = true;
    return Status::OK();
  }

  Status EndRows(int64_t num_rows) {
    if (!status_.ok()) return status_;
    if (num_rows < 0) return Fail(InvalidArgument("parquet EndRows: num_rows is negative"));
    for (size_t c = 0; c < columns_.size(); ++c) {
      const int64_t got = columns_[c].chunk_rows() - rows_in_group_;
      if (got != num_rows) {
        return Fail(FailedPrecondition(
            "parquet EndRows: column '" + schema_.columns()[c].DottedPath() + "' received " +
            std::to_string(got) + " rows, expected " + std::to_string(num_rows) +
            (num_rows == 1 && got == 0 ? " (no entry for this row)" : "")));
      }
    }
    row_in_progress_ = false;
    return RowDone(num_rows);
  }

  // Checks a batch's column, type and levels; returns its number of values.
  Result<int64_t> CheckBatch(int column, PhysicalType type, int64_t num_levels, const int16_t* def,
                             const int16_t* rep, const char* call) {
    if (!status_.ok()) return Err(status_);
    if (column < 0 || column >= schema_.num_columns()) {
      return Err(Fail(InvalidArgument(std::string("parquet ") + call + ": column index " +
                                      std::to_string(column) + " is outside the schema's " +
                                      std::to_string(schema_.num_columns()) + " leaf columns")));
    }
    const ColumnDescriptor& d = schema_.columns()[static_cast<size_t>(column)];
    const bool bytes_call = type == PhysicalType::kByteArray;
    if (d.physical_type != type &&
        !(bytes_call && d.physical_type == PhysicalType::kFixedLenByteArray)) {
      return Err(Fail(InvalidArgument(std::string("parquet ") + call + ": column '" +
                                      d.DottedPath() + "' has a different physical type")));
    }
    if (num_levels < 0) {
      return Err(Fail(InvalidArgument(std::string("parquet ") + call + ": column '" +
                                      d.DottedPath() + "': num_levels is negative")));
    }
    int64_t values = num_levels;
    if (def != nullptr) {
      int16_t lo = 0;
      int16_t hi = 0;
      values = 0;
      for (int64_t i = 0; i < num_levels; ++i) {
        lo = std::min(lo, def[i]);
        hi = std::max(hi, def[i]);
        values += def[i] == d.max_def_level;
      }
      if (lo < 0 || hi > d.max_def_level) {
        return Err(Fail(InvalidArgument("parquet column '" + d.DottedPath() +
                                        "': a definition level is outside 0.." +
                                        std::to_string(d.max_def_level))));
      }
    }
    if (rep != nullptr && num_levels > 0) {
      int16_t lo = 0;
      int16_t hi = 0;
      for (int64_t i = 0; i < num_levels; ++i) {
        lo = std::min(lo, rep[i]);
        hi = std::max(hi, rep[i]);
      }
      if (lo < 0 || hi > d.max_rep_level) {
        return Err(Fail(InvalidArgument("parquet column '" + d.DottedPath() +
                                        "': a repetition level is outside 0.." +
                                        std::to_string(d.max_rep_level))));
      }
      if (rep[0] != 0) {
        return Err(Fail(InvalidArgument("parquet column '" + d.DottedPath() +
                                        "': a batch must start a row (rep_levels[0] == 0)")));
      }
    }
    row_in_progress_ = true;
    return values;
  }

  Status WriteRow(const Value& row) {
    if (!status_.ok()) return status_;
    if (row_in_progress_) {
      return Fail(
          FailedPrecondition("parquet WriteRow: a per-leaf row is unfinished; call EndRow()"));
    }
    ST_TRY(shredder_.Validate(row));
    shredder_.Shred(row, columns_.data());
    return RowDone(1);
  }

  Status RowDone(int64_t rows) {
    rows_in_group_ += rows;
    total_rows_ += rows;
    if (BufferedBytes() >= options_.row_group_size_bytes) return FlushRowGroup();
    return Status::OK();
  }

  int64_t BufferedBytes() const {
    int64_t total = 0;
    for (const ColumnWriter& c : columns_) total += c.EstimatedBufferedBytes();
    return total;
  }

  Status FlushRowGroup() {
    internal::RowGroupMeta rg;
    rg.num_rows = rows_in_group_;
    rg.file_offset = sink_->Position();
    for (ColumnWriter& c : columns_) {
      auto meta = c.FlushChunk(sink_);
      if (!meta) return Fail(meta.error());
      rg.total_byte_size += meta->total_uncompressed_size;
      rg.total_compressed_size += meta->total_compressed_size;
      rg.columns.push_back(std::move(*meta));
    }
    row_groups_.push_back(std::move(rg));
    rows_in_group_ = 0;
    return Status::OK();
  }

  Status AppendEncodedRowGroup(const std::vector<EncodedChunk>& chunks, int64_t num_rows) {
    if (!status_.ok()) return status_;
    if (row_in_progress_) {
      return Fail(FailedPrecondition(
          "parquet AppendEncodedRowGroup: a row is unfinished; call EndRow()/EndRows()"));
    }
    if (chunks.size() != columns_.size() || num_rows < 0) {
      return Fail(
          InvalidArgument("parquet AppendEncodedRowGroup: " + std::to_string(chunks.size()) +
                          " chunks for " + std::to_string(columns_.size()) + " columns"));
    }
    for (size_t c = 0; c < chunks.size(); ++c) {
      const EncodedChunk& chunk = chunks[c];
      const ColumnDescriptor& d = schema_.columns()[c];
      const auto size = static_cast<int64_t>(chunk.pages.size());
      const bool offsets_fit =
          chunk.data_page_offset >= 0 && chunk.data_page_offset < std::max<int64_t>(size, 1) &&
          (!chunk.dictionary_page_offset ||
           (*chunk.dictionary_page_offset >= 0 && *chunk.dictionary_page_offset < size));
      const bool values_fit =
          d.max_rep_level > 0 ? chunk.num_values >= num_rows : chunk.num_values == num_rows;
      if (!offsets_fit || !values_fit || chunk.null_count < 0 ||
          chunk.null_count > chunk.num_values) {
        return Fail(InvalidArgument("parquet AppendEncodedRowGroup: column '" + d.DottedPath() +
                                    "': offsets or counts do not fit the chunk"));
      }
    }
    if (rows_in_group_ > 0) ST_TRY(FlushRowGroup());
    internal::RowGroupMeta rg;
    rg.num_rows = num_rows;
    rg.file_offset = sink_->Position();
    for (size_t c = 0; c < chunks.size(); ++c) {
      auto meta = columns_[c].AppendEncodedChunk(chunks[c], sink_);
      if (!meta) return Fail(meta.error());
      rg.total_byte_size += meta->total_uncompressed_size;
      rg.total_compressed_size += meta->total_compressed_size;
      rg.columns.push_back(std::move(*meta));
    }
    row_groups_.push_back(std::move(rg));
    total_rows_ += num_rows;
    return Status::OK();
  }

  Result<FileSummary> Close() {
    if (!status_.ok()) return Err(status_);
    if (row_in_progress_) {
      return Err(
          Fail(FailedPrecondition("parquet Close: a per-leaf row is unfinished; call EndRow()")));
    }
    if (rows_in_group_ > 0) ST_TRY(FlushRowGroup());
    const std::string footer =
        internal::SerializeFileMetaData(schema_, row_groups_, total_rows_, options_.codec,
                                        options_.key_value_metadata, std::string(kCreatedBy));
    const auto footer_size = static_cast<uint32_t>(footer.size());
    Status s = sink_->Write(footer);
    if (s.ok()) s = sink_->Write(&footer_size, 4);
    if (s.ok()) s = sink_->Write(kMagic);
    if (!s.ok()) return Err(Fail(s));

    FileSummary summary;
    summary.row_count = total_rows_;
    summary.file_size_bytes = sink_->Position();
    for (const internal::RowGroupMeta& rg : row_groups_) {
      summary.row_group_offsets.push_back(rg.file_offset);
    }
    for (size_t i = 0; i < columns_.size(); ++i) {
      const ColumnWriter& c = columns_[i];
      ColumnSummary cs;
      cs.column = schema_.columns()[i];
      cs.value_count = c.total_values();
      cs.null_count = c.total_nulls();
      cs.nan_count = c.total_nans();
      if (c.file_stats().has_min_max()) {
        cs.min_value = c.file_stats().EncodedMin();
        cs.max_value = c.file_stats().EncodedMax();
      }
      cs.compressed_size_bytes = c.total_compressed_bytes();
      summary.columns.push_back(std::move(cs));
    }
    status_ = FailedPrecondition("parquet writer is closed; make a new one");
    return summary;
  }

  // FileWriter's own methods work on these directly (it is the pimpl).
 private:
  friend class FileWriter;
  Schema schema_;
  WriterOptions options_;
  OutputStream* sink_;
  std::unique_ptr<internal::Compressor> compressor_;
  internal::RowShredder shredder_;
  std::vector<ColumnWriter> columns_;
  std::vector<internal::RowGroupMeta> row_groups_;
  int64_t rows_in_group_ = 0;
  int64_t total_rows_ = 0;
  bool row_in_progress_ = false;
  Status status_;
};

FileWriter::FileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileWriter::~FileWriter() = default;

Result<std::unique_ptr<FileWriter>> FileWriter::Make(Schema schema, WriterOptions options,
                                                     OutputStream* sink) {
  if (sink == nullptr) return Err(InvalidArgument("parquet FileWriter: sink must not be null"));
  if (options.page_size_bytes <= 0 || options.page_size_bytes > (1LL << 30)) {
    return Err(InvalidArgument("parquet FileWriter: page_size_bytes must be in 1..1 GiB"));
  }
  if (options.page_row_limit <= 0) {
    return Err(InvalidArgument("parquet FileWriter: page_row_limit must be positive"));
  }
  if (options.row_group_size_bytes <= 0) {
    return Err(InvalidArgument("parquet FileWriter: row_group_size_bytes must be positive"));
  }
  if (options.dictionary_page_size_limit <= 0 || options.dictionary_page_size_limit > (1LL << 30)) {
    return Err(
        InvalidArgument("parquet FileWriter: dictionary_page_size_limit must be in 1..1 GiB"));
  }
  ST_ASSIGN_OR_RETURN(auto compressor,
                      internal::Compressor::Make(options.codec, options.compression_level));
  ST_TRY(sink->Write(kMagic));
  auto impl =
      std::make_unique<Impl>(std::move(schema), std::move(options), sink, std::move(compressor));
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

const Schema& FileWriter::schema() const { return impl_->schema_; }
Status FileWriter::WriteRow(const Value& row) { return impl_->WriteRow(row); }
Status FileWriter::EndRow() { return impl_->EndRows(1); }
Status FileWriter::EndRows(int64_t num_rows) { return impl_->EndRows(num_rows); }
int64_t FileWriter::rows_written() const { return impl_->total_rows_; }
int64_t FileWriter::EstimatedFileSizeBytes() const {
  return impl_->sink_->Position() + impl_->BufferedBytes();
}
Result<FileSummary> FileWriter::Close() { return impl_->Close(); }
Status FileWriter::AppendEncodedRowGroup(const std::vector<EncodedChunk>& chunks,
                                         int64_t num_rows) {
  return impl_->AppendEncodedRowGroup(chunks, num_rows);
}

Status FileWriter::WriteNull(int column, int16_t def_level, int16_t rep_level) {
  if (!impl_->status_.ok()) return impl_->status_;
  if (column < 0 || column >= impl_->schema_.num_columns()) {
    return impl_->Fail(InvalidArgument("parquet WriteNull: column index " + std::to_string(column) +
                                       " is outside the schema"));
  }
  const ColumnDescriptor& d = impl_->schema_.columns()[static_cast<size_t>(column)];
  if (def_level < 0 || def_level >= d.max_def_level) {
    return impl_->Fail(InvalidArgument("parquet column '" + d.DottedPath() +
                                       "': a null needs a definition level in 0.." +
                                       std::to_string(d.max_def_level - 1) +
                                       (d.max_def_level == 0 ? " (the column is required)" : "")));
  }
  ST_TRY(impl_->CheckRep(column, d, rep_level));
  impl_->columns_[static_cast<size_t>(column)].AppendNull(static_cast<uint16_t>(def_level),
                                                          static_cast<uint16_t>(rep_level));
  return Status::OK();
}

#define ST_PARQUET_LEAF_WRITE(Method, CType, Physical, Append)                                    \
  Status FileWriter::Method(int column, CType value, int16_t rep_level) {                         \
    ST_TRY(impl_->CheckLeaf(column, PhysicalType::Physical, rep_level, #Method));                 \
    impl_->columns_[static_cast<size_t>(column)].Append(value, static_cast<uint16_t>(rep_level)); \
    return Status::OK();                                                                          \
  }
ST_PARQUET_LEAF_WRITE(WriteBool, bool, kBoolean, AppendBool)
ST_PARQUET_LEAF_WRITE(WriteInt32, int32_t, kInt32, AppendFixed)
ST_PARQUET_LEAF_WRITE(WriteInt64, int64_t, kInt64, AppendFixed)
ST_PARQUET_LEAF_WRITE(WriteFloat, float, kFloat, AppendFixed)
ST_PARQUET_LEAF_WRITE(WriteDouble, double, kDouble, AppendFixed)
#undef ST_PARQUET_LEAF_WRITE

Status FileWriter::WriteBytes(int column, std::string_view value, int16_t rep_level) {
  if (!impl_->status_.ok()) return impl_->status_;
  if (column >= 0 && column < impl_->schema_.num_columns()) {
    const ColumnDescriptor& d = impl_->schema_.columns()[static_cast<size_t>(column)];
    if (d.physical_type == PhysicalType::kFixedLenByteArray) {
      if (value.size() != static_cast<size_t>(d.type_length)) {
        return impl_->Fail(InvalidArgument("parquet column '" + d.DottedPath() + "': expected " +
                                           std::to_string(d.type_length) + " bytes, got " +
                                           std::to_string(value.size())));
      }
      ST_TRY(impl_->CheckRep(column, d, rep_level));
      impl_->columns_[static_cast<size_t>(column)].AppendBytes(value,
                                                               static_cast<uint16_t>(rep_level));
      return Status::OK();
    }
  }
  ST_TRY(impl_->CheckLeaf(column, PhysicalType::kByteArray, rep_level, "WriteBytes"));
  impl_->columns_[static_cast<size_t>(column)].AppendBytes(value, static_cast<uint16_t>(rep_level));
  return Status::OK();
}

namespace {
const uint16_t* Levels(const int16_t* levels) {
  // Checked to be non-negative; int16_t and uint16_t may alias.
  return reinterpret_cast<const uint16_t*>(levels);
}
}  // namespace

#define ST_PARQUET_BATCH_WRITE(Method, CType, Physical, Append)                                   \
  Status FileWriter::Method(int column, const CType* values, int64_t num_levels,                  \
                            const int16_t* def_levels, const int16_t* rep_levels) {               \
    ST_ASSIGN_OR_RETURN(const int64_t value_count,                                                \
                        impl_->CheckBatch(column, PhysicalType::Physical, num_levels, def_levels, \
                                          rep_levels, #Method));                                  \
    if (value_count > 0 && values == nullptr) {                                                   \
      return impl_->Fail(InvalidArgument("parquet " #Method ": values is null"));                 \
    }                                                                                             \
    impl_->columns_[static_cast<size_t>(column)].Append(values, Levels(def_levels),               \
                                                        Levels(rep_levels), num_levels);          \
    return Status::OK();                                                                          \
  }
ST_PARQUET_BATCH_WRITE(WriteBoolBatch, uint8_t, kBoolean, AppendBoolBatch)
ST_PARQUET_BATCH_WRITE(WriteInt32Batch, int32_t, kInt32, AppendFixedBatch)
ST_PARQUET_BATCH_WRITE(WriteInt64Batch, int64_t, kInt64, AppendFixedBatch)
ST_PARQUET_BATCH_WRITE(WriteFloatBatch, float, kFloat, AppendFixedBatch)
ST_PARQUET_BATCH_WRITE(WriteDoubleBatch, double, kDouble, AppendFixedBatch)
#undef ST_PARQUET_BATCH_WRITE

Status FileWriter::WriteBytesBatch(int column, const std::string_view* values, int64_t num_levels,
                                   const int16_t* def_levels, const int16_t* rep_levels) {
  ST_ASSIGN_OR_RETURN(const int64_t value_count,
                      impl_->CheckBatch(column, PhysicalType::kByteArray, num_levels, def_levels,
                                        rep_levels, "WriteBytesBatch"));
  if (value_count > 0 && values == nullptr) {
    return impl_->Fail(InvalidArgument("parquet WriteBytesBatch: values is null"));
  }
  const ColumnDescriptor& d = impl_->schema_.columns()[static_cast<size_t>(column)];
  if (d.physical_type == PhysicalType::kFixedLenByteArray) {
    const auto width = static_cast<size_t>(d.type_length);
    for (int64_t i = 0; i < value_count; ++i) {
      if (values[i].size() != width) {
        return impl_->Fail(InvalidArgument("parquet column '" + d.DottedPath() + "': expected " +
                                           std::to_string(width) + " bytes, got " +
                                           std::to_string(values[i].size())));
      }
    }
  }
  impl_->columns_[static_cast<size_t>(column)].AppendBytesBatch(values, Levels(def_levels),
                                                                Levels(rep_levels), num_levels);
  return Status::OK();
}

Status FileWriter::WriteDecimal(int column, Int128 unscaled, int16_t rep_level) {
  if (!impl_->status_.ok()) return impl_->status_;
  if (column < 0 || column >= impl_->schema_.num_columns()) {
    return impl_->Fail(InvalidArgument("parquet WriteDecimal: column index " +
                                       std::to_string(column) + " is outside the schema"));
  }
  const ColumnDescriptor& d = impl_->schema_.columns()[static_cast<size_t>(column)];
  if (d.logical_type.kind != LogicalType::Kind::kDecimal) {
    return impl_->Fail(
        InvalidArgument("parquet column '" + d.DottedPath() + "' is not a decimal column"));
  }
  Int128 limit = 1;
  for (int i = 0; i < d.logical_type.precision; ++i) limit *= 10;
  if (unscaled >= limit || unscaled <= -limit) {
    return impl_->Fail(InvalidArgument("parquet column '" + d.DottedPath() +
                                       "': unscaled decimal exceeds precision " +
                                       std::to_string(d.logical_type.precision)));
  }
  ST_TRY(impl_->CheckRep(column, d, rep_level));
  ColumnWriter& c = impl_->columns_[static_cast<size_t>(column)];
  const auto rep = static_cast<uint16_t>(rep_level);
  switch (d.physical_type) {
    case PhysicalType::kInt32:
      c.AppendFixed(static_cast<int32_t>(unscaled), rep);
      break;
    case PhysicalType::kInt64:
      c.AppendFixed(static_cast<int64_t>(unscaled), rep);
      break;
    default:
      c.AppendDecimalFixed(unscaled, rep);
      break;
  }
  return Status::OK();
}

}  // namespace st::parquet
