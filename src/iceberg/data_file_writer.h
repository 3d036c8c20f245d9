// DataFileWriter: writes a table's rows into Parquet data files and returns
// the DataFile records (with full metrics) to commit.
//
// Files go to `<data_location>/<partition path>/<uuid>-<NNNNN>.parquet`
// ("<data_location>/<file>" when unpartitioned), one open file per partition
// tuple; a file is closed and a new one started for its partition once its
// estimated size reaches target_file_size_bytes. Nothing is visible in the
// store before a file is closed (ObjectWriter::Commit); destroying the writer
// without Close() discards the open files.
//
// Not thread-safe. A rejected row (InvalidArgument: the row does not fit the
// schema, or a partition source value has the wrong kind) leaves the writer
// usable; any other error fails it, and every later call returns that error.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "common/value.h"
#include "iceberg/data_file.h"
#include "iceberg/data_file_metrics.h"
#include "iceberg/file_io.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "parquet/writer_options.h"

namespace st::iceberg {

struct DataFileWriterOptions {
  // Usually "<table location>/data" (write.data.path overrides it).
  std::string data_location;
  // write.target-file-size-bytes; Java's default of 512 MiB.
  int64_t target_file_size_bytes = 512LL << 20;
  // Codec, row group and page sizes (write.parquet.*); zstd by default.
  parquet::WriterOptions parquet;
  // write.metadata.metrics.default; truncate(16) by default.
  MetricsMode metrics;
};

// Options from a table's properties: write.data.path, write.target-file-size-bytes,
// write.parquet.compression-codec (zstd|snappy|gzip|uncompressed),
// write.parquet.compression-level, write.parquet.row-group-size-bytes,
// write.parquet.page-size-bytes, write.parquet.dict-size-bytes,
// write.metadata.metrics.default. `location` is the table location. Errors:
// InvalidArgument naming the property and its bad value.
Result<DataFileWriterOptions> DataFileWriterOptionsFromProperties(
    const std::string& location, const std::map<std::string, std::string>& properties);

class DataFileWriter {
 public:
  // `io` and `random` (file name UUIDs) are not owned and must outlive the
  // writer; `schema` and `spec` are copied. Errors: InvalidArgument when the
  // spec does not fit the schema or the options are bad.
  static Result<std::unique_ptr<DataFileWriter>> Make(FileIO& io, const Schema& schema,
                                                      const PartitionSpec& spec,
                                                      DataFileWriterOptions options,
                                                      Random& random);
  ~DataFileWriter();
  DataFileWriter(const DataFileWriter&) = delete;
  DataFileWriter& operator=(const DataFileWriter&) = delete;

  // One row: a Struct in schema field order (types.h value mapping).
  Status Write(const Value& row);

  // Closes every open file and returns the DataFiles written since Make, in
  // the order they were closed. Afterwards Write fails with FailedPrecondition.
  Result<std::vector<DataFile>> Close();

 private:
  class Impl;
  explicit DataFileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace st::iceberg
