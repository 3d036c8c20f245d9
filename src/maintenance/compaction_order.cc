#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <string>

#include "maintenance/compaction_order_internal.h"

namespace st::maintenance {

namespace {

// A sort key column: its position among the output columns and its type.
struct KeyColumn {
  int column = 0;
  const iceberg::Type* type = nullptr;
};

std::optional<KeyColumn> FindKeyColumn(const iceberg::Schema& schema,
                                       const parquet::Schema& columns, int32_t source_id) {
  const iceberg::NestedField* field = schema.FindField(source_id);
  if (field == nullptr || field->type == nullptr || !field->type->is_primitive()) {
    return std::nullopt;
  }
  for (int c = 0; c < columns.num_columns(); ++c) {
    const parquet::ColumnDescriptor& d = columns.columns()[c];
    // Repeated columns have no one value per row to order by.
    if (d.field_id == source_id && d.max_rep_level == 0) return KeyColumn{c, field->type.get()};
  }
  return std::nullopt;
}

// Flat row index → RowRef over the chunks.
std::vector<parquet::RowRef> AllRows(const GroupChunks& chunks) {
  std::vector<parquet::RowRef> rows;
  for (size_t c = 0; c < chunks.rows.size(); ++c) {
    for (int64_t r = 0; r < chunks.rows[c]; ++r) {
      rows.push_back(parquet::RowRef{static_cast<int32_t>(c), r});
    }
  }
  return rows;
}

std::vector<Value> KeyValues(const GroupChunks& chunks, const KeyColumn& key) {
  std::vector<Value> values;
  for (size_t c = 0; c < chunks.rows.size(); ++c) {
    const parquet::ColumnBatch& batch = chunks.batches[c][key.column];
    const parquet::RowSpans& spans = chunks.spans[c][key.column];
    for (int64_t r = 0; r < chunks.rows[c]; ++r) {
      values.push_back(ColumnValue(batch, spans, r, *key.type));
    }
  }
  return values;
}

template <typename T>
int Cmp(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareFloating(double a, double b) {
  const bool na = std::isnan(a);
  const bool nb = std::isnan(b);
  if (na || nb) return Cmp(na, nb);
  return Cmp(a, b);
}

}  // namespace

Value ColumnValue(const parquet::ColumnBatch& batch, const parquet::RowSpans& spans, int64_t row,
                  const iceberg::Type& type) {
  const int64_t v = spans.value_starts[row];
  if (spans.value_starts[row + 1] == v) return Value::Null();
  switch (batch.physical_type) {
    case parquet::PhysicalType::kBoolean:
      return Value::Bool(batch.bools[v] != 0);
    case parquet::PhysicalType::kInt32:
      if (type.id() == iceberg::TypeId::kDecimal) return Value::Decimal(batch.int32s[v]);
      return Value::Int32(batch.int32s[v]);
    case parquet::PhysicalType::kInt64:
      if (type.id() == iceberg::TypeId::kDecimal) return Value::Decimal(batch.int64s[v]);
      return Value::Int64(batch.int64s[v]);
    case parquet::PhysicalType::kFloat:
      return Value::Float(batch.floats[v]);
    case parquet::PhysicalType::kDouble:
      return Value::Double(batch.doubles[v]);
    case parquet::PhysicalType::kByteArray:
    case parquet::PhysicalType::kFixedLenByteArray: {
      const std::string_view bytes = batch.bytes[v];
      if (type.id() == iceberg::TypeId::kDecimal) {
        // Big-endian two's complement, sign-extended.
        Int128 unscaled = (!bytes.empty() && (static_cast<uint8_t>(bytes[0]) & 0x80)) ? -1 : 0;
        for (char ch : bytes) unscaled = (unscaled << 8) | static_cast<uint8_t>(ch);
        return Value::Decimal(unscaled);
      }
      if (type.id() == iceberg::TypeId::kString) return Value::String(std::string(bytes));
      return Value::Binary(std::string(bytes));
    }
  }
  return Value::Null();
}

int CompareValues(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return Cmp(static_cast<int>(a.kind()), static_cast<int>(b.kind()));
  switch (a.kind()) {
    case Value::Kind::kBool:
      return Cmp(a.bool_value(), b.bool_value());
    case Value::Kind::kInt32:
      return Cmp(a.int32_value(), b.int32_value());
    case Value::Kind::kInt64:
      return Cmp(a.int64_value(), b.int64_value());
    case Value::Kind::kFloat:
      return CompareFloating(a.float_value(), b.float_value());
    case Value::Kind::kDouble:
      return CompareFloating(a.double_value(), b.double_value());
    case Value::Kind::kDecimal:
      return Cmp(a.decimal_value(), b.decimal_value());
    case Value::Kind::kString:
    case Value::Kind::kBinary: {
      // std::string compares char, which may be signed; bytes order unsigned.
      const std::string& x = a.bytes_value();
      const std::string& y = b.bytes_value();
      const int c = std::memcmp(x.data(), y.data(), std::min(x.size(), y.size()));
      return c != 0 ? (c < 0 ? -1 : 1) : Cmp(x.size(), y.size());
    }
    default:
      return 0;
  }
}

uint64_t NormalizedKey(const Value& value) {
  constexpr uint64_t kSign = uint64_t{1} << 63;
  auto floating = [](double d) {
    if (std::isnan(d)) return ~uint64_t{0};
    const auto bits = std::bit_cast<uint64_t>(d);
    return (bits & kSign) != 0 ? ~bits : bits | kSign;
  };
  switch (value.kind()) {
    case Value::Kind::kNull:
      return 0;
    case Value::Kind::kBool:
      return value.bool_value() ? kSign : 1;
    case Value::Kind::kInt32:
      return static_cast<uint64_t>(static_cast<int64_t>(value.int32_value())) ^ kSign;
    case Value::Kind::kInt64:
      return static_cast<uint64_t>(value.int64_value()) ^ kSign;
    case Value::Kind::kFloat:
      return floating(value.float_value());
    case Value::Kind::kDouble:
      return floating(value.double_value());
    case Value::Kind::kDecimal: {
      const Int128 v = value.decimal_value();
      const Int128 lo = std::numeric_limits<int64_t>::min();
      const Int128 hi = std::numeric_limits<int64_t>::max();
      return static_cast<uint64_t>(static_cast<int64_t>(std::clamp(v, lo, hi))) ^ kSign;
    }
    case Value::Kind::kString:
    case Value::Kind::kBinary: {
      uint64_t key = 0;
      const std::string& bytes = value.bytes_value();
      for (size_t i = 0; i < 8; ++i) {
        key = (key << 8) | (i < bytes.size() ? static_cast<uint8_t>(bytes[i]) : 0);
      }
      return key;
    }
    default:
      return 0;
  }
}

Result<std::vector<parquet::RowRef>> SortOrderRows(const iceberg::Schema& schema,
                                                   const parquet::Schema& columns,
                                                   const GroupChunks& chunks,
                                                   const iceberg::SortOrder& order) {
  struct Key {
    std::vector<Value> values;  // Transformed, per flat row.
    bool descending = false;
    bool nulls_first = true;
  };
  std::vector<Key> keys;
  for (const iceberg::SortField& field : order.fields) {
    std::optional<KeyColumn> column = FindKeyColumn(schema, columns, field.source_id);
    if (!column.has_value()) continue;
    Key key;
    key.values = KeyValues(chunks, *column);
    if (field.transform.kind() != iceberg::Transform::Kind::kIdentity) {
      for (Value& v : key.values) {
        ST_ASSIGN_OR_RETURN(v, field.transform.Apply(*column->type, v));
      }
    }
    key.descending = field.direction == iceberg::SortDirection::kDesc;
    key.nulls_first = field.null_order == iceberg::NullOrder::kNullsFirst;
    keys.push_back(std::move(key));
  }
  std::vector<parquet::RowRef> rows = AllRows(chunks);
  if (keys.empty()) return rows;
  std::vector<size_t> index(rows.size());
  std::iota(index.begin(), index.end(), 0);
  std::stable_sort(index.begin(), index.end(), [&](size_t a, size_t b) {
    for (const Key& key : keys) {
      const Value& x = key.values[a];
      const Value& y = key.values[b];
      if (x.is_null() || y.is_null()) {
        if (x.is_null() == y.is_null()) continue;
        // The null order is independent of the direction (Iceberg spec).
        return x.is_null() == key.nulls_first;
      }
      const int c = CompareValues(x, y);
      if (c != 0) return key.descending ? c > 0 : c < 0;
    }
    return false;
  });
  std::vector<parquet::RowRef> ordered;
  ordered.reserve(rows.size());
  for (size_t i : index) ordered.push_back(rows[i]);
  return ordered;
}

Result<std::vector<parquet::RowRef>> ZOrderRows(const iceberg::Schema& schema,
                                                const parquet::Schema& columns,
                                                const GroupChunks& chunks,
                                                const iceberg::SortOrder& order) {
  std::vector<std::vector<uint64_t>> keys;  // Per column, per flat row.
  std::vector<int32_t> seen;
  for (const iceberg::SortField& field : order.fields) {
    if (std::find(seen.begin(), seen.end(), field.source_id) != seen.end()) continue;
    std::optional<KeyColumn> column = FindKeyColumn(schema, columns, field.source_id);
    if (!column.has_value()) continue;
    seen.push_back(field.source_id);
    std::vector<uint64_t> normalized;
    for (const Value& v : KeyValues(chunks, *column)) normalized.push_back(NormalizedKey(v));
    keys.push_back(std::move(normalized));
  }
  std::vector<parquet::RowRef> rows = AllRows(chunks);
  if (keys.empty()) return rows;
  const size_t k = keys.size();
  // The z-value of row r: bit b of column c (MSB first) lands at position
  // b * k + c of a k-word big-endian number.
  std::vector<uint64_t> z(rows.size() * k, 0);
  for (size_t r = 0; r < rows.size(); ++r) {
    uint64_t* out = &z[r * k];
    size_t pos = 0;
    for (int bit = 63; bit >= 0; --bit) {
      for (size_t c = 0; c < k; ++c, ++pos) {
        const uint64_t b = (keys[c][r] >> bit) & 1;
        out[pos / 64] |= b << (63 - pos % 64);
      }
    }
  }
  std::vector<size_t> index(rows.size());
  std::iota(index.begin(), index.end(), 0);
  std::stable_sort(index.begin(), index.end(), [&](size_t a, size_t b) {
    return std::lexicographical_compare(&z[a * k], &z[a * k] + k, &z[b * k], &z[b * k] + k);
  });
  std::vector<parquet::RowRef> ordered;
  ordered.reserve(rows.size());
  for (size_t i : index) ordered.push_back(rows[i]);
  return ordered;
}

}  // namespace st::maintenance
