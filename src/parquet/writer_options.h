// Options for FileWriter. Defaults follow what Iceberg's Java writer produces
// so our files look like the ones Spark and Flink write for the same table.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace st::parquet {

// Values are the Parquet CompressionCodec enum numbers.
enum class Codec { kUncompressed = 0, kSnappy = 1, kGzip = 2, kZstd = 6 };

struct WriterOptions {
  // Iceberg's default codec (write.parquet.compression-codec) is zstd.
  Codec codec = Codec::kZstd;
  // 3 is zstd's own default and what Iceberg Java uses when no level is set:
  // most of level 19's ratio on clickstream-like data at several times level
  // 19's speed. Used only for kZstd and kGzip (gzip: 1..9, -1 = zlib default).
  int compression_level = 3;
  // Target uncompressed size of a data page (Iceberg write.parquet.page-size-bytes).
  int64_t page_size_bytes = 1 << 20;
  // A page also ends after this many rows (Iceberg write.parquet.page-row-limit,
  // parquet-mr's page.row.count.limit). Without it a page of a low-cardinality
  // column holds millions of 1-bit indices: a large buffer to fill and fault
  // in, and one min/max for a reader to skip by.
  int64_t page_row_limit = 20000;
  // A row group is flushed once its buffered, encoded size reaches this
  // (Iceberg write.parquet.row-group-size-bytes). Memory use is about one row group.
  int64_t row_group_size_bytes = 128LL << 20;
  // Dictionary-encode every non-boolean column until its dictionary's plain
  // size passes the limit; then the rest of that column chunk is PLAIN.
  bool enable_dictionary = true;
  int64_t dictionary_page_size_limit = 1 << 20;
  // Written to the footer's key_value_metadata in order.
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
};

}  // namespace st::parquet
