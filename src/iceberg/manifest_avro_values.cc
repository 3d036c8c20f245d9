// Model structs <-> Avro record values of manifests and manifest lists.
#include <algorithm>
#include <cctype>
#include <utility>

#include "iceberg/manifest_avro_internal.h"

namespace st::iceberg::internal {

namespace {

const Value& NullValue() {
  static const Value* const kNull = new Value();
  return *kNull;
}

Value OptionalLong(const std::optional<int64_t>& v) {
  return v.has_value() ? Value::Int64(*v) : Value::Null();
}

template <typename V, typename F>
Value IntKeyedMap(const std::map<int32_t, V>& m, F to_value) {
  if (m.empty()) return Value::Null();
  Value::Map out;
  out.reserve(m.size());
  for (const auto& [k, v] : m) out.emplace_back(Value::Int32(k), to_value(v));
  return Value::MakeMap(std::move(out));
}

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kParquet:
      return "PARQUET";
    case FileFormat::kAvro:
      return "AVRO";
    case FileFormat::kOrc:
      return "ORC";
  }
  return "PARQUET";
}

// Conversions that report the field they were reading.
class FieldReader {
 public:
  explicit FieldReader(const std::string& what) : what_(what) {}

  Status Bad(std::string_view field, std::string_view problem) const {
    return Corruption(what_ + ": field '" + std::string(field) + "' " + std::string(problem) +
                      "; the file was not written by a conforming Iceberg writer");
  }
  Result<int64_t> Long(const Value& v, std::string_view field) const {
    if (v.kind() == Value::Kind::kInt64) return v.int64_value();
    if (v.kind() == Value::Kind::kInt32) return v.int32_value();
    return Err(Bad(field, v.is_null() ? "is missing" : "is not an integer"));
  }
  Result<int32_t> Int(const Value& v, std::string_view field) const {
    if (v.kind() == Value::Kind::kInt32) return v.int32_value();
    return Err(Bad(field, v.is_null() ? "is missing" : "is not an int"));
  }
  Result<std::optional<int64_t>> OptLong(const Value& v, std::string_view field) const {
    if (v.is_null()) return std::optional<int64_t>();
    ST_ASSIGN_OR_RETURN(int64_t x, Long(v, field));
    return std::optional<int64_t>(x);
  }
  Result<std::string> Bytes(const Value& v, std::string_view field) const {
    if (v.kind() == Value::Kind::kString || v.kind() == Value::Kind::kBinary) {
      return v.bytes_value();
    }
    return Err(Bad(field, v.is_null() ? "is missing" : "is not a string or bytes"));
  }
  // Int-keyed maps come back as Map; a plain array of {key, value} records
  // (a writer that omitted logicalType) is accepted too.
  template <typename V, typename F>
  Status IntMap(const Value& v, std::string_view field, std::map<int32_t, V>* out,
                F from_value) const {
    out->clear();
    if (v.is_null()) return Status::OK();
    std::vector<std::pair<const Value*, const Value*>> pairs;
    if (v.kind() == Value::Kind::kMap) {
      for (const auto& [k, x] : v.map_value()) pairs.emplace_back(&k, &x);
    } else if (v.kind() == Value::Kind::kList) {
      for (const Value& item : v.list_value()) {
        if (item.kind() != Value::Kind::kStruct || item.struct_value().size() != 2) {
          return Bad(field, "is not a map of key/value records");
        }
        pairs.emplace_back(&item.struct_value()[0], &item.struct_value()[1]);
      }
    } else {
      return Bad(field, "is not a map");
    }
    for (const auto& [k, x] : pairs) {
      ST_ASSIGN_OR_RETURN(int32_t key, Int(*k, field));
      ST_ASSIGN_OR_RETURN(V value, from_value(*x, field));
      (*out)[key] = std::move(value);
    }
    return Status::OK();
  }

 private:
  const std::string& what_;
};

}  // namespace

RecordLayout::RecordLayout(const avro::Node& record) : node_(&record.Resolve()) {
  if (node_->type != avro::Type::kRecord) {
    node_ = nullptr;
    return;
  }
  for (size_t i = 0; i < node_->fields.size(); ++i) index_.emplace(node_->fields[i].name, i);
}

const Value& RecordLayout::Get(const Value& record, std::string_view name) const {
  auto it = index_.find(name);
  if (it == index_.end() || record.kind() != Value::Kind::kStruct) return NullValue();
  const auto& fields = record.struct_value();
  return it->second < fields.size() ? fields[it->second] : NullValue();
}

RecordLayout RecordLayout::Nested(std::string_view name) const {
  auto it = index_.find(name);
  if (it == index_.end()) return RecordLayout();
  const avro::Node* node = &node_->fields[it->second].type->Resolve();
  for (int depth = 0; depth < 4 && node->type != avro::Type::kRecord; ++depth) {
    if (node->type == avro::Type::kUnion) {
      const avro::Node* next = nullptr;
      for (const auto& branch : node->branches) {
        if (branch->Resolve().type != avro::Type::kNull) next = &branch->Resolve();
      }
      if (next == nullptr) return RecordLayout();
      node = next;
    } else if (node->type == avro::Type::kArray) {
      node = &node->items->Resolve();
    } else {
      return RecordLayout();
    }
  }
  return node->type == avro::Type::kRecord ? RecordLayout(*node) : RecordLayout();
}

Value ManifestEntryToAvro(const ManifestEntry& entry) {
  const DataFile& f = entry.data_file;
  auto as_long = [](int64_t v) { return Value::Int64(v); };
  auto as_bytes = [](const std::string& v) { return Value::Binary(v); };
  Value::List split_offsets;
  for (int64_t offset : f.split_offsets) split_offsets.push_back(Value::Int64(offset));

  Value::Struct file;
  file.push_back(Value::Int32(static_cast<int32_t>(f.content)));
  file.push_back(Value::String(f.file_path));
  file.push_back(Value::String(std::string(FileFormatName(f.file_format))));
  file.push_back(f.partition.is_null() ? Value::MakeStruct({}) : f.partition);
  file.push_back(Value::Int64(f.record_count));
  file.push_back(Value::Int64(f.file_size_in_bytes));
  file.push_back(IntKeyedMap(f.column_sizes, as_long));
  file.push_back(IntKeyedMap(f.value_counts, as_long));
  file.push_back(IntKeyedMap(f.null_value_counts, as_long));
  file.push_back(IntKeyedMap(f.nan_value_counts, as_long));
  file.push_back(IntKeyedMap(f.lower_bounds, as_bytes));
  file.push_back(IntKeyedMap(f.upper_bounds, as_bytes));
  file.push_back(f.key_metadata ? Value::Binary(*f.key_metadata) : Value::Null());
  file.push_back(split_offsets.empty() ? Value::Null() : Value::MakeList(std::move(split_offsets)));
  file.push_back(Value::Null());  // equality_ids: we write no equality deletes.
  file.push_back(f.sort_order_id ? Value::Int32(*f.sort_order_id) : Value::Null());
  file.push_back(Value::Null());  // referenced_data_file: DVs only.

  Value::Struct out;
  out.push_back(Value::Int32(static_cast<int32_t>(entry.status)));
  out.push_back(OptionalLong(entry.snapshot_id));
  out.push_back(OptionalLong(entry.sequence_number));
  out.push_back(OptionalLong(entry.file_sequence_number));
  out.push_back(Value::MakeStruct(std::move(file)));
  return Value::MakeStruct(std::move(out));
}

Result<ManifestEntry> ManifestEntryFromAvro(const RecordLayout& entry_layout,
                                            const RecordLayout& file_layout, const Value& record,
                                            const std::string& what) {
  FieldReader r(what);
  ManifestEntry entry;
  ST_ASSIGN_OR_RETURN(int32_t status, r.Int(entry_layout.Get(record, "status"), "status"));
  if (status < 0 || status > 2) return Err(r.Bad("status", "is not 0, 1 or 2"));
  entry.status = static_cast<ManifestEntryStatus>(status);
  ST_ASSIGN_OR_RETURN(entry.snapshot_id,
                      r.OptLong(entry_layout.Get(record, "snapshot_id"), "snapshot_id"));
  ST_ASSIGN_OR_RETURN(entry.sequence_number,
                      r.OptLong(entry_layout.Get(record, "sequence_number"), "sequence_number"));
  ST_ASSIGN_OR_RETURN(
      entry.file_sequence_number,
      r.OptLong(entry_layout.Get(record, "file_sequence_number"), "file_sequence_number"));

  const Value& fv = entry_layout.Get(record, "data_file");
  if (fv.kind() != Value::Kind::kStruct) return Err(r.Bad("data_file", "is not a record"));
  DataFile& f = entry.data_file;
  const Value& content = file_layout.Get(fv, "content");  // Absent in v1 files.
  if (!content.is_null()) {
    ST_ASSIGN_OR_RETURN(int32_t c, r.Int(content, "content"));
    if (c < 0 || c > 2) return Err(r.Bad("content", "is not 0, 1 or 2"));
    f.content = static_cast<DataFileContent>(c);
  }
  ST_ASSIGN_OR_RETURN(f.file_path, r.Bytes(file_layout.Get(fv, "file_path"), "file_path"));
  ST_ASSIGN_OR_RETURN(std::string format,
                      r.Bytes(file_layout.Get(fv, "file_format"), "file_format"));
  std::transform(format.begin(), format.end(), format.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (format == "PARQUET") {
    f.file_format = FileFormat::kParquet;
  } else if (format == "AVRO") {
    f.file_format = FileFormat::kAvro;
  } else if (format == "ORC") {
    f.file_format = FileFormat::kOrc;
  } else {
    return Err(r.Bad("file_format", "names an unknown format '" + format + "'"));
  }
  f.partition = file_layout.Get(fv, "partition");
  if (f.partition.kind() != Value::Kind::kStruct) {
    return Err(r.Bad("partition", "is not a record"));
  }
  ST_ASSIGN_OR_RETURN(f.record_count, r.Long(file_layout.Get(fv, "record_count"), "record_count"));
  ST_ASSIGN_OR_RETURN(f.file_size_in_bytes,
                      r.Long(file_layout.Get(fv, "file_size_in_bytes"), "file_size_in_bytes"));
  auto read_long = [&](const Value& v, std::string_view name) { return r.Long(v, name); };
  auto read_bytes = [&](const Value& v, std::string_view name) { return r.Bytes(v, name); };
  ST_TRY(r.IntMap(file_layout.Get(fv, "column_sizes"), "column_sizes", &f.column_sizes, read_long));
  ST_TRY(r.IntMap(file_layout.Get(fv, "value_counts"), "value_counts", &f.value_counts, read_long));
  ST_TRY(r.IntMap(file_layout.Get(fv, "null_value_counts"), "null_value_counts",
                  &f.null_value_counts, read_long));
  ST_TRY(r.IntMap(file_layout.Get(fv, "nan_value_counts"), "nan_value_counts", &f.nan_value_counts,
                  read_long));
  ST_TRY(
      r.IntMap(file_layout.Get(fv, "lower_bounds"), "lower_bounds", &f.lower_bounds, read_bytes));
  ST_TRY(
      r.IntMap(file_layout.Get(fv, "upper_bounds"), "upper_bounds", &f.upper_bounds, read_bytes));
  const Value& key_metadata = file_layout.Get(fv, "key_metadata");
  if (!key_metadata.is_null()) {
    ST_ASSIGN_OR_RETURN(f.key_metadata, r.Bytes(key_metadata, "key_metadata"));
  }
  const Value& offsets = file_layout.Get(fv, "split_offsets");
  if (offsets.kind() == Value::Kind::kList) {
    for (const Value& v : offsets.list_value()) {
      ST_ASSIGN_OR_RETURN(int64_t offset, r.Long(v, "split_offsets"));
      f.split_offsets.push_back(offset);
    }
  } else if (!offsets.is_null()) {
    return Err(r.Bad("split_offsets", "is not a list"));
  }
  const Value& sort_order_id = file_layout.Get(fv, "sort_order_id");
  if (!sort_order_id.is_null()) {
    ST_ASSIGN_OR_RETURN(f.sort_order_id, r.Int(sort_order_id, "sort_order_id"));
  }
  return entry;
}

Value ManifestFileToAvro(const ManifestFile& m) {
  Value::List partitions;
  for (const PartitionFieldSummary& s : m.partitions) {
    partitions.push_back(Value::MakeStruct({
        Value::Bool(s.contains_null),
        s.contains_nan ? Value::Bool(*s.contains_nan) : Value::Null(),
        s.lower_bound ? Value::Binary(*s.lower_bound) : Value::Null(),
        s.upper_bound ? Value::Binary(*s.upper_bound) : Value::Null(),
    }));
  }
  return Value::MakeStruct({
      Value::String(m.manifest_path),
      Value::Int64(m.manifest_length),
      Value::Int32(m.partition_spec_id),
      Value::Int32(static_cast<int32_t>(m.content)),
      Value::Int64(m.sequence_number),
      Value::Int64(m.min_sequence_number),
      Value::Int64(m.added_snapshot_id),
      Value::Int32(m.added_files_count),
      Value::Int32(m.existing_files_count),
      Value::Int32(m.deleted_files_count),
      Value::Int64(m.added_rows_count),
      Value::Int64(m.existing_rows_count),
      Value::Int64(m.deleted_rows_count),
      Value::MakeList(std::move(partitions)),
      m.key_metadata ? Value::Binary(*m.key_metadata) : Value::Null(),
  });
}

Result<ManifestFile> ManifestFileFromAvro(const RecordLayout& layout, const Value& record,
                                          const std::string& what) {
  FieldReader r(what);
  ManifestFile m;
  // v1 lists spell the counts "added_data_files_count" etc. and lack sequence
  // numbers and content (all zero then).
  auto get = [&](std::string_view name, std::string_view v1_name = {}) -> const Value& {
    const Value& v = layout.Get(record, name);
    return (v.is_null() && !v1_name.empty()) ? layout.Get(record, v1_name) : v;
  };
  auto long_or_zero = [&](std::string_view name) -> Result<int64_t> {
    const Value& v = get(name);
    return v.is_null() ? Result<int64_t>(0) : r.Long(v, name);
  };
  auto int_or_zero = [&](std::string_view name, std::string_view v1_name) -> Result<int32_t> {
    const Value& v = get(name, v1_name);
    return v.is_null() ? Result<int32_t>(0) : r.Int(v, name);
  };
  ST_ASSIGN_OR_RETURN(m.manifest_path, r.Bytes(get("manifest_path"), "manifest_path"));
  ST_ASSIGN_OR_RETURN(m.manifest_length, r.Long(get("manifest_length"), "manifest_length"));
  ST_ASSIGN_OR_RETURN(m.partition_spec_id, r.Int(get("partition_spec_id"), "partition_spec_id"));
  ST_ASSIGN_OR_RETURN(int32_t content, int_or_zero("content", {}));
  if (content != 0 && content != 1) return Err(r.Bad("content", "is not 0 or 1"));
  m.content = static_cast<ManifestContent>(content);
  ST_ASSIGN_OR_RETURN(m.sequence_number, long_or_zero("sequence_number"));
  ST_ASSIGN_OR_RETURN(m.min_sequence_number, long_or_zero("min_sequence_number"));
  ST_ASSIGN_OR_RETURN(m.added_snapshot_id, r.Long(get("added_snapshot_id"), "added_snapshot_id"));
  ST_ASSIGN_OR_RETURN(m.added_files_count,
                      int_or_zero("added_files_count", "added_data_files_count"));
  ST_ASSIGN_OR_RETURN(m.existing_files_count,
                      int_or_zero("existing_files_count", "existing_data_files_count"));
  ST_ASSIGN_OR_RETURN(m.deleted_files_count,
                      int_or_zero("deleted_files_count", "deleted_data_files_count"));
  ST_ASSIGN_OR_RETURN(m.added_rows_count, long_or_zero("added_rows_count"));
  ST_ASSIGN_OR_RETURN(m.existing_rows_count, long_or_zero("existing_rows_count"));
  ST_ASSIGN_OR_RETURN(m.deleted_rows_count, long_or_zero("deleted_rows_count"));
  const Value& partitions = get("partitions");
  if (partitions.kind() == Value::Kind::kList) {
    RecordLayout summary_layout = layout.Nested("partitions");
    for (const Value& s : partitions.list_value()) {
      PartitionFieldSummary summary;
      const Value& contains_null = summary_layout.Get(s, "contains_null");
      if (contains_null.kind() != Value::Kind::kBool) {
        return Err(r.Bad("partitions.contains_null", "is not a boolean"));
      }
      summary.contains_null = contains_null.bool_value();
      const Value& contains_nan = summary_layout.Get(s, "contains_nan");
      if (contains_nan.kind() == Value::Kind::kBool)
        summary.contains_nan = contains_nan.bool_value();
      const Value& lower = summary_layout.Get(s, "lower_bound");
      if (!lower.is_null()) {
        ST_ASSIGN_OR_RETURN(summary.lower_bound, r.Bytes(lower, "partitions.lower_bound"));
      }
      const Value& upper = summary_layout.Get(s, "upper_bound");
      if (!upper.is_null()) {
        ST_ASSIGN_OR_RETURN(summary.upper_bound, r.Bytes(upper, "partitions.upper_bound"));
      }
      m.partitions.push_back(std::move(summary));
    }
  } else if (!partitions.is_null()) {
    return Err(r.Bad("partitions", "is not a list"));
  }
  const Value& key_metadata = get("key_metadata");
  if (!key_metadata.is_null()) {
    ST_ASSIGN_OR_RETURN(m.key_metadata, r.Bytes(key_metadata, "key_metadata"));
  }
  return m;
}

}  // namespace st::iceberg::internal
