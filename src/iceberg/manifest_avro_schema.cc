// Avro schemas of manifest files and manifest lists, spelled like Java's
// writer (record names manifest_entry/r2/r102, manifest_file/r508, map
// records k<key-id>_v<value-id>) so foreign readers see familiar files.
#include <cctype>
#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

#include "iceberg/manifest_avro_internal.h"

namespace st::iceberg::internal {

namespace {

using avro::MakeField;
using avro::MakeOptionalField;
using avro::NodePtr;

// Bytes of the smallest two's complement integer holding any P-digit value.
int DecimalRequiredBytes(int precision) {
  Int128 max_unscaled = 1;
  for (int i = 0; i < precision; ++i) max_unscaled *= 10;
  max_unscaled -= 1;
  for (int bytes = 1; bytes < 16; ++bytes) {
    Int128 limit = static_cast<Int128>(1) << (8 * bytes - 1);
    if (max_unscaled < limit) return bytes;
  }
  return 16;
}

NodePtr Named(std::map<std::string, NodePtr>* named, const std::string& name, int64_t size,
              const std::function<void(avro::Node&)>& decorate) {
  auto it = named->find(name);
  if (it != named->end()) return it->second;
  NodePtr node = avro::MakeFixed(name, size);
  decorate(*node);
  named->emplace(name, node);
  return node;
}

NodePtr IntMap(int32_t key_id, int32_t value_id, NodePtr value) {
  return avro::MakeLogicalMap("k" + std::to_string(key_id) + "_v" + std::to_string(value_id),
                              avro::MakeInt(), key_id, std::move(value), value_id);
}

NodePtr ListOf(NodePtr element, int32_t element_id) {
  NodePtr array = avro::MakeArray(std::move(element));
  array->attributes.SetInt("element-id", element_id);
  return array;
}

}  // namespace

std::string AvroCompatibleName(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    bool letter = std::isalpha(c) || c == '_';
    if (letter || (i > 0 && std::isdigit(c))) {
      out.push_back(static_cast<char>(c));
    } else if (i == 0 && std::isdigit(c)) {
      out.push_back('_');
      out.push_back(static_cast<char>(c));
    } else {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "_x%X", c);
      out += hex;
    }
  }
  return out.empty() ? "_" : out;
}

Result<NodePtr> AvroPrimitiveFor(const Type& type, std::map<std::string, NodePtr>* named) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return avro::MakeBoolean();
    case TypeId::kInt:
      return avro::MakeInt();
    case TypeId::kLong:
      return avro::MakeLong();
    case TypeId::kFloat:
      return avro::MakeFloat();
    case TypeId::kDouble:
      return avro::MakeDouble();
    case TypeId::kDate:
      return avro::WithLogicalType(avro::MakeInt(), "date");
    case TypeId::kTime:
      return avro::WithLogicalType(avro::MakeLong(), "time-micros");
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      NodePtr node = avro::WithLogicalType(avro::MakeLong(), "timestamp-micros");
      node->attributes.SetBool("adjust-to-utc", type.id() == TypeId::kTimestampTz);
      return node;
    }
    case TypeId::kString:
      return avro::MakeString();
    case TypeId::kBinary:
      return avro::MakeBytes();
    case TypeId::kUuid:
      return Named(named, "uuid_fixed", 16, [](avro::Node& n) { n.logical_type = "uuid"; });
    case TypeId::kFixed:
      return Named(named, "fixed_" + std::to_string(type.fixed_length()), type.fixed_length(),
                   [](avro::Node&) {});
    case TypeId::kDecimal: {
      std::string name =
          "decimal_" + std::to_string(type.precision()) + "_" + std::to_string(type.scale());
      return Named(named, name, DecimalRequiredBytes(type.precision()), [&](avro::Node& n) {
        n.logical_type = "decimal";
        n.precision = type.precision();
        n.scale = type.scale();
        n.has_precision = true;
        n.has_scale = true;
      });
    }
    default:
      return Err(InvalidArgument("type " + type.ToString() +
                                 " cannot be a partition value; partition fields are primitive"));
  }
}

Result<avro::Schema> ManifestEntryAvroSchema(const Type& partition_type) {
  std::map<std::string, NodePtr> named;
  std::vector<avro::Field> partition_fields;
  for (const NestedField& field : partition_type.fields()) {
    ST_ASSIGN_OR_RETURN(NodePtr node, AvroPrimitiveFor(*field.type, &named));
    partition_fields.push_back(
        MakeOptionalField(AvroCompatibleName(field.name), std::move(node), field.id));
  }

  std::vector<avro::Field> file;
  file.push_back(MakeField("content", avro::MakeInt(), 134));
  file.push_back(MakeField("file_path", avro::MakeString(), 100));
  file.push_back(MakeField("file_format", avro::MakeString(), 101));
  file.push_back(
      MakeField("partition", avro::MakeRecord("r102", std::move(partition_fields)), 102));
  file.push_back(MakeField("record_count", avro::MakeLong(), 103));
  file.push_back(MakeField("file_size_in_bytes", avro::MakeLong(), 104));
  file.push_back(MakeOptionalField("column_sizes", IntMap(117, 118, avro::MakeLong()), 108));
  file.push_back(MakeOptionalField("value_counts", IntMap(119, 120, avro::MakeLong()), 109));
  file.push_back(MakeOptionalField("null_value_counts", IntMap(121, 122, avro::MakeLong()), 110));
  file.push_back(MakeOptionalField("nan_value_counts", IntMap(138, 139, avro::MakeLong()), 137));
  file.push_back(MakeOptionalField("lower_bounds", IntMap(126, 127, avro::MakeBytes()), 125));
  file.push_back(MakeOptionalField("upper_bounds", IntMap(129, 130, avro::MakeBytes()), 128));
  file.push_back(MakeOptionalField("key_metadata", avro::MakeBytes(), 131));
  file.push_back(MakeOptionalField("split_offsets", ListOf(avro::MakeLong(), 133), 132));
  file.push_back(MakeOptionalField("equality_ids", ListOf(avro::MakeInt(), 136), 135));
  file.push_back(MakeOptionalField("sort_order_id", avro::MakeInt(), 140));
  file.push_back(MakeOptionalField("referenced_data_file", avro::MakeString(), 143));

  std::vector<avro::Field> entry;
  entry.push_back(MakeField("status", avro::MakeInt(), 0));
  entry.push_back(MakeOptionalField("snapshot_id", avro::MakeLong(), 1));
  entry.push_back(MakeOptionalField("sequence_number", avro::MakeLong(), 3));
  entry.push_back(MakeOptionalField("file_sequence_number", avro::MakeLong(), 4));
  entry.push_back(MakeField("data_file", avro::MakeRecord("r2", std::move(file)), 2));
  return avro::Schema::Make(avro::MakeRecord("manifest_entry", std::move(entry)));
}

namespace {
avro::Schema BuildManifestFileSchema() {
  std::vector<avro::Field> summary;
  summary.push_back(MakeField("contains_null", avro::MakeBoolean(), 509));
  summary.push_back(MakeOptionalField("contains_nan", avro::MakeBoolean(), 518));
  summary.push_back(MakeOptionalField("lower_bound", avro::MakeBytes(), 510));
  summary.push_back(MakeOptionalField("upper_bound", avro::MakeBytes(), 511));

  std::vector<avro::Field> fields;
  fields.push_back(MakeField("manifest_path", avro::MakeString(), 500));
  fields.push_back(MakeField("manifest_length", avro::MakeLong(), 501));
  fields.push_back(MakeField("partition_spec_id", avro::MakeInt(), 502));
  fields.push_back(MakeField("content", avro::MakeInt(), 517));
  fields.push_back(MakeField("sequence_number", avro::MakeLong(), 515));
  fields.push_back(MakeField("min_sequence_number", avro::MakeLong(), 516));
  fields.push_back(MakeField("added_snapshot_id", avro::MakeLong(), 503));
  fields.push_back(MakeField("added_files_count", avro::MakeInt(), 504));
  fields.push_back(MakeField("existing_files_count", avro::MakeInt(), 505));
  fields.push_back(MakeField("deleted_files_count", avro::MakeInt(), 506));
  fields.push_back(MakeField("added_rows_count", avro::MakeLong(), 512));
  fields.push_back(MakeField("existing_rows_count", avro::MakeLong(), 513));
  fields.push_back(MakeField("deleted_rows_count", avro::MakeLong(), 514));
  fields.push_back(MakeOptionalField(
      "partitions", ListOf(avro::MakeRecord("r508", std::move(summary)), 508), 507));
  fields.push_back(MakeOptionalField("key_metadata", avro::MakeBytes(), 519));
  auto schema = avro::Schema::Make(avro::MakeRecord("manifest_file", std::move(fields)));
  ST_CHECK(schema.has_value());
  return *std::move(schema);
}
}  // namespace

const avro::Schema& ManifestFileAvroSchema() {
  static const avro::Schema* const kSchema = new avro::Schema(BuildManifestFileSchema());
  return *kSchema;
}

}  // namespace st::iceberg::internal
