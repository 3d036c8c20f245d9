// `streamtables dev parquet-cat FILE`: reads a Parquet file with our reader
// (parquet/file_reader.h) and prints it, for tests and benchmarks.
//
//   default          one JSON object per row, keyed by top-level field name:
//                    struct = object, list = array, map = array of [key, value],
//                    ints and dates/times/timestamps = integers in the file's
//                    unit, float/double = numbers or "NaN"/"Infinity"/"-Infinity",
//                    decimal = string with exactly `scale` fraction digits,
//                    string = string, uuid = canonical string, fixed/binary =
//                    base64, null = null
//   --metadata       one JSON object: schema (paths, field ids, types, levels),
//                    row groups and column chunks (codec, encodings, stats as
//                    base64), key-value metadata, created_by
//   --decode-only    decodes every column of every row group without printing
//                    values; prints one JSON line per --repeat run with the
//                    seconds it took (read file + open + decode), rows, values
#pragma once

#include <iosfwd>
#include <string>

#include "common/status.h"

namespace st::cli {

struct ParquetCatOptions {
  std::string file;
  bool metadata = false;
  bool decode_only = false;
  int threads = 1;  // --decode-only: column chunks decoded in parallel.
  int repeat = 1;   // --decode-only: runs.
};

// Errors: IoError for an unreadable file; the reader's errors.
Status RunParquetCat(const ParquetCatOptions& options, std::ostream& out);

}  // namespace st::cli
