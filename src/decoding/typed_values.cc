#include "common/base64.h"
#include "decoding/text_scalars_internal.h"
#include "decoding/typed_values_internal.h"
#include "parquet/schema.h"

namespace st::decoding {
namespace {

// Big-endian two's complement in `length` bytes (sign-extended past 16).
void AppendBigEndian(Int128 value, int32_t length, std::string* out) {
  for (int32_t i = length - 1; i >= 0; --i) {
    const int shift = i < 16 ? 8 * i : 120;
    out->push_back(static_cast<char>(static_cast<int>((value >> shift) & 0xff)));
  }
}

}  // namespace

bool PushTextValue(const ShredNode& node, std::string_view text, int16_t rep, ColumnBuffer& c) {
  const int16_t def = node.def_level;
  switch (node.type_id) {
    case iceberg::TypeId::kString:
      c.PushLevels(def, rep);
      c.arena.append(text);
      c.EndBytes();
      return true;
    case iceberg::TypeId::kTimestamp:
    case iceberg::TypeId::kTimestampTz: {
      int64_t micros = 0;
      if (!ParseRfc3339Timestamp(text, node.type_id == iceberg::TypeId::kTimestamp, &micros)) {
        return false;
      }
      c.PushLevels(def, rep);
      c.i64.push_back(micros);
      return true;
    }
    case iceberg::TypeId::kDate: {
      int32_t days = 0;
      if (!ParseIsoDate(text, &days)) return false;
      c.PushLevels(def, rep);
      c.i32.push_back(days);
      return true;
    }
    case iceberg::TypeId::kTime: {
      int64_t micros = 0;
      if (!ParseIsoTime(text, &micros)) return false;
      c.PushLevels(def, rep);
      c.i64.push_back(micros);
      return true;
    }
    case iceberg::TypeId::kUuid:
      if (!ParseUuidText(text, &c.arena)) return false;
      c.PushLevels(def, rep);
      c.EndBytes();
      return true;
    case iceberg::TypeId::kBinary:
    case iceberg::TypeId::kFixed: {
      const size_t before = c.arena.size();
      const bool ok = common::Base64DecodeAppend(text, &c.arena, common::Base64Alphabet::kStandard,
                                                 common::Base64Padding::kOptional) &&
                      (node.type_id == iceberg::TypeId::kBinary ||
                       c.arena.size() - before == static_cast<size_t>(node.type->fixed_length()));
      if (!ok) {
        c.arena.resize(before);
        return false;
      }
      c.PushLevels(def, rep);
      c.EndBytes();
      return true;
    }
    default:
      return false;
  }
}

bool PushDecimalText(const ShredNode& node, std::string_view token, int16_t rep, ColumnBuffer& c) {
  Int128 unscaled = 0;
  if (!ParseDecimalText(token, node.type->precision(), node.type->scale(), &unscaled)) {
    return false;
  }
  PushDecimalUnscaled(node, unscaled, rep, c);
  return true;
}

void PushDecimalUnscaled(const ShredNode& node, Int128 unscaled, int16_t rep, ColumnBuffer& c) {
  c.PushLevels(node.def_level, rep);
  if (c.physical == parquet::PhysicalType::kInt32) {
    c.i32.push_back(static_cast<int32_t>(unscaled));
  } else if (c.physical == parquet::PhysicalType::kInt64) {
    c.i64.push_back(static_cast<int64_t>(unscaled));
  } else {
    AppendBigEndian(unscaled, parquet::DecimalFixedLength(node.type->precision()), &c.arena);
    c.EndBytes();
  }
}

void PushNulls(const ShredNode& node, int16_t def, int16_t rep, ColumnBuffers& out) {
  for (int c = node.first_column; c < node.end_column; ++c) out.column(c).PushNull(def, rep);
}

bool PushMissing(const ShredNode& node, int16_t rep, ColumnBuffers& out, RecordError* error) {
  if (node.partition_slot >= 0 || node.required) {
    error->code =
        std::string(node.partition_slot >= 0 ? kMissingPartitionValue : kMissingRequiredField);
    error->message = (node.partition_slot >= 0 ? "partition source field " : "required field ") +
                     node.path + " is missing or null";
    return false;
  }
  PushNulls(node, static_cast<int16_t>(node.def_level - 1), rep, out);
  return true;
}

Value LastValue(const ShredNode& node, const ColumnBuffer& c) {
  switch (c.physical) {
    case parquet::PhysicalType::kInt32:
      return Value::Int32(c.i32.back());
    case parquet::PhysicalType::kInt64:
      return Value::Int64(c.i64.back());
    case parquet::PhysicalType::kByteArray:
    case parquet::PhysicalType::kFixedLenByteArray: {
      const uint32_t end = c.ends.back();
      const uint32_t start = c.ends.size() > 1 ? c.ends[c.ends.size() - 2] : 0;
      std::string bytes = c.arena.substr(start, end - start);
      return node.type_id == iceberg::TypeId::kString ? Value::String(std::move(bytes))
                                                      : Value::Binary(std::move(bytes));
    }
    case parquet::PhysicalType::kBoolean:
      return Value::Bool(c.bools.back() != 0);
    case parquet::PhysicalType::kFloat:
      return Value::Float(c.f32.back());
    case parquet::PhysicalType::kDouble:
      return Value::Double(c.f64.back());
  }
  return Value();
}

std::string QuoteForMessage(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string out = "\"";
  out.append(text.substr(0, kMax));
  if (text.size() > kMax) out += "...";
  out += '"';
  return out;
}

}  // namespace st::decoding
