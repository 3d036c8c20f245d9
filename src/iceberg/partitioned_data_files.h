// PartitionedDataFiles: the one partitioned, rolling set of Parquet data
// files every writer of table data uses. It owns one open file per partition
// tuple, names them `<data_location>/<partition path>/<uuid>-<NNNNN>.parquet`
// ("<data_location>/<file>" when unpartitioned), and closes each into a
// DataFile with partition values and metrics. Nothing is visible in the store
// before a file is closed (ObjectWriter::Commit); a file that received no row
// is discarded, never committed.
//
// The callers decide *what* goes into a file and *when* it rolls:
// iceberg::DataFileWriter writes Value rows one at a time and rolls at the
// table's target file size; the delivery writer (decoding::
// PartitionedFileWriter) shreds Kafka records into column buffers it keeps
// in each file's Attachment and rolls on size and on memory pressure.
//
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "common/value.h"
#include "iceberg/data_file.h"
#include "iceberg/data_file_metrics.h"
#include "iceberg/file_io.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"
#include "parquet/writer_options.h"

namespace st::iceberg {

// A Parquet codec by its Iceberg property name, any case: zstd, snappy, gzip,
// uncompressed (or none). Errors: InvalidArgument naming the text.
Result<parquet::Codec> ParquetCodecFromName(std::string_view name);

struct PartitionedDataFilesOptions {
  // Usually "<table location>/data"; trailing '/' are dropped. Must not be empty.
  std::string data_location;
  parquet::WriterOptions parquet;
  MetricsMode metrics;
};

class PartitionedDataFiles {
 public:
  // State a caller keeps with each open file (the delivery writer's column
  // buffers); destroyed with the file.
  class Attachment {
   public:
    virtual ~Attachment() = default;
  };

  struct File {
    std::string uri;
    Value partition;  // A Struct in spec field order.
    std::unique_ptr<storage::ObjectWriter> sink;
    std::unique_ptr<parquet::FileWriter> writer;
    std::unique_ptr<Attachment> attachment;
  };

  // `io` and `random` (the file-name UUID) are not owned and must outlive
  // this. Errors: InvalidArgument when the spec does not fit the schema (a
  // spec read from storage is re-validated), the schema has no Parquet form
  // or data_location is empty.
  static Result<std::unique_ptr<PartitionedDataFiles>> Make(FileIO& io, Schema schema,
                                                            PartitionSpec spec,
                                                            PartitionedDataFilesOptions options,
                                                            Random& random);

  const Schema& schema() const { return schema_; }
  const PartitionSpec& spec() const { return spec_; }
  const parquet::Schema& parquet_schema() const { return parquet_schema_; }

  // The open file for a partition tuple (values in spec field order, already
  // transformed), opening one when there is none. The previous call's file is
  // found without building a key, because consecutive rows mostly share a
  // partition. Errors: a value of the wrong kind for its partition field
  // (InvalidArgument), storage failures.
  Result<File*> FileFor(const std::vector<Value>& partition_values);

  // Closes `file` (its Parquet footer, then Commit) and records its DataFile
  // unless it has no rows; `file` is gone afterwards, whatever the result.
  Status Close(File* file);
  // Closes every open file (stops at the first error, dropping the rest).
  Status CloseAll();

  // The open files, for callers that pick one to close (largest first).
  std::vector<File*> OpenFiles() const;
  bool HasOpenFiles() const { return !open_.empty(); }

  // The DataFiles closed since Make or the last TakeClosed, in close order.
  std::vector<DataFile> TakeClosed();
  // Best effort: drops the open files unwritten and deletes the files closed
  // since the last TakeClosed from the store.
  void DiscardAll();

 private:
  PartitionedDataFiles(FileIO& io, Schema schema, PartitionSpec spec, TypePtr partition_type,
                       parquet::Schema parquet_schema, PartitionedDataFilesOptions options,
                       std::string file_prefix);
  Result<std::unique_ptr<File>> Open(Value partition);

  FileIO& io_;
  Schema schema_;
  PartitionSpec spec_;
  TypePtr partition_type_;
  parquet::Schema parquet_schema_;
  PartitionedDataFilesOptions options_;
  std::string file_prefix_;
  int file_count_ = 0;
  // Keyed by the partition tuple's single-value bytes (equal exactly when the
  // tuples are).
  std::map<std::string, std::unique_ptr<File>> open_;
  File* last_ = nullptr;
  std::vector<DataFile> closed_;
};

}  // namespace st::iceberg
