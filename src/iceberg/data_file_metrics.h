// Iceberg data-file metrics from a Parquet file summary (docs/api-contract-notes.md §5.4):
// column_sizes, value_counts, null_value_counts, nan_value_counts and
// lower/upper bounds per leaf field id, with bounds converted from Parquet's
// PLAIN encoding to the single-value serialization (decimals become minimal
// big-endian two's complement whatever their physical type).
//
// Metrics modes follow the table property write.metadata.metrics.default:
// "none", "counts", "truncate(N)" (the default, N = 16) or "full". Under
// truncate(N), string bounds keep N code points and binary bounds N bytes; a
// truncated upper bound is then incremented at its last code point / byte
// that can be incremented (walking backwards, as Java's writer does) and is
// dropped when none can. Fields inside lists and maps get counts but no
// bounds, like Java. Per-column overrides are not supported.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/schema.h"
#include "parquet/file_writer.h"

namespace st::iceberg {

struct MetricsMode {
  enum class Kind { kNone, kCounts, kTruncate, kFull };
  Kind kind = Kind::kTruncate;
  int truncate_length = 16;

  // Parses the property value. Errors: InvalidArgument naming the value.
  static Result<MetricsMode> Parse(std::string_view text);
};

// Fills record_count, file_size_in_bytes, split_offsets and the metric maps
// of `data_file` (other fields untouched). Leaf columns without a field id or
// whose id is not in `schema` are skipped. Errors: Corruption when a bound's
// length does not fit its column type.
Status ApplyParquetMetrics(const Schema& schema, const parquet::FileSummary& summary,
                           const MetricsMode& mode, DataFile* data_file);

// The truncate(N) rules on their own (UTF-8 in, UTF-8 out).
std::string TruncateStringLower(std::string_view utf8, int code_points);
std::optional<std::string> TruncateStringUpper(std::string_view utf8, int code_points);
std::string TruncateBinaryLower(std::string_view bytes, int length);
std::optional<std::string> TruncateBinaryUpper(std::string_view bytes, int length);

}  // namespace st::iceberg
