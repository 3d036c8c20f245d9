// Decoded values of leaf columns in the Parquet batch API's form (definition
// and repetition levels plus dense values), and their hand-off to a
// parquet::FileWriter.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"

namespace st::decoding {

// One leaf column. Exactly one value vector is used, by physical type;
// BYTE_ARRAY / FIXED values are concatenated in `arena` with end offsets.
struct ColumnBuffer {
  parquet::PhysicalType physical = parquet::PhysicalType::kInt32;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  std::vector<int16_t> def;
  std::vector<int16_t> rep;  // Only when max_rep > 0.
  std::vector<uint8_t> bools;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<float> f32;
  std::vector<double> f64;
  std::string arena;
  std::vector<uint32_t> ends;

  void PushLevels(int16_t d, int16_t r) {
    def.push_back(d);
    if (max_rep > 0) rep.push_back(r);
  }
  void PushNull(int16_t d, int16_t r) { PushLevels(d, r); }
  void EndBytes() { ends.push_back(static_cast<uint32_t>(arena.size())); }
  // Entries in the value vector of this column's physical type.
  size_t ValueCount() const;
};

// Where each column ended at some point, to roll back or move one record.
struct ColumnMark {
  size_t levels = 0;
  size_t values = 0;
  size_t arena = 0;
};

// All leaf columns of one schema, holding whole rows.
class ColumnBuffers {
 public:
  explicit ColumnBuffers(const parquet::Schema& schema);

  ColumnBuffer& column(int index) { return columns_[index]; }
  int64_t rows() const { return rows_; }
  // Marks one more row complete in every column, after its levels and
  // values were pushed.
  void AddRow() { ++rows_; }

  // Records where every column ends now.
  void Mark(std::vector<ColumnMark>* marks) const;
  // Drops everything pushed after `marks` (a rejected record).
  void Truncate(const std::vector<ColumnMark>& marks);
  // Appends what `from` (same schema) holds after `from_marks` as one more
  // row; `from` is unchanged.
  void AppendRecord(const ColumnBuffers& from, const std::vector<ColumnMark>& from_marks);
  // Writes every column as one batch, EndRows, and empties the buffers.
  // Errors: the writer's.
  Status FlushTo(parquet::FileWriter& writer);
  void Clear();

 private:
  std::vector<ColumnBuffer> columns_;
  std::vector<std::string_view> views_;  // Reused by FlushTo.
  int64_t rows_ = 0;
};

}  // namespace st::decoding
