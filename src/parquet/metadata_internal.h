// Thrift structures of parquet.thrift that we write (PageHeader, FileMetaData
// and what they contain), as plain structs plus their compact serializers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parquet/schema.h"
#include "parquet/writer_options.h"

namespace st::parquet::internal {

enum class Encoding : int32_t { kPlain = 0, kRle = 3, kRleDictionary = 8 };

// A v1 DATA_PAGE header (levels RLE) or a DICTIONARY_PAGE header (PLAIN).
void AppendDataPageHeader(int32_t uncompressed_size, int32_t compressed_size, int32_t num_values,
                          Encoding encoding, std::string* out);
void AppendDictionaryPageHeader(int32_t uncompressed_size, int32_t compressed_size,
                                int32_t num_values, std::string* out);

struct ColumnChunkMeta {
  std::vector<Encoding> encodings;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;  // Page headers included, as the spec says.
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
  int64_t null_count = 0;
  std::optional<std::pair<std::string, std::string>> min_max;  // Encoded bounds.
};

struct RowGroupMeta {
  std::vector<ColumnChunkMeta> columns;  // In Schema::columns() order.
  int64_t num_rows = 0;
  int64_t file_offset = 0;
  int64_t total_byte_size = 0;  // Uncompressed.
  int64_t total_compressed_size = 0;
};

std::string SerializeFileMetaData(const Schema& schema, const std::vector<RowGroupMeta>& row_groups,
                                  int64_t num_rows, Codec codec,
                                  const std::vector<std::pair<std::string, std::string>>& kv,
                                  const std::string& created_by);

}  // namespace st::parquet::internal
