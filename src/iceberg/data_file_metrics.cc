#include "iceberg/data_file_metrics.h"

#include <charconv>
#include <cstring>
#include <vector>

#include "common/utf8.h"
#include "iceberg/conversions.h"

namespace st::iceberg {
namespace {

__extension__ typedef unsigned __int128 UInt128;

// Byte offsets of code point starts in valid UTF-8 (continuation bytes are 10xxxxxx).
std::vector<size_t> CodePointStarts(std::string_view utf8) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < utf8.size(); ++i) {
    if ((static_cast<uint8_t>(utf8[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  return starts;
}

uint32_t DecodeCodePoint(std::string_view s) {
  const auto b0 = static_cast<uint8_t>(s[0]);
  if (b0 < 0x80) return b0;
  int extra = b0 >= 0xF0 ? 3 : b0 >= 0xE0 ? 2 : 1;
  uint32_t cp = b0 & (0x3F >> extra);
  for (int i = 1; i <= extra && i < static_cast<int>(s.size()); ++i) {
    cp = (cp << 6) | (static_cast<uint8_t>(s[static_cast<size_t>(i)]) & 0x3F);
  }
  return cp;
}

template <typename T>
T LoadLe(std::string_view bytes) {
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

// A PLAIN-encoded Parquet bound as the st::Value of the column's Iceberg type.
Result<Value> DecodeBound(const Type& type, const parquet::ColumnDescriptor& column,
                          std::string_view bytes) {
  auto need = [&](size_t n) -> Status {
    if (bytes.size() == n) return Status::OK();
    return Corruption("parquet bound of column '" + column.DottedPath() + "' has " +
                      std::to_string(bytes.size()) + " bytes, expected " + std::to_string(n));
  };
  switch (type.id()) {
    case TypeId::kBoolean:
      ST_TRY(need(1));
      return Value::Bool(bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      ST_TRY(need(4));
      return Value::Int32(LoadLe<int32_t>(bytes));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      ST_TRY(need(8));
      return Value::Int64(LoadLe<int64_t>(bytes));
    case TypeId::kFloat:
      ST_TRY(need(4));
      return Value::Float(LoadLe<float>(bytes));
    case TypeId::kDouble:
      ST_TRY(need(8));
      return Value::Double(LoadLe<double>(bytes));
    case TypeId::kDecimal:
      switch (column.physical_type) {
        case parquet::PhysicalType::kInt32:
          ST_TRY(need(4));
          return Value::Decimal(LoadLe<int32_t>(bytes));
        case parquet::PhysicalType::kInt64:
          ST_TRY(need(8));
          return Value::Decimal(LoadLe<int64_t>(bytes));
        default: {
          if (bytes.empty() || bytes.size() > 16) ST_TRY(need(16));
          // Big-endian two's complement, sign-extended from the first byte.
          Int128 v = static_cast<int8_t>(bytes[0]) < 0 ? -1 : 0;
          for (char c : bytes)
            v = static_cast<Int128>((static_cast<UInt128>(v) << 8) | static_cast<uint8_t>(c));
          return Value::Decimal(v);
        }
      }
    case TypeId::kString:
      return Value::String(std::string(bytes));
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Value::Binary(std::string(bytes));
    default:
      return Err(Corruption("parquet column '" + column.DottedPath() +
                            "' maps to non-primitive type " + type.ToString()));
  }
}

// Applies truncate(N) to a decoded string/binary bound; nullopt drops it.
std::optional<Value> TruncateBound(const Type& type, const MetricsMode& mode, Value v, bool upper) {
  if (mode.kind != MetricsMode::Kind::kTruncate) return v;
  const int n = mode.truncate_length;
  if (type.id() == TypeId::kString) {
    if (!upper) return Value::String(TruncateStringLower(v.bytes_value(), n));
    auto s = TruncateStringUpper(v.bytes_value(), n);
    if (!s) return std::nullopt;
    return Value::String(std::move(*s));
  }
  if (type.id() == TypeId::kBinary) {
    if (!upper) return Value::Binary(TruncateBinaryLower(v.bytes_value(), n));
    auto b = TruncateBinaryUpper(v.bytes_value(), n);
    if (!b) return std::nullopt;
    return Value::Binary(std::move(*b));
  }
  return v;
}

}  // namespace

Result<MetricsMode> MetricsMode::Parse(std::string_view text) {
  MetricsMode mode;
  if (text == "none") {
    mode.kind = Kind::kNone;
  } else if (text == "counts") {
    mode.kind = Kind::kCounts;
  } else if (text == "full") {
    mode.kind = Kind::kFull;
  } else if (text.size() > 10 && text.substr(0, 9) == "truncate(" && text.back() == ')') {
    std::string_view digits = text.substr(9, text.size() - 10);
    int n = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || n <= 0) {
      return Err(InvalidArgument("metrics mode '" + std::string(text) +
                                 "': truncate length must be a positive integer"));
    }
    mode.kind = Kind::kTruncate;
    mode.truncate_length = n;
  } else {
    return Err(InvalidArgument("metrics mode '" + std::string(text) +
                               "' is not none, counts, truncate(N) or full"));
  }
  return mode;
}

std::string TruncateStringLower(std::string_view utf8, int code_points) {
  auto starts = CodePointStarts(utf8);
  if (starts.size() <= static_cast<size_t>(code_points)) return std::string(utf8);
  return std::string(utf8.substr(0, starts[static_cast<size_t>(code_points)]));
}

std::optional<std::string> TruncateStringUpper(std::string_view utf8, int code_points) {
  auto starts = CodePointStarts(utf8);
  if (starts.size() <= static_cast<size_t>(code_points)) return std::string(utf8);
  for (int i = code_points - 1; i >= 0; --i) {
    const size_t at = starts[static_cast<size_t>(i)];
    uint32_t next = DecodeCodePoint(utf8.substr(at)) + 1;
    if (next >= 0xD800 && next <= 0xDFFF) next = 0xE000;  // Surrogates are not scalar values.
    if (next > 0x10FFFF) continue;
    std::string out(utf8.substr(0, at));
    AppendUtf8(out, next);
    return out;
  }
  return std::nullopt;
}

std::string TruncateBinaryLower(std::string_view bytes, int length) {
  return std::string(bytes.substr(0, std::min(bytes.size(), static_cast<size_t>(length))));
}

std::optional<std::string> TruncateBinaryUpper(std::string_view bytes, int length) {
  if (bytes.size() <= static_cast<size_t>(length)) return std::string(bytes);
  for (int i = length - 1; i >= 0; --i) {
    const auto b = static_cast<uint8_t>(bytes[static_cast<size_t>(i)]);
    if (b == 0xFF) continue;
    std::string out(bytes.substr(0, static_cast<size_t>(i) + 1));
    out.back() = static_cast<char>(b + 1);
    return out;
  }
  return std::nullopt;
}

Status ApplyParquetMetrics(const Schema& schema, const parquet::FileSummary& summary,
                           const MetricsMode& mode, DataFile* data_file) {
  data_file->record_count = summary.row_count;
  data_file->file_size_in_bytes = summary.file_size_bytes;
  data_file->split_offsets = summary.row_group_offsets;
  for (const auto& col : summary.columns) {
    if (!col.column.field_id) continue;
    const int32_t id = *col.column.field_id;
    const NestedField* field = schema.FindField(id);
    if (field == nullptr || !field->type->is_primitive()) continue;
    const Type& type = *field->type;
    if (mode.kind == MetricsMode::Kind::kNone) continue;
    data_file->column_sizes[id] = col.compressed_size_bytes;
    data_file->value_counts[id] = col.value_count;
    data_file->null_value_counts[id] = col.null_count;
    if (type.id() == TypeId::kFloat || type.id() == TypeId::kDouble) {
      data_file->nan_value_counts[id] = col.nan_count;
    }
    if (mode.kind == MetricsMode::Kind::kCounts || col.column.max_rep_level > 0) continue;
    for (bool upper : {false, true}) {
      const auto& plain = upper ? col.max_value : col.min_value;
      if (!plain) continue;
      ST_ASSIGN_OR_RETURN(Value decoded, DecodeBound(type, col.column, *plain));
      std::optional<Value> bound = TruncateBound(type, mode, std::move(decoded), upper);
      if (!bound) continue;
      auto bytes = ToSingleValueBytes(type, *bound);
      if (!bytes) return bytes.error().WithContext("bound of field " + std::to_string(id));
      (upper ? data_file->upper_bounds : data_file->lower_bounds)[id] = std::move(*bytes);
    }
  }
  return Status::OK();
}

}  // namespace st::iceberg
