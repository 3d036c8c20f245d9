#include "decoding/avro_schema_mapping.h"

#include <algorithm>
#include <string>
#include <vector>

#include "decoding/avro_union_internal.h"
#include "decoding/channel_schema.h"
#include "iceberg/type_nesting.h"

namespace st::decoding {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;
using iceberg::TypePtr;

// Recursive records: the records being mapped, innermost last.
using RecordStack = std::vector<const avro::Node*>;

class Mapper {
 public:
  explicit Mapper(int32_t next_id) : next_id_(next_id) {}

  // `node` is a field's (or element's) type, unions included; `required`
  // receives whether it admits no null.
  Result<TypePtr> Map(const avro::Node& node, const std::string& path, int depth, bool* required) {
    const avro::Node& n = node.Resolve();
    AvroUnionShape shape = ShapeOf(n);
    *required = !shape.nullable;
    if (shape.branches.empty()) {
      return Err(InvalidArgument("avro schema field " + path +
                                 " has only the null type; Iceberg has no null column type"));
    }
    if (shape.branches.size() == 1) return MapCore(*shape.branches[0], path, depth);
    // Several non-null branches: a struct with one optional member each.
    if (depth + 1 > iceberg::kMaxTypeNesting) return Err(TooDeep(path));
    std::vector<NestedField> members(shape.branches.size());
    for (auto& m : members) m.id = next_id_++;
    for (size_t i = 0; i < shape.branches.size(); ++i) {
      members[i].name = AvroBranchName(*shape.branches[i]);
      bool ignored = false;
      ST_ASSIGN_OR_RETURN(members[i].type, Map(*shape.branches[i], path + "." + members[i].name,
                                               depth + 1, &ignored));
    }
    return Type::Struct(std::move(members));
  }

  // A record's fields as struct fields (ids first, then nested types).
  Result<std::vector<NestedField>> Fields(const avro::Node& record, const std::string& prefix,
                                          int depth) {
    if (std::find(stack_.begin(), stack_.end(), &record) != stack_.end()) {
      return Err(InvalidArgument("avro schema: record " + record.full_name + " at " +
                                 (prefix.empty() ? std::string("the top level") : prefix) +
                                 " contains itself; recursive records cannot be table columns"));
    }
    stack_.push_back(&record);
    std::vector<NestedField> fields(record.fields.size());
    for (auto& f : fields) f.id = next_id_++;
    for (size_t i = 0; i < record.fields.size(); ++i) {
      const avro::Field& src = record.fields[i];
      fields[i].name = src.name;
      fields[i].doc = src.doc;
      const std::string path = prefix.empty() ? src.name : prefix + "." + src.name;
      ST_ASSIGN_OR_RETURN(fields[i].type, Map(*src.type, path, depth, &fields[i].required));
    }
    stack_.pop_back();
    return fields;
  }

  int32_t TakeId() { return next_id_++; }

 private:
  static Status TooDeep(const std::string& path) {
    return InvalidArgument("avro schema field " + path + " nests deeper than " +
                           std::to_string(iceberg::kMaxTypeNesting) + " Iceberg levels");
  }

  Result<TypePtr> MapCore(const avro::Node& node, const std::string& path, int depth) {
    const avro::Node& n = node.Resolve();
    switch (n.type) {
      case avro::Type::kRecord: {
        if (depth + 1 > iceberg::kMaxTypeNesting) return Err(TooDeep(path));
        ST_ASSIGN_OR_RETURN(auto fields, Fields(n, path, depth + 1));
        return Type::Struct(std::move(fields));
      }
      case avro::Type::kArray: {
        if (depth + 1 > iceberg::kMaxTypeNesting) return Err(TooDeep(path));
        const int32_t id = next_id_++;
        bool required = false;
        ST_ASSIGN_OR_RETURN(TypePtr element,
                            Map(*n.items, path + ".element", depth + 1, &required));
        return Type::List(id, required, std::move(element));
      }
      case avro::Type::kMap: {
        if (depth + 1 > iceberg::kMaxTypeNesting) return Err(TooDeep(path));
        const int32_t key_id = next_id_++;
        const int32_t value_id = next_id_++;
        bool required = false;
        ST_ASSIGN_OR_RETURN(TypePtr value, Map(*n.values, path + ".value", depth + 1, &required));
        return Type::Map(key_id, Type::String(), value_id, required, std::move(value));
      }
      default: {
        auto type = AvroPrimitiveToIceberg(n);
        if (!type) return Err(type.error().WithContext("avro schema field " + path));
        return type;
      }
    }
  }

  int32_t next_id_;
  RecordStack stack_;
};

Status Incompatible(const std::string& path, const Type& table, const std::string& writer) {
  return FailedPrecondition("schema incompatible: field " + path + " has table type " +
                            table.ToString() + " and writer type " + writer +
                            ", which Iceberg cannot promote or Avro resolve");
}

std::string DescribeWriter(const avro::Node& node) {
  const avro::Node& n = node.Resolve();
  if (auto type = AvroPrimitiveToIceberg(n)) return (*type)->ToString();
  if (n.type == avro::Type::kRecord) return "record " + n.full_name;
  return std::string(avro::TypeName(n.type));
}

// Whether Iceberg may change table type `t` into writer type `w`.
bool IcebergPromotes(const Type& t, const Type& w) {
  if (t.id() == TypeId::kInt) return w.id() == TypeId::kLong;
  if (t.id() == TypeId::kFloat) return w.id() == TypeId::kDouble;
  if (t.id() == TypeId::kDecimal) {
    return w.id() == TypeId::kDecimal && w.scale() == t.scale() && w.precision() > t.precision();
  }
  return false;
}

class Evolver {
 public:
  Evolver(int32_t next_id, const std::set<int32_t>& partition_sources)
      : mapper_(next_id), partition_sources_(partition_sources) {}

  bool changed() const { return changed_; }

  // The table field merged with the writer's type for it.
  Result<NestedField> Field(const NestedField& table, const avro::Node& writer,
                            const std::string& path, int depth) {
    AvroUnionShape shape = ShapeOf(writer.Resolve());
    NestedField out = table;
    const bool source = partition_sources_.count(table.id) > 0;
    if (table.required && shape.nullable && !source) {
      out.required = false;
      changed_ = true;
    }
    if (shape.branches.empty()) return out;  // Always null: fits any optional column.
    if (shape.branches.size() > 1) {
      ST_ASSIGN_OR_RETURN(out.type, UnionStruct(*table.type, shape, path, depth));
    } else {
      ST_ASSIGN_OR_RETURN(out.type, Core(*table.type, *shape.branches[0], path, depth));
    }
    if (source && !(*out.type == *table.type)) {
      return Err(FailedPrecondition("schema incompatible: field " + path +
                                    " is a partition source of type " + table.type->ToString() +
                                    "; the writer's " + DescribeWriter(*shape.branches[0]) +
                                    " would change it"));
    }
    return out;
  }

  // Struct fields of `table` merged with the writer record's fields; writer
  // fields the table lacks are appended (before `_kafka` at the top level).
  Result<std::vector<NestedField>> Struct(const std::vector<NestedField>& table,
                                          const avro::Node& record, const std::string& prefix,
                                          int depth) {
    std::vector<NestedField> out;
    std::vector<bool> used(record.fields.size(), false);
    std::optional<NestedField> kafka;
    for (const NestedField& field : table) {
      const std::string path = prefix.empty() ? field.name : prefix + "." + field.name;
      if (prefix.empty() && field.name == kKafkaMetadataColumn) {
        kafka = field;
        continue;
      }
      const int match = FindWriterField(record, field.name);
      if (match < 0) {
        if (field.required) {
          return Err(FailedPrecondition("schema incompatible: field " + path + " (" +
                                        field.type->ToString() +
                                        ") is required in the table and missing from the writer "
                                        "schema"));
        }
        out.push_back(field);
        continue;
      }
      used[match] = true;
      ST_ASSIGN_OR_RETURN(NestedField merged,
                          Field(field, *record.fields[match].type, path, depth));
      out.push_back(std::move(merged));
    }
    for (size_t i = 0; i < record.fields.size(); ++i) {
      if (used[i]) continue;
      const avro::Field& src = record.fields[i];
      const std::string path = prefix.empty() ? src.name : prefix + "." + src.name;
      ST_ASSIGN_OR_RETURN(NestedField added, NewField(src.name, *src.type, path, depth));
      added.doc = src.doc;
      out.push_back(std::move(added));
    }
    if (kafka) out.push_back(std::move(*kafka));
    return out;
  }

  // `_kafka.key` for a key writer schema: added when the table has none,
  // otherwise merged like any field. Always optional: a record may have no key.
  Result<NestedField> Key(const NestedField* table_key, const avro::Node& writer) {
    const std::string path = std::string(kKafkaMetadataColumn) + ".key";
    if (table_key == nullptr) {
      ST_ASSIGN_OR_RETURN(NestedField added, NewField("key", writer, path, 1));
      added.doc = "Kafka record key";
      return added;
    }
    return Field(*table_key, writer, path, 1);
  }

 private:
  // A writer field the table does not have: optional, fresh ids.
  Result<NestedField> NewField(const std::string& name, const avro::Node& type,
                               const std::string& path, int depth) {
    NestedField field;
    field.id = FreshId();
    field.name = name;
    bool required = false;
    ST_ASSIGN_OR_RETURN(field.type, MapWithFreshIds(type, path, depth, &required));
    field.required = false;  // Iceberg adds only optional columns (no defaults in v2).
    changed_ = true;
    return field;
  }

  int32_t FreshId() { return mapper_.TakeId(); }

  Result<TypePtr> MapWithFreshIds(const avro::Node& type, const std::string& path, int depth,
                                  bool* required) {
    return mapper_.Map(type, path, depth, required);
  }

  Result<TypePtr> Core(const Type& table, const avro::Node& writer, const std::string& path,
                       int depth) {
    const avro::Node& w = writer.Resolve();
    switch (table.id()) {
      case TypeId::kStruct: {
        if (w.type != avro::Type::kRecord) break;
        ST_ASSIGN_OR_RETURN(auto fields, Struct(table.fields(), w, path, depth + 1));
        return Type::Struct(std::move(fields));
      }
      case TypeId::kList: {
        if (w.type != avro::Type::kArray) break;
        ST_ASSIGN_OR_RETURN(NestedField element,
                            Field(table.element(), *w.items, path + ".element", depth + 1));
        return Type::List(element.id, element.required, element.type);
      }
      case TypeId::kMap: {
        if (w.type != avro::Type::kMap) break;
        ST_ASSIGN_OR_RETURN(NestedField value,
                            Field(table.value(), *w.values, path + ".value", depth + 1));
        return Type::Map(table.key().id, table.key().type, value.id, value.required, value.type);
      }
      default: {
        auto mapped = AvroPrimitiveToIceberg(w);
        if (!mapped) break;
        if (AvroResolves(**mapped, table)) return TypePtr(std::make_shared<Type>(table));
        if (IcebergPromotes(table, **mapped)) {
          changed_ = true;
          return *mapped;
        }
        break;
      }
    }
    return Err(Incompatible(path, table, DescribeWriter(w)));
  }

  // A table struct made from a union of several non-null types.
  Result<TypePtr> UnionStruct(const Type& table, const AvroUnionShape& shape,
                              const std::string& path, int depth) {
    if (table.id() != TypeId::kStruct) {
      return Err(Incompatible(
          path, table, "a union of " + std::to_string(shape.branches.size()) + " non-null types"));
    }
    std::vector<NestedField> out;
    std::vector<bool> used(shape.branches.size(), false);
    for (const NestedField& member : table.fields()) {
      int match = -1;
      for (size_t i = 0; i < shape.branches.size(); ++i) {
        if (AvroBranchName(*shape.branches[i]) == member.name) match = static_cast<int>(i);
      }
      if (match < 0) {
        out.push_back(member);
        continue;
      }
      used[match] = true;
      ST_ASSIGN_OR_RETURN(NestedField merged, Field(member, *shape.branches[match],
                                                    path + "." + member.name, depth + 1));
      merged.required = false;
      out.push_back(std::move(merged));
    }
    for (size_t i = 0; i < shape.branches.size(); ++i) {
      if (used[i]) continue;
      const std::string name = AvroBranchName(*shape.branches[i]);
      ST_ASSIGN_OR_RETURN(NestedField added,
                          NewField(name, *shape.branches[i], path + "." + name, depth + 1));
      out.push_back(std::move(added));
    }
    return Type::Struct(std::move(out));
  }

  Mapper mapper_;
  const std::set<int32_t>& partition_sources_;
  bool changed_ = false;
};

}  // namespace

Result<iceberg::TypePtr> AvroPrimitiveToIceberg(const avro::Node& node) {
  const avro::Node& n = node.Resolve();
  const std::string& logical = n.logical_type;
  switch (n.type) {
    case avro::Type::kBoolean:
      return Type::Boolean();
    case avro::Type::kInt:
      if (logical == "date") return Type::Date();
      if (logical == "time-millis") return Type::Time();
      return Type::Int();
    case avro::Type::kLong:
      if (logical == "time-micros") return Type::Time();
      if (logical == "timestamp-millis" || logical == "timestamp-micros") {
        const std::optional<bool> utc = n.attributes.GetBool("adjust-to-utc");
        return utc.value_or(true) ? Type::TimestampTz() : Type::Timestamp();
      }
      if (logical == "local-timestamp-millis" || logical == "local-timestamp-micros") {
        return Type::Timestamp();
      }
      if (logical == "timestamp-nanos" || logical == "local-timestamp-nanos") {
        return Err(InvalidArgument("logical type " + logical +
                                   " needs Iceberg v3 timestamp_ns, which this server does not "
                                   "write; produce timestamp-micros"));
      }
      return Type::Long();
    case avro::Type::kFloat:
      return Type::Float();
    case avro::Type::kDouble:
      return Type::Double();
    case avro::Type::kString:
      if (logical == "uuid") return Type::Uuid();
      return Type::String();
    case avro::Type::kBytes:
      if (n.is_decimal) return Type::Decimal(n.precision, n.scale);
      if (logical == "decimal") {
        return Err(InvalidArgument("decimal needs a precision of 1 to 38 and a scale within it"));
      }
      return Type::Binary();
    case avro::Type::kFixed:
      if (n.is_decimal) return Type::Decimal(n.precision, n.scale);
      if (logical == "decimal") {
        return Err(
            InvalidArgument("decimal needs a precision of 1 to 38 that fits the fixed size, and a "
                            "scale within it"));
      }
      if (logical == "uuid" && n.fixed_size == 16) return Type::Uuid();
      return Type::Fixed(static_cast<int32_t>(n.fixed_size));
    case avro::Type::kEnum:
      return Type::String();
    case avro::Type::kNull:
      return Err(InvalidArgument("the null type has no Iceberg column type"));
    default:
      return Err(InvalidArgument(std::string("avro ") + std::string(avro::TypeName(n.type)) +
                                 " is not a primitive type"));
  }
}

Result<iceberg::Schema> AvroToIcebergSchema(const avro::Schema& writer) {
  const avro::Node& root = writer.root().Resolve();
  if (root.type != avro::Type::kRecord) {
    return Err(InvalidArgument("avro schema: the top level must be a record, not " +
                               std::string(avro::TypeName(root.type))));
  }
  Mapper mapper(1);
  ST_ASSIGN_OR_RETURN(auto fields, mapper.Fields(root, "", 0));
  return iceberg::Schema::Make(0, std::move(fields));
}

Result<AvroEvolution> EvolveForAvro(const iceberg::Schema& table, const avro::Schema& writer,
                                    const std::set<int32_t>& partition_source_ids) {
  const avro::Node& root = writer.root().Resolve();
  if (root.type != avro::Type::kRecord) {
    return Err(InvalidArgument("avro schema: the top level must be a record, not " +
                               std::string(avro::TypeName(root.type))));
  }
  Evolver evolver(table.HighestFieldId() + 1, partition_source_ids);
  ST_ASSIGN_OR_RETURN(auto fields, evolver.Struct(table.fields(), root, "", 0));
  if (!evolver.changed()) return AvroEvolution{table, false};
  ST_ASSIGN_OR_RETURN(iceberg::Schema evolved,
                      iceberg::Schema::Make(table.schema_id() + 1, std::move(fields),
                                            table.identifier_field_ids()));
  return AvroEvolution{std::move(evolved), true};
}

Result<avro::Schema> ParseAvroWriterSchema(const WriterSchema& schema) {
  std::vector<std::string_view> referenced;
  referenced.reserve(schema.references.size());
  for (const auto& [name, text] : schema.references) referenced.push_back(text);
  return avro::Schema::Parse(schema.text, referenced);
}

Result<AvroEvolution> EvolveKeyForAvro(const iceberg::Schema& table,
                                       const avro::Schema& key_writer) {
  ST_ASSIGN_OR_RETURN(const NestedField* key, KafkaKeyOf(table));
  const std::set<int32_t> no_partition_sources;  // The key is never one.
  Evolver evolver(table.HighestFieldId() + 1, no_partition_sources);
  ST_ASSIGN_OR_RETURN(NestedField evolved, evolver.Key(key, key_writer.root()));
  if (!evolver.changed()) return AvroEvolution{table, false};
  evolved.required = false;
  ST_ASSIGN_OR_RETURN(iceberg::Schema out, WithKafkaKey(table, std::move(evolved)));
  return AvroEvolution{std::move(out), true};
}

}  // namespace st::decoding
