// FileReader: reads Parquet files (ours, pyarrow's, Spark's, PyIceberg's)
// column chunk by column chunk into ColumnBatch, the form FileWriter's batch
// API takes, so a rewrite (compaction) streams columns without per-value
// dispatch: ReadColumn, then WriteColumnBatch, then EndRows.
//
// What is read: the schema (field ids, logical types; 3-level LIST/MAP and
// structs), row groups, column chunk metadata and statistics, key-value
// metadata; data pages v1 and v2; PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY,
// RLE (levels, booleans), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT values; UNCOMPRESSED, SNAPPY, GZIP,
// ZSTD, LZ4_RAW. Not read (Unsupported): encrypted files, INT96, legacy
// 2-level lists, the deprecated Hadoop-framed LZ4 (codec 5), BROTLI, LZO,
// BIT_PACKED levels. Bloom filters, page indexes and CRCs
// are ignored.
//
// Errors: every malformed input (wrong magic, truncated footer, bad page
// header, lengths past the end, levels or dictionary indices out of range,
// a decompressed size other than declared) is Corruption naming what and
// where; a valid file using something not listed above is Unsupported. All
// lengths are checked against the bytes that remain before anything is
// allocated, and ReaderOptions caps what one page or chunk may allocate.
//
// Thread-safety: after Open, a FileReader is immutable; ReadColumn and
// ReadRows may run concurrently from several threads when the source's
// ReadAt may (MemorySource's may).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"
#include "parquet/writer_options.h"

namespace st::parquet {

// Random access to a file's bytes. Implementations state their own
// thread-safety; FileReader only calls the const methods.
class RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;
  virtual int64_t size_bytes() const = 0;
  // Makes *out the bytes [offset, offset + length), which the caller has
  // checked lie inside the file: either a view into the source's own memory
  // (valid while the source lives) or into *scratch, which it fills.
  virtual Status ReadAt(int64_t offset, int64_t length, std::string* scratch,
                        std::string_view* out) const = 0;
  // True when ReadAt's views point into memory that lives as long as the
  // source (then batches may point into it without a copy).
  virtual bool views_outlive_reads() const { return false; }
};

// The whole file in memory, not owned: the bytes must outlive the source,
// the reader and every batch read from it. Thread-safe.
class MemorySource final : public RandomAccessSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  int64_t size_bytes() const override { return static_cast<int64_t>(bytes_.size()); }
  Status ReadAt(int64_t offset, int64_t length, std::string* scratch,
                std::string_view* out) const override;
  bool views_outlive_reads() const override { return true; }

 private:
  std::string_view bytes_;
};

// Decoded bytes that the readers sharing it may hold at once, so one
// job's decoding of hostile files (a tiny page claiming a huge decompressed
// size, a run of billions of one value) fails before it allocates instead
// of exhausting the server's memory. Each page is charged before it is
// decompressed, from its header: the decompressed size plus its values and
// levels as decoded; the batch holds the charge until it is destroyed.
// Thread-safe.
class DecodeBudget {
 public:
  // `name` goes into the error ("exceeds <name> of N bytes").
  DecodeBudget(int64_t limit_bytes, std::string name)
      : limit_(limit_bytes), name_(std::move(name)) {}
  DecodeBudget(const DecodeBudget&) = delete;
  DecodeBudget& operator=(const DecodeBudget&) = delete;

  // Takes `bytes` if they fit. Errors: FailedPrecondition naming the budget
  // and `what`, nothing taken.
  Status Charge(int64_t bytes, const std::string& what);
  void Release(int64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  int64_t used_bytes() const { return used_.load(std::memory_order_relaxed); }
  int64_t limit_bytes() const { return limit_; }

 private:
  const int64_t limit_;
  const std::string name_;
  std::atomic<int64_t> used_{0};
};

// What one holder charged to a DecodeBudget, given back when it dies.
// Move-only.
class BudgetCharge {
 public:
  BudgetCharge() = default;
  explicit BudgetCharge(DecodeBudget* budget) : budget_(budget) {}
  BudgetCharge(BudgetCharge&& other) noexcept
      : budget_(std::exchange(other.budget_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  BudgetCharge& operator=(BudgetCharge&& other) noexcept {
    if (this != &other) {
      Reset();
      budget_ = std::exchange(other.budget_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  ~BudgetCharge() { Reset(); }

  // Charges `bytes` more (nothing without a budget). Errors: Charge's.
  Status Add(int64_t bytes, const std::string& what) {
    if (budget_ == nullptr || bytes <= 0) return Status::OK();
    ST_TRY(budget_->Charge(bytes, what));
    bytes_ += bytes;
    return Status::OK();
  }
  void Reset() {
    if (budget_ != nullptr && bytes_ > 0) budget_->Release(bytes_);
    bytes_ = 0;
  }
  int64_t bytes() const { return bytes_; }

 private:
  DecodeBudget* budget_ = nullptr;
  int64_t bytes_ = 0;
};

struct ReaderOptions {
  // Largest footer accepted (pyarrow's footer for thousands of columns is a
  // few MB).
  int64_t max_footer_bytes = 64LL << 20;
  // Largest page, compressed or decompressed. parquet-mr and parquet-cpp
  // write 1 MiB pages; 256 MiB leaves room for odd writers and bounds what a
  // hostile header can make us allocate.
  int64_t max_page_bytes = 256LL << 20;
  // Most level entries in one column chunk (one ColumnBatch).
  int64_t max_chunk_values = 256LL << 20;
  // Not owned; must outlive the reader and its batches. Null: no budget
  // beyond the caps above.
  DecodeBudget* budget = nullptr;
};

// Column chunk statistics as written (PLAIN-encoded bounds).
struct ColumnStatistics {
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> min_value;  // parquet.thrift min_value (field 6).
  std::optional<std::string> max_value;  // max_value (field 5).
  // The deprecated signed-order min/max (fields 2/1) some old writers emit.
  std::optional<std::string> legacy_min;
  std::optional<std::string> legacy_max;
};

struct ColumnChunkInfo {
  PhysicalType physical_type = PhysicalType::kInt32;
  std::vector<std::string> path;  // path_in_schema
  // The codec number as written; values beyond Codec's are read as Unsupported.
  Codec codec = Codec::kUncompressed;
  std::vector<int32_t> encodings;  // parquet.thrift Encoding numbers.
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<ColumnStatistics> statistics;
};

struct RowGroupInfo {
  std::vector<ColumnChunkInfo> columns;  // Schema::columns() order.
  int64_t num_rows = 0;
  int64_t total_byte_size = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
};

struct FileMetadata {
  int32_t version = 0;
  Schema schema;  // Field ids and logical types as the file has them.
  int64_t num_rows = 0;
  std::vector<RowGroupInfo> row_groups;
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
  std::string created_by;
  int64_t footer_size_bytes = 0;
};

// One column chunk: every level entry of one leaf column in one row group.
// The arrays follow FileWriter's batch convention: def_levels/rep_levels hold
// num_levels entries, or are empty when the column's max level is 0; values
// are dense (only the entries at max_def_level), in the vector named for
// physical_type: bools (0/1) for BOOLEAN, int32s, int64s, floats, doubles,
// bytes for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY. Decimals, dates, times and
// timestamps stay in their physical form (the unit of a TIME/TIMESTAMP is
// the column's LogicalType::unit).
//
// `bytes` point into `storage` (decompressed pages, the dictionary) or, for
// uncompressed pages of a source whose views outlive reads, into the
// source's memory. Move-only.
struct ColumnBatch {
  int column = 0;
  PhysicalType physical_type = PhysicalType::kInt32;
  int64_t num_levels = 0;
  int64_t num_rows = 0;
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  std::vector<uint8_t> bools;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<std::string_view> bytes;
  std::vector<std::unique_ptr<char[]>> storage;
  // The decoded bytes charged to ReaderOptions::budget for this batch.
  BudgetCharge charge;

  // Dense values held (entries at max_def_level).
  int64_t num_values() const;
};

class FileReader {
 public:
  // Reads and checks the magic at both ends and parses the footer; builds
  // the Schema. Errors: Corruption (wrong magic, a footer length past the
  // file, malformed Thrift, a schema tree whose child counts do not add up,
  // row groups whose column count or types disagree with the schema,
  // column chunk ranges outside the file); Unsupported ("PARE" encrypted
  // footer, INT96, a schema shape Schema::Make rejects); the source's error.
  static Result<std::unique_ptr<FileReader>> Open(std::unique_ptr<RandomAccessSource> source,
                                                  ReaderOptions options = {});
  // Open(MemorySource(bytes)): the bytes must outlive the reader and its batches.
  static Result<std::unique_ptr<FileReader>> Open(std::string_view bytes,
                                                  ReaderOptions options = {});

  const FileMetadata& metadata() const { return metadata_; }
  const Schema& schema() const { return metadata_.schema; }
  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }

  // Decodes one column chunk. Errors: InvalidArgument for indexes out of
  // range; Corruption for malformed pages (naming the column, row group and
  // page); Unsupported for a codec or encoding listed above as not read.
  Result<ColumnBatch> ReadColumn(int row_group, int column) const;

  // Column `column` of `row_group` as an EncodedChunk for
  // FileWriter::AppendEncodedRowGroup: a view of the chunk's bytes (into the
  // source's memory, or into *scratch, which must then outlive the chunk's
  // use) with counts and bounds computed from `decoded`, ReadColumn's batch
  // of the same chunk, so nothing of the input's own statistics is trusted
  // and every page was decoded once. Errors: InvalidArgument for indexes
  // out of range or a batch of another column; the source's.
  Result<EncodedChunk> EncodedChunkOf(int row_group, int column, const ColumnBatch& decoded,
                                      std::string* scratch) const;

  // Every column of a row group assembled into rows (Struct values in schema
  // order, as FileWriter::WriteRow takes them): decimals become Decimal,
  // strings String, other BYTE_ARRAY/FIXED Binary. For tests and tools; the
  // columnar path is ReadColumn. Errors: ReadColumn's; Corruption when the
  // columns' levels do not assemble into num_rows rows.
  Result<std::vector<Value>> ReadRows(int row_group) const;

 private:
  FileReader(std::unique_ptr<RandomAccessSource> source, ReaderOptions options)
      : source_(std::move(source)), options_(options) {}

  std::unique_ptr<RandomAccessSource> source_;
  ReaderOptions options_;
  FileMetadata metadata_;
};

// Writes one batch to `writer` column batch.column through the matching
// Write*Batch (the caller then calls EndRows once every column received
// the same rows). Errors: the writer's.
Status WriteColumnBatch(FileWriter* writer, const ColumnBatch& batch);

// Rows assembled from one row group's batches (ReadRows' second half, for
// callers that already hold the batches). Errors: Corruption as for ReadRows.
Result<std::vector<Value>> AssembleRows(const Schema& schema,
                                        const std::vector<ColumnBatch>& batches, int64_t num_rows);

}  // namespace st::parquet
