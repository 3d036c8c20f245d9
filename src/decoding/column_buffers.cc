#include "decoding/column_buffers_internal.h"

namespace st::decoding {
namespace {

template <typename T>
void AppendVector(std::vector<T>& to, const std::vector<T>& from) {
  if (!from.empty()) to.insert(to.end(), from.begin(), from.end());
}

template <typename T>
int64_t VectorBytes(const std::vector<T>& v) {
  return static_cast<int64_t>(v.size() * sizeof(T));
}

}  // namespace

int64_t ColumnBuffer::MemoryBytes() const {
  return VectorBytes(def) + VectorBytes(rep) + VectorBytes(bools) + VectorBytes(i32) +
         VectorBytes(i64) + VectorBytes(f32) + VectorBytes(f64) +
         static_cast<int64_t>(arena.size()) + VectorBytes(ends);
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

void ColumnBuffers::Append(const ColumnBuffers& other) {
  for (size_t i = 0; i < columns_.size(); ++i) {
    ColumnBuffer& to = columns_[i];
    const ColumnBuffer& from = other.columns_[i];
    AppendVector(to.def, from.def);
    AppendVector(to.rep, from.rep);
    switch (to.physical) {
      case parquet::PhysicalType::kBoolean:
        AppendVector(to.bools, from.bools);
        break;
      case parquet::PhysicalType::kInt32:
        AppendVector(to.i32, from.i32);
        break;
      case parquet::PhysicalType::kInt64:
        AppendVector(to.i64, from.i64);
        break;
      case parquet::PhysicalType::kFloat:
        AppendVector(to.f32, from.f32);
        break;
      case parquet::PhysicalType::kDouble:
        AppendVector(to.f64, from.f64);
        break;
      case parquet::PhysicalType::kByteArray:
      case parquet::PhysicalType::kFixedLenByteArray: {
        const auto base = static_cast<uint32_t>(to.arena.size());
        to.arena.append(from.arena);
        for (uint32_t end : from.ends) to.ends.push_back(base + end);
        break;
      }
    }
  }
  rows_ += other.rows_;
  int64_t added = 0;
  for (const auto& c : other.columns_) added += c.MemoryBytes();
  memory_bytes_ += added;
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
  memory_bytes_ = 0;
}

}  // namespace st::decoding
