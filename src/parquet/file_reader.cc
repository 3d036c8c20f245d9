#include "parquet/file_reader.h"

#include <algorithm>
#include <cstring>

#include "parquet/column_reader_internal.h"
#include "parquet/metadata_reader_internal.h"
#include "parquet/statistics_internal.h"

namespace st::parquet {

Status DecodeBudget::Charge(int64_t bytes, const std::string& what) {
  int64_t used = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ - used) {
      return FailedPrecondition(what + ": decoding it exceeds " + name_ + " of " +
                                std::to_string(limit_) + " bytes (" + std::to_string(used) +
                                " held, " + std::to_string(bytes) + " more asked)");
    }
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return Status::OK();
}

Status MemorySource::ReadAt(int64_t offset, int64_t length, std::string* /*scratch*/,
                            std::string_view* out) const {
  if (offset < 0 || length < 0 || offset > size_bytes() || length > size_bytes() - offset) {
    return InvalidArgument("parquet memory source: read outside the file");
  }
  *out = bytes_.substr(static_cast<size_t>(offset), static_cast<size_t>(length));
  return Status::OK();
}

int64_t ColumnBatch::num_values() const {
  switch (physical_type) {
    case PhysicalType::kBoolean:
      return static_cast<int64_t>(bools.size());
    case PhysicalType::kInt32:
      return static_cast<int64_t>(int32s.size());
    case PhysicalType::kInt64:
      return static_cast<int64_t>(int64s.size());
    case PhysicalType::kFloat:
      return static_cast<int64_t>(floats.size());
    case PhysicalType::kDouble:
      return static_cast<int64_t>(doubles.size());
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return static_cast<int64_t>(bytes.size());
  }
  return 0;
}

Result<std::unique_ptr<FileReader>> FileReader::Open(std::string_view bytes,
                                                     ReaderOptions options) {
  return Open(std::make_unique<MemorySource>(bytes), options);
}

Result<std::unique_ptr<FileReader>> FileReader::Open(std::unique_ptr<RandomAccessSource> source,
                                                     ReaderOptions options) {
  const int64_t size = source->size_bytes();
  if (size < 12) {
    return Err(Corruption("parquet file of " + std::to_string(size) +
                          " bytes is too short (magic, footer length and magic need 12)"));
  }
  std::string scratch;
  std::string_view head;
  ST_TRY(source->ReadAt(0, 4, &scratch, &head));
  if (head != "PAR1") {
    return Err(Corruption("parquet file does not start with the PAR1 magic"));
  }
  std::string tail_scratch;
  std::string_view tail;
  ST_TRY(source->ReadAt(size - 8, 8, &tail_scratch, &tail));
  if (tail.substr(4) == "PARE") {
    return Err(
        Unsupported("parquet file has an encrypted footer (PARE); encryption is not "
                    "supported"));
  }
  if (tail.substr(4) != "PAR1") {
    return Err(Corruption("parquet file does not end with the PAR1 magic (truncated?)"));
  }
  uint32_t footer_len = 0;
  std::memcpy(&footer_len, tail.data(), 4);
  if (static_cast<int64_t>(footer_len) > size - 12) {
    return Err(Corruption("parquet footer length " + std::to_string(footer_len) +
                          " is past the start of the file of " + std::to_string(size) + " bytes"));
  }
  if (static_cast<int64_t>(footer_len) > options.max_footer_bytes) {
    return Err(Corruption("parquet footer of " + std::to_string(footer_len) +
                          " bytes is above the reader's limit"));
  }
  std::string footer_scratch;
  std::string_view footer;
  ST_TRY(source->ReadAt(size - 8 - footer_len, footer_len, &footer_scratch, &footer));
  ST_ASSIGN_OR_RETURN(FileMetadata metadata, internal::ParseFileMetadata(footer));
  metadata.footer_size_bytes = footer_len;
  std::unique_ptr<FileReader> reader(new FileReader(std::move(source), options));
  reader->metadata_ = std::move(metadata);
  return reader;
}

Result<ColumnBatch> FileReader::ReadColumn(int row_group, int column) const {
  if (row_group < 0 || row_group >= num_row_groups()) {
    return Err(
        InvalidArgument("parquet row group " + std::to_string(row_group) + " is out of range"));
  }
  if (column < 0 || column >= schema().num_columns()) {
    return Err(InvalidArgument("parquet column " + std::to_string(column) + " is out of range"));
  }
  internal::ChunkToRead in;
  in.source = source_.get();
  in.options = &options_;
  in.column = &schema().columns()[static_cast<size_t>(column)];
  in.chunk =
      &metadata_.row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(column)];
  in.row_group = row_group;
  in.column_index = column;
  ST_ASSIGN_OR_RETURN(ColumnBatch batch, internal::ReadColumnChunk(in));
  const int64_t rows = metadata_.row_groups[static_cast<size_t>(row_group)].num_rows;
  if (batch.num_rows != rows) {
    return Err(Corruption("parquet column " + in.column->DottedPath() + " (row group " +
                          std::to_string(row_group) + ") holds " + std::to_string(batch.num_rows) +
                          " rows, the row group " + std::to_string(rows)));
  }
  return batch;
}

Result<EncodedChunk> FileReader::EncodedChunkOf(int row_group, int column,
                                                const ColumnBatch& decoded,
                                                std::string* scratch) const {
  if (row_group < 0 || row_group >= num_row_groups() || column < 0 ||
      column >= schema().num_columns()) {
    return Err(InvalidArgument("parquet EncodedChunkOf: row group or column out of range"));
  }
  const ColumnDescriptor& col = schema().columns()[static_cast<size_t>(column)];
  const ColumnChunkInfo& cc =
      metadata_.row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(column)];
  if (decoded.physical_type != col.physical_type || decoded.num_levels != cc.num_values) {
    return Err(InvalidArgument("parquet EncodedChunkOf: the batch is not this chunk's"));
  }
  // The same start and length ReadColumn decoded (the chunk decoder checked
  // them against the file).
  int64_t start = cc.data_page_offset;
  const bool dictionary_first = cc.dictionary_page_offset && *cc.dictionary_page_offset > 0 &&
                                *cc.dictionary_page_offset < start;
  if (dictionary_first) start = *cc.dictionary_page_offset;
  if (start < 4 || cc.total_compressed_size < 0 || start > source_->size_bytes() ||
      cc.total_compressed_size > source_->size_bytes() - start || cc.total_uncompressed_size < 0) {
    return Err(Corruption("parquet column " + col.DottedPath() + " (row group " +
                          std::to_string(row_group) + "): chunk bytes outside the file"));
  }
  EncodedChunk out;
  ST_TRY(source_->ReadAt(start, cc.total_compressed_size, scratch, &out.pages));
  if (dictionary_first) out.dictionary_page_offset = 0;
  out.data_page_offset = cc.data_page_offset - start;
  out.encodings = cc.encodings;
  out.num_values = cc.num_values;
  // The uncompressed total from the page headers themselves (the decoder
  // walked the same ones), not the footer's claim.
  int64_t uncompressed = 0;
  int64_t values = 0;
  for (size_t pos = 0; values < cc.num_values && pos < out.pages.size();) {
    internal::PageHeader h;
    size_t header_bytes = 0;
    ST_TRY(internal::ParsePageHeader(reinterpret_cast<const uint8_t*>(out.pages.data() + pos),
                                     out.pages.size() - pos, &h, &header_bytes));
    if (static_cast<size_t>(h.compressed_page_size) > out.pages.size() - pos - header_bytes) {
      return Err(Corruption("parquet column " + col.DottedPath() + " (row group " +
                            std::to_string(row_group) + "): a page past the chunk's end"));
    }
    uncompressed += static_cast<int64_t>(header_bytes) + h.uncompressed_page_size;
    if (h.type == static_cast<int32_t>(internal::PageType::kDataPage) ||
        h.type == static_cast<int32_t>(internal::PageType::kDataPageV2)) {
      values += h.num_values;
    }
    pos += header_bytes + static_cast<size_t>(h.compressed_page_size);
  }
  out.total_uncompressed_size = uncompressed;
  out.null_count = decoded.num_levels - decoded.num_values();
  internal::StatsAccumulator stats(col);
  switch (decoded.physical_type) {
    case PhysicalType::kBoolean:
      for (uint8_t b : decoded.bools) stats.Update(b != 0);
      break;
    case PhysicalType::kInt32:
      stats.UpdateRange(decoded.int32s.data(), decoded.int32s.size());
      break;
    case PhysicalType::kInt64:
      stats.UpdateRange(decoded.int64s.data(), decoded.int64s.size());
      break;
    case PhysicalType::kFloat:
      stats.UpdateRange(decoded.floats.data(), decoded.floats.size());
      out.nan_count = std::count_if(decoded.floats.begin(), decoded.floats.end(),
                                    [](float v) { return v != v; });
      break;
    case PhysicalType::kDouble:
      stats.UpdateRange(decoded.doubles.data(), decoded.doubles.size());
      out.nan_count = std::count_if(decoded.doubles.begin(), decoded.doubles.end(),
                                    [](double v) { return v != v; });
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      stats.UpdateBytesRange(decoded.bytes.data(), decoded.bytes.size());
      break;
  }
  if (stats.has_min_max()) {
    out.min_value = stats.EncodedMin();
    out.max_value = stats.EncodedMax();
  }
  return out;
}

Result<std::vector<Value>> FileReader::ReadRows(int row_group) const {
  std::vector<ColumnBatch> batches;
  for (int c = 0; c < schema().num_columns(); ++c) {
    ST_ASSIGN_OR_RETURN(ColumnBatch batch, ReadColumn(row_group, c));
    batches.push_back(std::move(batch));
  }
  if (row_group < 0 || row_group >= num_row_groups()) {
    return Err(InvalidArgument("parquet row group out of range"));
  }
  return AssembleRows(schema(), batches,
                      metadata_.row_groups[static_cast<size_t>(row_group)].num_rows);
}

Status WriteColumnBatch(FileWriter* writer, const ColumnBatch& b) {
  const int16_t* def = b.def_levels.empty() ? nullptr : b.def_levels.data();
  const int16_t* rep = b.rep_levels.empty() ? nullptr : b.rep_levels.data();
  switch (b.physical_type) {
    case PhysicalType::kBoolean:
      return writer->WriteBoolBatch(b.column, b.bools.data(), b.num_levels, def, rep);
    case PhysicalType::kInt32:
      return writer->WriteInt32Batch(b.column, b.int32s.data(), b.num_levels, def, rep);
    case PhysicalType::kInt64:
      return writer->WriteInt64Batch(b.column, b.int64s.data(), b.num_levels, def, rep);
    case PhysicalType::kFloat:
      return writer->WriteFloatBatch(b.column, b.floats.data(), b.num_levels, def, rep);
    case PhysicalType::kDouble:
      return writer->WriteDoubleBatch(b.column, b.doubles.data(), b.num_levels, def, rep);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return writer->WriteBytesBatch(b.column, b.bytes.data(), b.num_levels, def, rep);
  }
  return Internal("parquet: unknown physical type");
}

}  // namespace st::parquet
