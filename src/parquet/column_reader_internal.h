// Decoding of one column chunk (its dictionary and data pages) into a
// ColumnBatch.
#pragma once

#include "common/status.h"
#include "parquet/file_reader.h"

namespace st::parquet::internal {

struct ChunkToRead {
  const RandomAccessSource* source = nullptr;
  const ReaderOptions* options = nullptr;
  const ColumnDescriptor* column = nullptr;
  const ColumnChunkInfo* chunk = nullptr;
  int row_group = 0;
  int column_index = 0;
};

// Errors: as FileReader::ReadColumn.
Result<ColumnBatch> ReadColumnChunk(const ChunkToRead& in);

}  // namespace st::parquet::internal
