// Parquet files from outside bytes (data files a compaction reads):
// FileReader::Open (magic, footer, schema), every column chunk of every row
// group (page headers, decompression, levels, every value encoding) and row
// assembly, with the reader's allocation caps lowered so hostile sizes fail
// fast instead of reaching the fuzzer's memory limit.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parquet/file_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view file(reinterpret_cast<const char*>(data), size);
  st::parquet::ReaderOptions options;
  options.max_footer_bytes = 1 << 20;
  options.max_page_bytes = 4 << 20;
  options.max_chunk_values = 1 << 18;
  auto reader = st::parquet::FileReader::Open(file, options);
  if (!reader.has_value()) return 0;
  const auto& r = **reader;
  for (int g = 0; g < r.num_row_groups() && g < 16; ++g) {
    for (int c = 0; c < r.schema().num_columns() && c < 64; ++c) (void)r.ReadColumn(g, c);
    (void)r.ReadRows(g);
  }
  return 0;
}
