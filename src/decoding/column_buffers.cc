#include "decoding/column_buffers_internal.h"

namespace st::decoding {
namespace {

template <typename T>
void AppendTail(std::vector<T>& to, const std::vector<T>& from, size_t start) {
  if (from.size() > start) to.insert(to.end(), from.begin() + start, from.end());
}

}  // namespace

size_t ColumnBuffer::ValueCount() const {
  switch (physical) {
    case parquet::PhysicalType::kBoolean:
      return bools.size();
    case parquet::PhysicalType::kInt32:
      return i32.size();
    case parquet::PhysicalType::kInt64:
      return i64.size();
    case parquet::PhysicalType::kFloat:
      return f32.size();
    case parquet::PhysicalType::kDouble:
      return f64.size();
    case parquet::PhysicalType::kByteArray:
    case parquet::PhysicalType::kFixedLenByteArray:
      return ends.size();
  }
  return 0;
}

ColumnBuffers::ColumnBuffers(const parquet::Schema& schema) {
  columns_.resize(schema.columns().size());
  for (size_t i = 0; i < columns_.size(); ++i) {
    const auto& descriptor = schema.columns()[i];
    columns_[i].physical = descriptor.physical_type;
    columns_[i].max_def = descriptor.max_def_level;
    columns_[i].max_rep = descriptor.max_rep_level;
  }
}

void ColumnBuffers::Mark(std::vector<ColumnMark>* marks) const {
  marks->resize(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) {
    const ColumnBuffer& c = columns_[i];
    (*marks)[i] = ColumnMark{c.def.size(), c.ValueCount(), c.arena.size()};
  }
}

void ColumnBuffers::Truncate(const std::vector<ColumnMark>& marks) {
  for (size_t i = 0; i < columns_.size(); ++i) {
    ColumnBuffer& c = columns_[i];
    const ColumnMark& m = marks[i];
    c.def.resize(m.levels);
    if (c.max_rep > 0) c.rep.resize(m.levels);
    switch (c.physical) {
      case parquet::PhysicalType::kBoolean:
        c.bools.resize(m.values);
        break;
      case parquet::PhysicalType::kInt32:
        c.i32.resize(m.values);
        break;
      case parquet::PhysicalType::kInt64:
        c.i64.resize(m.values);
        break;
      case parquet::PhysicalType::kFloat:
        c.f32.resize(m.values);
        break;
      case parquet::PhysicalType::kDouble:
        c.f64.resize(m.values);
        break;
      case parquet::PhysicalType::kByteArray:
      case parquet::PhysicalType::kFixedLenByteArray:
        c.ends.resize(m.values);
        c.arena.resize(m.arena);
        break;
    }
  }
}

void ColumnBuffers::AppendRecord(const ColumnBuffers& from,
                                 const std::vector<ColumnMark>& from_marks) {
  for (size_t i = 0; i < columns_.size(); ++i) {
    ColumnBuffer& to = columns_[i];
    const ColumnBuffer& src = from.columns_[i];
    const ColumnMark& m = from_marks[i];
    AppendTail(to.def, src.def, m.levels);
    if (to.max_rep > 0) AppendTail(to.rep, src.rep, m.levels);
    switch (to.physical) {
      case parquet::PhysicalType::kBoolean:
        AppendTail(to.bools, src.bools, m.values);
        break;
      case parquet::PhysicalType::kInt32:
        AppendTail(to.i32, src.i32, m.values);
        break;
      case parquet::PhysicalType::kInt64:
        AppendTail(to.i64, src.i64, m.values);
        break;
      case parquet::PhysicalType::kFloat:
        AppendTail(to.f32, src.f32, m.values);
        break;
      case parquet::PhysicalType::kDouble:
        AppendTail(to.f64, src.f64, m.values);
        break;
      case parquet::PhysicalType::kByteArray:
      case parquet::PhysicalType::kFixedLenByteArray: {
        const size_t base = to.arena.size();
        to.arena.append(src.arena, m.arena, std::string::npos);
        for (size_t k = m.values; k < src.ends.size(); ++k) {
          to.ends.push_back(static_cast<uint32_t>(base + (src.ends[k] - m.arena)));
        }
        break;
      }
    }
  }
  ++rows_;
}

Status ColumnBuffers::FlushTo(parquet::FileWriter& writer) {
  if (rows_ == 0) return Status::OK();
  for (size_t i = 0; i < columns_.size(); ++i) {
    ColumnBuffer& c = columns_[i];
    const int column = static_cast<int>(i);
    const auto n = static_cast<int64_t>(c.def.size());
    const int16_t* def = c.max_def > 0 ? c.def.data() : nullptr;
    const int16_t* rep = c.max_rep > 0 ? c.rep.data() : nullptr;
    switch (c.physical) {
      case parquet::PhysicalType::kBoolean:
        ST_TRY(writer.WriteBoolBatch(column, c.bools.data(), n, def, rep));
        break;
      case parquet::PhysicalType::kInt32:
        ST_TRY(writer.WriteInt32Batch(column, c.i32.data(), n, def, rep));
        break;
      case parquet::PhysicalType::kInt64:
        ST_TRY(writer.WriteInt64Batch(column, c.i64.data(), n, def, rep));
        break;
      case parquet::PhysicalType::kFloat:
        ST_TRY(writer.WriteFloatBatch(column, c.f32.data(), n, def, rep));
        break;
      case parquet::PhysicalType::kDouble:
        ST_TRY(writer.WriteDoubleBatch(column, c.f64.data(), n, def, rep));
        break;
      case parquet::PhysicalType::kByteArray:
      case parquet::PhysicalType::kFixedLenByteArray: {
        views_.clear();
        uint32_t start = 0;
        for (uint32_t end : c.ends) {
          views_.emplace_back(c.arena.data() + start, end - start);
          start = end;
        }
        ST_TRY(writer.WriteBytesBatch(column, views_.data(), n, def, rep));
        break;
      }
    }
  }
  ST_TRY(writer.EndRows(rows_));
  Clear();
  return Status::OK();
}

void ColumnBuffers::Clear() {
  for (auto& c : columns_) {
    c.def.clear();
    c.rep.clear();
    c.bools.clear();
    c.i32.clear();
    c.i64.clear();
    c.f32.clear();
    c.f64.clear();
    c.arena.clear();
    c.ends.clear();
  }
  rows_ = 0;
}

}  // namespace st::decoding
