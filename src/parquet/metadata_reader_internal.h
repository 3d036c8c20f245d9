// Parsing of parquet.thrift's FileMetaData and PageHeader from the compact
// protocol (the reading half of metadata_internal.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "parquet/file_reader.h"

namespace st::parquet::internal {

// Parses the footer (without its length and magic) and builds the Schema.
// Errors: as FileReader::Open lists for the footer.
Result<FileMetadata> ParseFileMetadata(std::string_view footer);

enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3
};

struct PageHeader {
  int32_t type = -1;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  // DATA_PAGE / DATA_PAGE_V2 / DICTIONARY_PAGE headers, flattened.
  int32_t num_values = 0;
  int32_t encoding = 0;
  int32_t def_level_encoding = 3;  // RLE
  int32_t rep_level_encoding = 3;
  int32_t num_nulls = 0;  // v2
  int32_t num_rows = 0;   // v2
  int32_t def_levels_byte_length = 0;
  int32_t rep_levels_byte_length = 0;
  bool is_compressed = true;  // v2
  bool has_type_header = false;
};

// Parses one page header at data[0..size); *header_bytes is its length.
// Errors: Corruption (malformed, negative sizes, a missing sub-header).
Status ParsePageHeader(const uint8_t* data, size_t size, PageHeader* header, size_t* header_bytes);

}  // namespace st::parquet::internal
