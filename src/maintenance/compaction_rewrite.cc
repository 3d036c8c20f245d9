#include <algorithm>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "common/mutex.h"
#include "iceberg/data_file_metrics.h"
#include "maintenance/compaction_order_internal.h"
#include "maintenance/compaction_rewrite_internal.h"
#include "parquet/batch_ops.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"

namespace st::maintenance {

namespace {

// Rows per TakeRows slice of an ordered group: large enough that the
// per-call overhead vanishes, small enough that files roll near the target
// (an eighth of a target's rows at the group's compressed bytes per row).
constexpr int64_t kMaxSliceRows = 4096;
constexpr int64_t kMinSliceRows = 64;

int64_t SliceRows(int64_t target_bytes, int64_t group_bytes, int64_t rows) {
  if (rows <= 0 || group_bytes <= 0) return kMaxSliceRows;
  const double bytes_per_row = static_cast<double>(group_bytes) / static_cast<double>(rows);
  const auto slice = static_cast<int64_t>(static_cast<double>(target_bytes) / 8 / bytes_per_row);
  return std::clamp(slice, kMinSliceRows, kMaxSliceRows);
}

// A row group this large is carried over still encoded when it can be
// (CopyableRowGroup) rather than decoded and re-encoded: it is already a
// reasonable row group for readers (DuckDB writes 122,880 rows per group,
// pyarrow and Spark more), so merging it into a bigger one buys little and
// costs the whole encode and compress. Smaller groups (what streaming
// commits leave) are re-encoded into full-size ones.
constexpr int64_t kMinCopyRows = 65536;

// Per output column, the file's column holding the same field id (-1: the
// file predates the column). Errors: Unsupported for a column whose levels
// or physical type cannot be carried over.
Result<std::vector<int>> MapColumns(const parquet::Schema& in, const parquet::Schema& out) {
  for (const parquet::ColumnDescriptor& have : in.columns()) {
    // Without ids the columns would need the table's name mapping; matching
    // nothing would silently write nulls.
    if (!have.field_id.has_value()) {
      return Err(Unsupported("column " + have.DottedPath() +
                             " has no field id (files read through a name mapping are not "
                             "compacted)"));
    }
  }
  std::vector<int> map(out.columns().size(), -1);
  for (size_t o = 0; o < out.columns().size(); ++o) {
    const parquet::ColumnDescriptor& want = out.columns()[o];
    for (size_t i = 0; i < in.columns().size(); ++i) {
      const parquet::ColumnDescriptor& have = in.columns()[i];
      if (!have.field_id.has_value() || have.field_id != want.field_id) continue;
      const bool levels_fit =
          have.max_rep_level == want.max_rep_level &&
          (have.max_def_level == want.max_def_level ||
           (have.max_def_level == 0 && want.max_rep_level == 0));  // required → optional
      const bool type_fits =
          (have.physical_type == want.physical_type && have.type_length == want.type_length) ||
          (have.physical_type == parquet::PhysicalType::kInt32 &&
           want.physical_type == parquet::PhysicalType::kInt64) ||
          (have.physical_type == parquet::PhysicalType::kFloat &&
           want.physical_type == parquet::PhysicalType::kDouble);
      // The same physical values must mean the same thing: a TIMESTAMP in
      // nanos or a decimal of another scale would need converting.
      const bool unit_fits = (want.logical_type.kind != parquet::LogicalType::Kind::kTimestamp &&
                              want.logical_type.kind != parquet::LogicalType::Kind::kTime) ||
                             have.logical_type.unit == want.logical_type.unit;
      const bool scale_fits = want.logical_type.kind != parquet::LogicalType::Kind::kDecimal ||
                              have.logical_type.scale == want.logical_type.scale;
      if (!levels_fit || !type_fits || !unit_fits || !scale_fits) {
        return Err(Unsupported("column " + have.DottedPath() +
                               " cannot be carried over to the table's current schema (" +
                               want.DottedPath() + ")"));
      }
      map[o] = static_cast<int>(i);
      break;
    }
    if (map[o] < 0 && want.max_def_level == 0) {
      return Err(Unsupported("the file lacks the required column " + want.DottedPath()));
    }
  }
  return map;
}

// Output column `out` of one row group: the mapped column read and widened,
// or all nulls.
Result<parquet::ColumnBatch> ReadMapped(const parquet::FileReader& reader, int row_group,
                                        int64_t rows, int in_column, int out,
                                        const parquet::ColumnDescriptor& want) {
  parquet::ColumnBatch batch;
  if (in_column < 0) {
    batch.physical_type = want.physical_type;
    batch.num_levels = rows;
    batch.num_rows = rows;
    batch.def_levels.assign(static_cast<size_t>(rows), 0);
    if (want.max_rep_level > 0) batch.rep_levels.assign(static_cast<size_t>(rows), 0);
  } else {
    ST_ASSIGN_OR_RETURN(batch, reader.ReadColumn(row_group, in_column));
    if (batch.num_rows != rows) {
      return Err(Corruption("column " + std::to_string(in_column) + " of row group " +
                            std::to_string(row_group) + " holds " + std::to_string(batch.num_rows) +
                            " rows, the row group " + std::to_string(rows)));
    }
    if (batch.physical_type != want.physical_type) {
      if (batch.physical_type == parquet::PhysicalType::kInt32) {
        batch.int64s.assign(batch.int32s.begin(), batch.int32s.end());
        batch.int32s.clear();
      } else {
        batch.doubles.assign(batch.floats.begin(), batch.floats.end());
        batch.floats.clear();
      }
      batch.physical_type = want.physical_type;
    }
  }
  batch.column = out;
  return batch;
}

// The output files of one group: opened on demand, rolled at the target.
class OutputFiles {
 public:
  OutputFiles(const RewriteTarget& target, const CompactionGroup& group, std::string partition_dir,
              std::optional<int32_t> sort_order_id, int* file_counter)
      : target_(target),
        group_(group),
        partition_dir_(std::move(partition_dir)),
        sort_order_id_(sort_order_id),
        file_counter_(file_counter) {}
  ~OutputFiles() { Discard(); }

  // One slice of whole rows, one batch per output column.
  Status Write(const std::vector<parquet::ColumnBatch>& columns, int64_t rows) {
    if (writer_ == nullptr) ST_TRY(Open());
    for (const parquet::ColumnBatch& batch : columns) {
      ST_TRY(parquet::WriteColumnBatch(writer_.get(), batch));
    }
    ST_TRY(writer_->EndRows(rows));
    if (writer_->EstimatedFileSizeBytes() >= target_.target_file_size_bytes) ST_TRY(CloseCurrent());
    return Status::OK();
  }

  // One row group carried over encoded (CopyableRowGroup).
  Status WriteEncoded(const std::vector<parquet::EncodedChunk>& chunks, int64_t rows) {
    if (writer_ == nullptr) ST_TRY(Open());
    ST_TRY(writer_->AppendEncodedRowGroup(chunks, rows));
    if (writer_->EstimatedFileSizeBytes() >= target_.target_file_size_bytes) ST_TRY(CloseCurrent());
    return Status::OK();
  }

  Result<std::vector<iceberg::DataFile>> Finish() {
    if (writer_ != nullptr) ST_TRY(CloseCurrent());
    finished_ = true;
    return done_;
  }

  int64_t bytes_written() const { return bytes_written_; }

 private:
  Status Open() {
    char name[32];
    std::snprintf(name, sizeof(name), "-%05d.parquet", ++*file_counter_);
    uri_ = target_.write.data_location + "/" +
           (partition_dir_.empty() ? "" : partition_dir_ + "/") + target_.file_prefix + name;
    ST_ASSIGN_OR_RETURN(sink_, target_.io.NewWriter(uri_));
    ST_ASSIGN_OR_RETURN(writer_, parquet::FileWriter::Make(target_.parquet_schema,
                                                           target_.write.parquet, sink_.get()));
    return Status::OK();
  }

  Status CloseCurrent() {
    std::unique_ptr<parquet::FileWriter> writer = std::move(writer_);
    std::unique_ptr<storage::ObjectWriter> sink = std::move(sink_);
    ST_ASSIGN_OR_RETURN(parquet::FileSummary summary, writer->Close());
    ST_TRY(sink->Commit());
    iceberg::DataFile file;
    file.file_path = uri_;
    file.file_format = iceberg::FileFormat::kParquet;
    file.spec_id = group_.spec_id;
    file.partition = group_.partition;
    file.sort_order_id = sort_order_id_;
    done_.push_back(file);  // Listed before metrics so Discard removes it on error.
    ST_TRY(iceberg::ApplyParquetMetrics(target_.schema, summary, target_.write.metrics,
                                        &done_.back()));
    bytes_written_ += summary.file_size_bytes;
    return Status::OK();
  }

  // Deletes what an unfinished rewrite wrote; an open upload is abandoned
  // by destroying it without Commit.
  void Discard() {
    if (finished_) return;
    writer_.reset();
    sink_.reset();
    for (const iceberg::DataFile& file : done_) (void)target_.io.Delete(file.file_path);
    done_.clear();
  }

  const RewriteTarget& target_;
  const CompactionGroup& group_;
  std::string partition_dir_;
  std::optional<int32_t> sort_order_id_;
  int* file_counter_;
  std::string uri_;
  std::unique_ptr<storage::ObjectWriter> sink_;
  std::unique_ptr<parquet::FileWriter> writer_;
  std::vector<iceberg::DataFile> done_;
  int64_t bytes_written_ = 0;
  bool finished_ = false;
};

// True when row group `row_group` of `input` can be appended to the output
// as its encoded chunks: every output column comes from a column of the
// same physical type, width and levels, compressed with the output's codec,
// and the group is large (kMinCopyRows, or a quarter of a row group's
// bytes).
bool CopyableRowGroup(const RewriteTarget& target, const parquet::FileReader& reader,
                      const std::vector<int>& columns, int row_group) {
  const parquet::RowGroupInfo& rg = reader.metadata().row_groups[static_cast<size_t>(row_group)];
  int64_t compressed = 0;
  for (const parquet::ColumnChunkInfo& cc : rg.columns) compressed += cc.total_compressed_size;
  if (rg.num_rows < kMinCopyRows && compressed < target.write.parquet.row_group_size_bytes / 4) {
    return false;
  }
  for (size_t o = 0; o < columns.size(); ++o) {
    if (columns[o] < 0) return false;
    const parquet::ColumnDescriptor& want = target.parquet_schema.columns()[o];
    const parquet::ColumnDescriptor& have =
        reader.schema().columns()[static_cast<size_t>(columns[o])];
    if (have.physical_type != want.physical_type || have.type_length != want.type_length ||
        have.max_def_level != want.max_def_level || have.max_rep_level != want.max_rep_level ||
        rg.columns[static_cast<size_t>(columns[o])].codec != target.write.parquet.codec) {
      return false;
    }
  }
  return true;
}

// One input file, open.
struct InputFile {
  std::string bytes;             // The reader and its batches point into it.
  parquet::BudgetCharge charge;  // For `bytes`.
  std::unique_ptr<parquet::FileReader> reader;
  std::vector<int> columns;  // MapColumns.
};

Result<std::unique_ptr<InputFile>> OpenInput(const RewriteTarget& target,
                                             const iceberg::DataFile& file) {
  auto input = std::make_unique<InputFile>();
  ST_ASSIGN_OR_RETURN(input->bytes, target.io.Read(file.file_path));
  input->charge = parquet::BudgetCharge(target.budget);
  ST_TRY(input->charge.Add(static_cast<int64_t>(input->bytes.size()), "the file's bytes"));
  parquet::ReaderOptions options;
  options.budget = target.budget;
  ST_ASSIGN_OR_RETURN(input->reader, parquet::FileReader::Open(input->bytes, options));
  ST_ASSIGN_OR_RETURN(input->columns, MapColumns(input->reader->schema(), target.parquet_schema));
  if (input->reader->metadata().num_rows != file.record_count) {
    return Err(Corruption("the file holds " + std::to_string(input->reader->metadata().num_rows) +
                          " rows, its manifest entry " + std::to_string(file.record_count)));
  }
  return input;
}

// The output batches of one row group of `input`.
Result<std::vector<parquet::ColumnBatch>> ReadRowGroup(const RewriteTarget& target,
                                                       const InputFile& input, int row_group) {
  const int64_t rows = input.reader->metadata().row_groups[row_group].num_rows;
  std::vector<parquet::ColumnBatch> batches;
  batches.reserve(input.columns.size());
  for (size_t c = 0; c < input.columns.size(); ++c) {
    ST_ASSIGN_OR_RETURN(parquet::ColumnBatch batch,
                        ReadMapped(*input.reader, row_group, rows, input.columns[c],
                                   static_cast<int>(c), target.parquet_schema.columns()[c]));
    batches.push_back(std::move(batch));
  }
  return batches;
}

// Reads and decodes a group's files one row group ahead of the writer on a
// thread of its own, so decompression and decoding overlap the writer's
// encoding and compression (each is about half of a rewrite). At most
// kDepth decoded row groups wait; memory is about two input files and
// three row groups of batches.
class RowGroupPrefetcher {
 public:
  struct Unit {
    std::shared_ptr<const InputFile> input;  // Keeps the bytes the batches view.
    std::vector<parquet::ColumnBatch> batches;
    // When not empty, the row group carried over encoded (batches empty):
    // views into input->bytes.
    std::vector<parquet::EncodedChunk> encoded;
    int64_t rows = 0;
    bool first_of_file = false;
  };

  RowGroupPrefetcher(const RewriteTarget& target, const CompactionGroup& group)
      : target_(target), group_(group), thread_([this] { Run(); }) {}
  ~RowGroupPrefetcher() {
    {
      common::MutexLock lock(mu_);
      cancelled_ = true;
    }
    cv_.NotifyAll();
    thread_.join();
  }
  RowGroupPrefetcher(const RowGroupPrefetcher&) = delete;
  RowGroupPrefetcher& operator=(const RowGroupPrefetcher&) = delete;

  // The next row group in file order; nullopt after the last. Errors: the
  // input file's (Corruption, Unsupported, the store's), with its path.
  Result<std::optional<Unit>> Next() EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    while (ready_.empty() && !done_) cv_.Wait(mu_);
    if (ready_.empty()) return std::optional<Unit>();
    Result<Unit> next = std::move(ready_.front());
    ready_.pop_front();
    cv_.NotifyAll();
    if (!next.has_value()) return Err(next.error());
    return std::optional<Unit>(*std::move(next));
  }

 private:
  static constexpr size_t kDepth = 1;

  // False once the consumer is gone.
  bool Push(Result<Unit> unit) EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    while (ready_.size() >= kDepth && !cancelled_) cv_.Wait(mu_);
    if (cancelled_) return false;
    ready_.push_back(std::move(unit));
    cv_.NotifyAll();
    return true;
  }

  void Finish() EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    done_ = true;
    cv_.NotifyAll();
  }

  void Run() {
    for (const iceberg::DataFile& file : group_.files) {
      auto opened = OpenInput(target_, file);
      if (!opened) {
        Push(Err(opened.error().WithContext("data file " + file.file_path)));
        return Finish();
      }
      std::shared_ptr<const InputFile> input = *std::move(opened);
      for (int g = 0; g < input->reader->num_row_groups(); ++g) {
        auto batches = ReadRowGroup(target_, *input, g);
        if (!batches) {
          Push(Err(batches.error().WithContext("data file " + file.file_path)));
          return Finish();
        }
        Unit unit{input,
                  *std::move(batches),
                  {},
                  input->reader->metadata().row_groups[g].num_rows,
                  g == 0};
        if (CopyableRowGroup(target_, *input->reader, input->columns, g)) {
          auto encoded = EncodeUnit(*input, g, &unit.batches);
          if (!encoded) {
            Push(Err(encoded.error().WithContext("data file " + file.file_path)));
            return Finish();
          }
          unit.encoded = *std::move(encoded);
          unit.batches.clear();
        }
        if (!Push(std::move(unit))) return Finish();
      }
    }
    Finish();
  }

  // The row group's chunks, their counts and bounds from the decoded batches.
  static Result<std::vector<parquet::EncodedChunk>> EncodeUnit(
      const InputFile& input, int row_group, const std::vector<parquet::ColumnBatch>* batches) {
    std::vector<parquet::EncodedChunk> chunks;
    chunks.reserve(batches->size());
    std::string scratch;  // Unused: the reader's source is the file in memory.
    for (size_t c = 0; c < batches->size(); ++c) {
      ST_ASSIGN_OR_RETURN(
          parquet::EncodedChunk chunk,
          input.reader->EncodedChunkOf(row_group, input.columns[c], (*batches)[c], &scratch));
      if (!scratch.empty()) return Err(Internal("compaction: a chunk copy left its source"));
      chunks.push_back(std::move(chunk));
    }
    return chunks;
  }

  const RewriteTarget& target_;
  const CompactionGroup& group_;
  common::Mutex mu_;
  common::CondVar cv_;
  std::deque<Result<Unit>> ready_ GUARDED_BY(mu_);
  bool done_ GUARDED_BY(mu_) = false;
  bool cancelled_ GUARDED_BY(mu_) = false;
  std::thread thread_;  // Last: starts once everything above exists.
};

Status RewriteInOrder(const RewriteTarget& target, const CompactionGroup& group, OutputFiles* out,
                      GroupRewrite* result) {
  RowGroupPrefetcher prefetch(target, group);
  while (true) {
    ST_ASSIGN_OR_RETURN(std::optional<RowGroupPrefetcher::Unit> unit, prefetch.Next());
    if (!unit.has_value()) return Status::OK();
    if (unit->first_of_file) result->bytes_read += static_cast<int64_t>(unit->input->bytes.size());
    if (!unit->encoded.empty()) {
      ST_TRY(out->WriteEncoded(unit->encoded, unit->rows));
    } else {
      ST_TRY(out->Write(unit->batches, unit->rows));
    }
    result->records += unit->rows;
  }
}

Status RewriteOrdered(const RewriteTarget& target, const CompactionGroup& group, RowOrder row_order,
                      const iceberg::SortOrder& order, OutputFiles* out, GroupRewrite* result) {
  std::vector<std::unique_ptr<InputFile>> inputs;
  GroupChunks chunks;
  for (const iceberg::DataFile& file : group.files) {
    auto opened = OpenInput(target, file);
    if (!opened) return opened.error().WithContext("data file " + file.file_path);
    inputs.push_back(*std::move(opened));
    const InputFile& input = *inputs.back();
    result->bytes_read += static_cast<int64_t>(input.bytes.size());
    for (int g = 0; g < input.reader->num_row_groups(); ++g) {
      auto batches = ReadRowGroup(target, input, g);
      if (!batches) return batches.error().WithContext("data file " + file.file_path);
      std::vector<parquet::RowSpans> spans;
      for (size_t c = 0; c < batches->size(); ++c) {
        auto sp = parquet::ComputeRowSpans((*batches)[c],
                                           target.parquet_schema.columns()[c].max_def_level);
        if (!sp) return sp.error().WithContext("data file " + file.file_path);
        spans.push_back(*std::move(sp));
      }
      chunks.rows.push_back(input.reader->metadata().row_groups[g].num_rows);
      chunks.batches.push_back(*std::move(batches));
      chunks.spans.push_back(std::move(spans));
    }
  }
  ST_ASSIGN_OR_RETURN(std::vector<parquet::RowRef> rows,
                      row_order == RowOrder::kSort
                          ? SortOrderRows(target.schema, target.parquet_schema, chunks, order)
                          : ZOrderRows(target.schema, target.parquet_schema, chunks, order));
  const size_t num_columns = target.parquet_schema.columns().size();
  std::vector<std::vector<const parquet::ColumnBatch*>> sources(num_columns);
  std::vector<std::vector<const parquet::RowSpans*>> spans(num_columns);
  for (size_t chunk = 0; chunk < chunks.rows.size(); ++chunk) {
    for (size_t c = 0; c < num_columns; ++c) {
      sources[c].push_back(&chunks.batches[chunk][c]);
      spans[c].push_back(&chunks.spans[chunk][c]);
    }
  }
  const auto slice_rows = static_cast<size_t>(
      SliceRows(target.target_file_size_bytes, group.bytes, static_cast<int64_t>(rows.size())));
  for (size_t begin = 0; begin < rows.size(); begin += slice_rows) {
    const size_t end = std::min(rows.size(), begin + slice_rows);
    const std::vector<parquet::RowRef> slice(rows.begin() + static_cast<ptrdiff_t>(begin),
                                             rows.begin() + static_cast<ptrdiff_t>(end));
    std::vector<parquet::ColumnBatch> batches;
    batches.reserve(num_columns);
    for (size_t c = 0; c < num_columns; ++c) {
      ST_ASSIGN_OR_RETURN(parquet::ColumnBatch taken,
                          parquet::TakeRows(sources[c], spans[c], slice,
                                            target.parquet_schema.columns()[c].max_def_level));
      batches.push_back(std::move(taken));
    }
    ST_TRY(out->Write(batches, static_cast<int64_t>(slice.size())));
    result->records += static_cast<int64_t>(slice.size());
  }
  return Status::OK();
}

}  // namespace

Result<GroupRewrite> RewriteGroup(const RewriteTarget& target, const CompactionGroup& group,
                                  const iceberg::PartitionSpec& spec, RowOrder row_order,
                                  const iceberg::SortOrder* order, int* file_counter) {
  ST_ASSIGN_OR_RETURN(std::string partition_dir,
                      spec.PartitionPath(target.schema, group.partition));
  std::optional<int32_t> sort_order_id;
  if (row_order == RowOrder::kSort && order != nullptr) sort_order_id = order->order_id;
  OutputFiles out(target, group, std::move(partition_dir), sort_order_id, file_counter);
  GroupRewrite result;
  if (row_order == RowOrder::kInput || order == nullptr) {
    ST_TRY(RewriteInOrder(target, group, &out, &result));
  } else {
    ST_TRY(RewriteOrdered(target, group, row_order, *order, &out, &result));
  }
  // Never commit a rewrite that lost or duplicated a row: the inputs'
  // manifest counts, the rows moved and the outputs' counts must agree.
  int64_t expected = 0;
  for (const iceberg::DataFile& file : group.files) expected += file.record_count;
  if (result.records != expected) {
    return Err(Internal("compaction moved " + std::to_string(result.records) + " rows of " +
                        std::to_string(expected)));
  }
  ST_ASSIGN_OR_RETURN(result.written, out.Finish());
  int64_t written = 0;
  for (const iceberg::DataFile& file : result.written) written += file.record_count;
  if (written != expected) {
    for (const iceberg::DataFile& file : result.written) (void)target.io.Delete(file.file_path);
    return Err(Internal("compaction wrote " + std::to_string(written) + " rows of " +
                        std::to_string(expected)));
  }
  result.bytes_written = out.bytes_written();
  return result;
}

}  // namespace st::maintenance
