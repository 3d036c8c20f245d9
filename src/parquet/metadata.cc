#include "parquet/metadata_internal.h"
#include "parquet/thrift_compact_internal.h"

namespace st::parquet::internal {
namespace {

using Kind = LogicalType::Kind;

// parquet.thrift enum values.
constexpr int32_t kPageTypeData = 0;
constexpr int32_t kPageTypeDictionary = 2;
constexpr int32_t kConvertedUtf8 = 0;
constexpr int32_t kConvertedMap = 1;
constexpr int32_t kConvertedList = 3;
constexpr int32_t kConvertedDecimal = 5;
constexpr int32_t kConvertedDate = 6;
constexpr int32_t kConvertedTimeMillis = 7;
constexpr int32_t kConvertedTimeMicros = 8;
constexpr int32_t kConvertedTimestampMillis = 9;
constexpr int32_t kConvertedTimestampMicros = 10;
// LogicalType union member ids.
constexpr int16_t kLogicalString = 1;
constexpr int16_t kLogicalMap = 2;
constexpr int16_t kLogicalList = 3;
constexpr int16_t kLogicalDecimal = 5;
constexpr int16_t kLogicalDate = 6;
constexpr int16_t kLogicalTime = 7;
constexpr int16_t kLogicalTimestamp = 8;
constexpr int16_t kLogicalUuid = 14;
constexpr int16_t kTimeUnitMillis = 1;
constexpr int16_t kTimeUnitMicros = 2;
constexpr int16_t kTimeUnitNanos = 3;

int16_t TimeUnitMember(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return kTimeUnitMillis;
    case TimeUnit::kNanos:
      return kTimeUnitNanos;
    case TimeUnit::kMicros:
      break;
  }
  return kTimeUnitMicros;
}

int32_t RepetitionValue(Repetition r) {
  switch (r) {
    case Repetition::kRequired:
      return 0;
    case Repetition::kOptional:
      return 1;
    case Repetition::kRepeated:
      return 2;
  }
  return 0;
}

// The legacy converted_type, only where the spec defines it as equivalent:
// TIME_MICROS and TIMESTAMP_MICROS (and _MILLIS) mean isAdjustedToUTC=true,
// so local times/timestamps, and nanos, get none.
std::optional<int32_t> ConvertedType(const LogicalType& lt) {
  switch (lt.kind) {
    case Kind::kString:
      return kConvertedUtf8;
    case Kind::kMap:
      return kConvertedMap;
    case Kind::kList:
      return kConvertedList;
    case Kind::kDecimal:
      return kConvertedDecimal;
    case Kind::kDate:
      return kConvertedDate;
    case Kind::kTime:
      if (!lt.adjusted_to_utc || lt.unit == TimeUnit::kNanos) return std::nullopt;
      return lt.unit == TimeUnit::kMillis ? kConvertedTimeMillis : kConvertedTimeMicros;
    case Kind::kTimestamp:
      if (!lt.adjusted_to_utc || lt.unit == TimeUnit::kNanos) return std::nullopt;
      return lt.unit == TimeUnit::kMillis ? kConvertedTimestampMillis : kConvertedTimestampMicros;
    default:
      return std::nullopt;
  }
}

void WriteLogicalType(const LogicalType& lt, CompactWriter* w) {
  auto empty_member = [w](int16_t id) {
    w->BeginStructField(id);
    w->EndStruct();
  };
  auto time_like = [w, &lt](int16_t id, bool utc) {
    w->BeginStructField(id);
    w->FieldBool(1, utc);
    w->BeginStructField(2);  // unit: TimeUnit union
    w->BeginStructField(TimeUnitMember(lt.unit));
    w->EndStruct();
    w->EndStruct();
    w->EndStruct();
  };
  w->BeginStructField(10);
  switch (lt.kind) {
    case Kind::kString:
      empty_member(kLogicalString);
      break;
    case Kind::kMap:
      empty_member(kLogicalMap);
      break;
    case Kind::kList:
      empty_member(kLogicalList);
      break;
    case Kind::kDate:
      empty_member(kLogicalDate);
      break;
    case Kind::kUuid:
      empty_member(kLogicalUuid);
      break;
    case Kind::kDecimal:
      w->BeginStructField(kLogicalDecimal);
      w->FieldI32(1, lt.scale);
      w->FieldI32(2, lt.precision);
      w->EndStruct();
      break;
    case Kind::kTime:
      time_like(kLogicalTime, lt.adjusted_to_utc);
      break;
    case Kind::kTimestamp:
      time_like(kLogicalTimestamp, lt.adjusted_to_utc);
      break;
    case Kind::kNone:
      break;
  }
  w->EndStruct();
}

int32_t CountElements(const Node& node) {
  int32_t n = 1;
  for (const Node& child : node.children()) n += CountElements(child);
  return n;
}

void WriteSchemaElement(const Node& node, CompactWriter* w) {
  w->BeginListStruct();
  if (node.is_leaf()) w->FieldI32(1, static_cast<int32_t>(node.physical_type()));
  if (node.is_leaf() && node.physical_type() == PhysicalType::kFixedLenByteArray) {
    w->FieldI32(2, node.type_length());
  }
  w->FieldI32(3, RepetitionValue(node.repetition()));
  w->FieldBinary(4, node.name());
  if (!node.is_leaf()) w->FieldI32(5, static_cast<int32_t>(node.children().size()));
  const LogicalType& lt = node.logical_type();
  if (auto converted = ConvertedType(lt)) w->FieldI32(6, *converted);
  if (lt.kind == Kind::kDecimal) {
    w->FieldI32(7, lt.scale);
    w->FieldI32(8, lt.precision);
  }
  if (node.field_id()) w->FieldI32(9, *node.field_id());
  if (lt.kind != Kind::kNone) WriteLogicalType(lt, w);
  w->EndStruct();
  for (const Node& child : node.children()) WriteSchemaElement(child, w);
}

void WriteColumnChunk(const ColumnDescriptor& col, const ColumnChunkMeta& m, Codec codec,
                      CompactWriter* w) {
  w->BeginListStruct();
  w->FieldI64(2, m.dictionary_page_offset.value_or(m.data_page_offset));  // file_offset
  w->BeginStructField(3);                                                 // meta_data
  w->FieldI32(1, static_cast<int32_t>(col.physical_type));
  w->BeginListField(2, ThriftType::kI32, static_cast<int32_t>(m.encodings.size()));
  for (Encoding e : m.encodings) w->ListI32(static_cast<int32_t>(e));
  w->BeginListField(3, ThriftType::kBinary, static_cast<int32_t>(col.path.size()));
  for (const std::string& part : col.path) w->ListBinary(part);
  w->FieldI32(4, static_cast<int32_t>(codec));
  w->FieldI64(5, m.num_values);
  w->FieldI64(6, m.total_uncompressed_size);
  w->FieldI64(7, m.total_compressed_size);
  w->FieldI64(9, m.data_page_offset);
  if (m.dictionary_page_offset) w->FieldI64(11, *m.dictionary_page_offset);
  w->BeginStructField(12);  // statistics
  w->FieldI64(3, m.null_count);
  if (m.min_max) {
    w->FieldBinary(5, m.min_max->second);  // max_value
    w->FieldBinary(6, m.min_max->first);   // min_value
  }
  w->EndStruct();
  w->EndStruct();
  w->EndStruct();
}

}  // namespace

void AppendDataPageHeader(int32_t uncompressed_size, int32_t compressed_size, int32_t num_values,
                          Encoding encoding, std::string* out) {
  CompactWriter w(out);
  w.FieldI32(1, kPageTypeData);
  w.FieldI32(2, uncompressed_size);
  w.FieldI32(3, compressed_size);
  w.BeginStructField(5);
  w.FieldI32(1, num_values);
  w.FieldI32(2, static_cast<int32_t>(encoding));
  w.FieldI32(3, static_cast<int32_t>(Encoding::kRle));
  w.FieldI32(4, static_cast<int32_t>(Encoding::kRle));
  w.EndStruct();
  w.Finish();
}

void AppendDictionaryPageHeader(int32_t uncompressed_size, int32_t compressed_size,
                                int32_t num_values, std::string* out) {
  CompactWriter w(out);
  w.FieldI32(1, kPageTypeDictionary);
  w.FieldI32(2, uncompressed_size);
  w.FieldI32(3, compressed_size);
  w.BeginStructField(7);
  w.FieldI32(1, num_values);
  w.FieldI32(2, static_cast<int32_t>(Encoding::kPlain));
  w.EndStruct();
  w.Finish();
}

std::string SerializeFileMetaData(const Schema& schema, const std::vector<RowGroupMeta>& row_groups,
                                  int64_t num_rows, Codec codec,
                                  const std::vector<std::pair<std::string, std::string>>& kv,
                                  const std::string& created_by) {
  std::string out;
  CompactWriter w(&out);
  w.FieldI32(1, 2);  // version
  int32_t elements = 1;
  for (const Node& f : schema.fields()) elements += CountElements(f);
  w.BeginListField(2, ThriftType::kStruct, elements);
  w.BeginListStruct();  // root
  w.FieldI32(3, RepetitionValue(Repetition::kRequired));
  w.FieldBinary(4, "schema");
  w.FieldI32(5, static_cast<int32_t>(schema.fields().size()));
  w.EndStruct();
  for (const Node& f : schema.fields()) WriteSchemaElement(f, &w);
  w.FieldI64(3, num_rows);
  w.BeginListField(4, ThriftType::kStruct, static_cast<int32_t>(row_groups.size()));
  for (size_t g = 0; g < row_groups.size(); ++g) {
    const RowGroupMeta& rg = row_groups[g];
    w.BeginListStruct();
    w.BeginListField(1, ThriftType::kStruct, static_cast<int32_t>(rg.columns.size()));
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      WriteColumnChunk(schema.columns()[c], rg.columns[c], codec, &w);
    }
    w.FieldI64(2, rg.total_byte_size);
    w.FieldI64(3, rg.num_rows);
    w.FieldI64(5, rg.file_offset);
    w.FieldI64(6, rg.total_compressed_size);
    w.FieldI16(7, static_cast<int16_t>(g));  // ordinal
    w.EndStruct();
  }
  if (!kv.empty()) {
    w.BeginListField(5, ThriftType::kStruct, static_cast<int32_t>(kv.size()));
    for (const auto& [key, value] : kv) {
      w.BeginListStruct();
      w.FieldBinary(1, key);
      w.FieldBinary(2, value);
      w.EndStruct();
    }
  }
  w.FieldBinary(6, created_by);
  w.BeginListField(7, ThriftType::kStruct, schema.num_columns());
  for (int i = 0; i < schema.num_columns(); ++i) {
    w.BeginListStruct();
    w.BeginStructField(1);  // TYPE_ORDER
    w.EndStruct();
    w.EndStruct();
  }
  w.Finish();
  return out;
}

}  // namespace st::parquet::internal
