// Rewriting one compaction group (compaction.h) into new data files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/data_file_writer.h"
#include "iceberg/file_io.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/sort_order.h"
#include "maintenance/compaction.h"
#include "parquet/file_reader.h"
#include "parquet/schema.h"

namespace st::maintenance {

enum class RowOrder { kInput, kSort, kZOrder };

// Where and how a job writes; shared by its groups. References outlive it.
struct RewriteTarget {
  iceberg::FileIO& io;
  const iceberg::Schema& schema;          // The table's current schema.
  const parquet::Schema& parquet_schema;  // ToParquetSchema(schema).
  // data_location, parquet options and metrics mode from the table's properties.
  const iceberg::DataFileWriterOptions& write;
  int64_t target_file_size_bytes = 0;
  std::string file_prefix;  // A UUID unique to the job run.
  // The job's CompactionOptions::memory_budget_bytes: input files and
  // their decoded batches are charged to it while held. Null: unbounded.
  parquet::DecodeBudget* budget = nullptr;
};

struct GroupRewrite {
  std::vector<iceberg::DataFile> written;
  int64_t records = 0;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
};

// Rewrites `group` (whose spec is `spec`) in `row_order` (`order` for kSort
// and kZOrder). `*file_counter` numbers the output files of the job. On
// error every file this call wrote is deleted (best effort) before the
// error returns. Errors: Corruption or Unsupported from an input file, with
// the file's path as context; Corruption when a file's rows differ from its
// manifest record_count; the store's and writer's errors.
Result<GroupRewrite> RewriteGroup(const RewriteTarget& target, const CompactionGroup& group,
                                  const iceberg::PartitionSpec& spec, RowOrder row_order,
                                  const iceberg::SortOrder* order, int* file_counter);

}  // namespace st::maintenance
