#include "parquet/batch_ops.h"

#include <string>
#include <type_traits>
#include <utility>

namespace st::parquet {

namespace {

// Calls fn(vector&) for the value vector of `type` in `batch`.
template <typename Batch, typename Fn>
void VisitValues(Batch& batch, PhysicalType type, Fn&& fn) {
  switch (type) {
    case PhysicalType::kBoolean:
      fn(batch.bools);
      return;
    case PhysicalType::kInt32:
      fn(batch.int32s);
      return;
    case PhysicalType::kInt64:
      fn(batch.int64s);
      return;
    case PhysicalType::kFloat:
      fn(batch.floats);
      return;
    case PhysicalType::kDouble:
      fn(batch.doubles);
      return;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      fn(batch.bytes);
      return;
  }
}

template <typename T>
void AppendRange(std::vector<T>* out, const std::vector<T>& in, int64_t begin, int64_t end) {
  out->insert(out->end(), in.begin() + begin, in.begin() + end);
}

std::string Where(const ColumnBatch& batch) { return "column " + std::to_string(batch.column); }

}  // namespace

Result<RowSpans> ComputeRowSpans(const ColumnBatch& batch, int16_t max_def_level) {
  const int64_t n = batch.num_levels;
  const bool has_def = !batch.def_levels.empty();
  const bool has_rep = !batch.rep_levels.empty();
  if ((has_def && static_cast<int64_t>(batch.def_levels.size()) != n) ||
      (has_rep && static_cast<int64_t>(batch.rep_levels.size()) != n)) {
    return Err(Corruption("parquet: level arrays of " + Where(batch) + " do not hold " +
                          std::to_string(n) + " entries"));
  }
  RowSpans spans;
  spans.level_starts.reserve(static_cast<size_t>(batch.num_rows) + 1);
  spans.value_starts.reserve(static_cast<size_t>(batch.num_rows) + 1);
  int64_t values = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!has_rep || batch.rep_levels[i] == 0) {
      spans.level_starts.push_back(i);
      spans.value_starts.push_back(values);
    } else if (i == 0) {
      return Err(Corruption("parquet: " + Where(batch) + " starts inside a row (rep level " +
                            std::to_string(batch.rep_levels[0]) + ")"));
    }
    if (!has_def || batch.def_levels[i] == max_def_level) ++values;
  }
  spans.level_starts.push_back(n);
  spans.value_starts.push_back(values);
  if (spans.num_rows() != batch.num_rows) {
    return Err(Corruption("parquet: " + Where(batch) + " holds " +
                          std::to_string(spans.num_rows()) + " rows, not " +
                          std::to_string(batch.num_rows)));
  }
  if (values != batch.num_values()) {
    return Err(Corruption("parquet: " + Where(batch) + " holds " +
                          std::to_string(batch.num_values()) + " values for " +
                          std::to_string(values) + " entries at the max definition level"));
  }
  return spans;
}

Result<ColumnBatch> TakeRows(const std::vector<const ColumnBatch*>& sources,
                             const std::vector<const RowSpans*>& spans,
                             const std::vector<RowRef>& rows, int16_t max_def_level) {
  if (sources.empty() || sources.size() != spans.size()) {
    return Err(InvalidArgument("parquet: TakeRows needs one RowSpans per source batch"));
  }
  ColumnBatch out;
  out.column = sources[0]->column;
  out.physical_type = sources[0]->physical_type;
  bool any_def = false;
  bool any_rep = false;
  for (size_t s = 0; s < sources.size(); ++s) {
    const ColumnBatch& src = *sources[s];
    if (src.column != out.column || src.physical_type != out.physical_type) {
      return Err(InvalidArgument("parquet: TakeRows over batches of different columns or types"));
    }
    if (spans[s] == nullptr || spans[s]->num_rows() != src.num_rows) {
      return Err(InvalidArgument("parquet: TakeRows spans do not match their batch"));
    }
    any_def = any_def || !src.def_levels.empty();
    any_rep = any_rep || !src.rep_levels.empty();
  }
  // Size everything first so the copies below never reallocate.
  int64_t levels = 0;
  int64_t values = 0;
  for (const RowRef& ref : rows) {
    if (ref.source < 0 || static_cast<size_t>(ref.source) >= sources.size() || ref.row < 0 ||
        ref.row >= sources[ref.source]->num_rows) {
      return Err(InvalidArgument("parquet: TakeRows row " + std::to_string(ref.row) +
                                 " of source " + std::to_string(ref.source) + " is out of range"));
    }
    const RowSpans& sp = *spans[ref.source];
    levels += sp.level_starts[ref.row + 1] - sp.level_starts[ref.row];
    values += sp.value_starts[ref.row + 1] - sp.value_starts[ref.row];
  }
  if (any_def) out.def_levels.reserve(static_cast<size_t>(levels));
  if (any_rep) out.rep_levels.reserve(static_cast<size_t>(levels));
  VisitValues(out, out.physical_type, [&](auto& v) { v.reserve(static_cast<size_t>(values)); });

  for (const RowRef& ref : rows) {
    const ColumnBatch& src = *sources[ref.source];
    const RowSpans& sp = *spans[ref.source];
    const int64_t lb = sp.level_starts[ref.row];
    const int64_t le = sp.level_starts[ref.row + 1];
    if (any_def) {
      if (src.def_levels.empty()) {
        out.def_levels.insert(out.def_levels.end(), static_cast<size_t>(le - lb), max_def_level);
      } else {
        AppendRange(&out.def_levels, src.def_levels, lb, le);
      }
    }
    if (any_rep) {
      if (src.rep_levels.empty()) {
        out.rep_levels.insert(out.rep_levels.end(), static_cast<size_t>(le - lb), 0);
      } else {
        AppendRange(&out.rep_levels, src.rep_levels, lb, le);
      }
    }
    const int64_t vb = sp.value_starts[ref.row];
    const int64_t ve = sp.value_starts[ref.row + 1];
    VisitValues(out, out.physical_type, [&](auto& v) {
      using Vec = std::remove_reference_t<decltype(v)>;
      const Vec* in = nullptr;
      VisitValues(src, src.physical_type, [&](const auto& s) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s)>, Vec>) in = &s;
      });
      AppendRange(&v, *in, vb, ve);
    });
  }
  out.num_levels = levels;
  out.num_rows = static_cast<int64_t>(rows.size());
  return out;
}

Result<ColumnBatch> TakeRows(const ColumnBatch& source, const RowSpans& spans,
                             const std::vector<int64_t>& rows, int16_t max_def_level) {
  std::vector<RowRef> refs;
  refs.reserve(rows.size());
  for (int64_t row : rows) refs.push_back(RowRef{0, row});
  return TakeRows({&source}, {&spans}, refs, max_def_level);
}

Status AppendBatch(ColumnBatch* dest, ColumnBatch source, int16_t max_def_level) {
  if (dest->num_levels == 0 && dest->num_rows == 0) {
    dest->column = source.column;
    dest->physical_type = source.physical_type;
  }
  if (dest->column != source.column || dest->physical_type != source.physical_type) {
    return InvalidArgument("parquet: AppendBatch of " + Where(source) + " to " + Where(*dest));
  }
  auto merge_levels = [](std::vector<int16_t>* d, int64_t d_levels, std::vector<int16_t>* s,
                         int64_t s_levels, int16_t fill) {
    if (d->empty() && s->empty()) return;
    if (d->empty()) d->assign(static_cast<size_t>(d_levels), fill);
    if (s->empty()) {
      d->insert(d->end(), static_cast<size_t>(s_levels), fill);
    } else {
      d->insert(d->end(), s->begin(), s->end());
    }
  };
  merge_levels(&dest->def_levels, dest->num_levels, &source.def_levels, source.num_levels,
               max_def_level);
  merge_levels(&dest->rep_levels, dest->num_levels, &source.rep_levels, source.num_levels, 0);
  VisitValues(*dest, dest->physical_type, [&](auto& d) {
    using Vec = std::remove_reference_t<decltype(d)>;
    VisitValues(source, source.physical_type, [&](auto& s) {
      if constexpr (std::is_same_v<std::remove_reference_t<decltype(s)>, Vec>) {
        d.insert(d.end(), s.begin(), s.end());
      }
    });
  });
  for (auto& block : source.storage) dest->storage.push_back(std::move(block));
  dest->num_levels += source.num_levels;
  dest->num_rows += source.num_rows;
  return Status::OK();
}

}  // namespace st::parquet
