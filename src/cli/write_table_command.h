// `streamtables dev write-table`: writes a built-in test table through the
// real engine (Parquet data files, Avro manifests, v2 metadata JSON) so that
// foreign readers can be checked against it.
//
// Rows are a pure function of (seed, row index): row i of a table written with
// --seed S is the same however the rows are split into commits, files or runs.
// A second run on an existing table continues its row indexes from the
// current snapshot's total-records.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "common/status.h"

namespace st::cli {

struct WriteTableOptions {
  std::string
      warehouse;  // Local directory; made absolute. Tables live at <warehouse>/<ns>/<table>.
  std::string namespace_name = "db";
  std::string table = "t";
  std::string schema = "all-types";  // A BuiltinTableNames() entry.
  std::string partition_by;          // partition_expression.h syntax; empty = unpartitioned.
  int64_t rows = 1000;               // Per commit.
  uint64_t seed = 1;
  int commits = 1;
  // Parquet settings. A new table records the given ones as its write.*
  // properties; on an existing table they override its properties for this
  // run only. Unset: the table's property, else Iceberg's default.
  std::optional<std::string> codec;  // zstd, snappy, gzip, uncompressed.
  std::optional<int64_t> row_group_bytes;
  std::optional<int64_t> page_bytes;
  std::optional<int64_t> target_file_bytes;  // write.target-file-size-bytes
  std::string dump_rows;  // JSON-lines file of this run's rows (row_json.h); "" = none.
};

// The seed of row `index`'s generator under table seed `seed`.
uint64_t RowSeed(uint64_t seed, int64_t index);

// Runs the command; progress lines go to `log`. Returns the metadata file
// location of the last commit. An existing table (the highest-numbered
// metadata/NNNNN-*.metadata.json under it) is continued; its schema must be
// the built-in one and --partition-by, when given, must match its spec.
// Errors: InvalidArgument for bad options or a mismatching existing table
// (the message names the flag), Corruption for unreadable metadata, whatever
// the engine returns otherwise.
Result<std::string> RunWriteTable(const WriteTableOptions& options, std::ostream& log);

}  // namespace st::cli
