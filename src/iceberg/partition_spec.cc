#include "iceberg/partition_spec.h"

#include <optional>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/percent_encoding.h"
#include "iceberg/conversions.h"

namespace st::iceberg {

namespace {

// Positions of the source field from the row root, descending through
// structs only; nullopt if the id is absent or sits inside a list or map.
std::optional<std::vector<size_t>> StructPath(const std::vector<NestedField>& fields, int32_t id) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].id == id) return std::vector<size_t>{i};
    if (fields[i].type->id() == TypeId::kStruct) {
      if (auto rest = StructPath(fields[i].type->fields(), id)) {
        rest->insert(rest->begin(), i);
        return rest;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Result<PartitionSpec> PartitionSpec::Make(const Schema& schema, int32_t spec_id,
                                          std::vector<PartitionField> fields) {
  std::unordered_set<std::string> names;
  std::unordered_set<int32_t> ids;
  std::set<std::pair<int32_t, std::string>> source_transforms;
  for (const auto& f : fields) {
    const std::string what = "partition field '" + f.name + "'";
    if (f.name.empty()) {
      return Err(InvalidArgument("partition field with source id " + std::to_string(f.source_id) +
                                 " has an empty name"));
    }
    if (!names.insert(f.name).second) {
      return Err(InvalidArgument("duplicate partition field name '" + f.name + "'"));
    }
    if (f.field_id < kPartitionFieldIdStart) {
      return Err(InvalidArgument(what + " has field id " + std::to_string(f.field_id) +
                                 "; partition field ids start at 1000"));
    }
    if (!ids.insert(f.field_id).second) {
      return Err(
          InvalidArgument(what + " reuses partition field id " + std::to_string(f.field_id)));
    }
    const NestedField* source = schema.FindField(f.source_id);
    if (source == nullptr) {
      return Err(InvalidArgument(what + " refers to source id " + std::to_string(f.source_id) +
                                 ", which is not in schema " + std::to_string(schema.schema_id())));
    }
    if (!StructPath(schema.fields(), f.source_id)) {
      return Err(InvalidArgument(what + " has source '" + schema.FieldPath(f.source_id) +
                                 "' inside a list or map; partition sources must be reachable "
                                 "through structs only"));
    }
    if (!source->type->is_primitive() || !f.transform.CanTransform(*source->type)) {
      return Err(InvalidArgument(what + ": transform " + f.transform.ToString() +
                                 " cannot be applied to source '" + source->name + "' of type " +
                                 source->type->ToString()));
    }
    if (f.transform.kind() != Transform::Kind::kVoid &&
        !source_transforms.emplace(f.source_id, f.transform.ToString()).second) {
      return Err(InvalidArgument(what + " repeats transform " + f.transform.ToString() +
                                 " on source id " + std::to_string(f.source_id)));
    }
    // A partition name equal to a column name is only allowed for identity
    // on that very column (Java rejects the ambiguity too).
    const NestedField* same_name = schema.FindFieldByName(f.name);
    if (same_name != nullptr &&
        !(f.transform.kind() == Transform::Kind::kIdentity && same_name->id == f.source_id)) {
      return Err(InvalidArgument(what + " has the name of schema column '" + f.name +
                                 "'; only an identity partition of that column may reuse it"));
    }
  }
  return MakeUnchecked(spec_id, std::move(fields));
}

PartitionSpec PartitionSpec::MakeUnchecked(int32_t spec_id, std::vector<PartitionField> fields) {
  PartitionSpec spec;
  spec.spec_id_ = spec_id;
  spec.fields_ = std::move(fields);
  return spec;
}

int32_t PartitionSpec::LastFieldId() const {
  int32_t last = kPartitionFieldIdStart - 1;
  for (const auto& f : fields_) last = std::max(last, f.field_id);
  return last;
}

Result<TypePtr> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> out;
  for (const auto& f : fields_) {
    const NestedField* source = schema.FindField(f.source_id);
    if (source == nullptr) {
      return Err(InvalidArgument("partition field '" + f.name + "' of spec " +
                                 std::to_string(spec_id_) + " refers to source id " +
                                 std::to_string(f.source_id) + ", which is not in schema " +
                                 std::to_string(schema.schema_id())));
    }
    out.push_back(NestedField{f.field_id, f.name, false, f.transform.ResultType(source->type), ""});
  }
  return Type::Struct(std::move(out));
}

Result<Value> PartitionSpec::PartitionOf(const Schema& schema, const Value& row) const {
  if (row.kind() != Value::Kind::kStruct) {
    return Err(InvalidArgument("PartitionOf needs a row Struct value"));
  }
  Value::Struct tuple;
  tuple.reserve(fields_.size());
  for (const auto& f : fields_) {
    const auto path = StructPath(schema.fields(), f.source_id);
    if (!path) {
      return Err(InvalidArgument("partition field '" + f.name + "': source id " +
                                 std::to_string(f.source_id) +
                                 " is not reachable through structs in the schema"));
    }
    const Value* v = &row;
    const std::vector<NestedField>* fields = &schema.fields();
    const NestedField* source = nullptr;
    for (size_t index : *path) {
      if (v->is_null()) break;  // A null parent struct makes the source null.
      if (v->kind() != Value::Kind::kStruct || v->struct_value().size() != fields->size()) {
        return Err(InvalidArgument("row value does not match the schema struct containing '" +
                                   schema.FieldPath(f.source_id) + "'"));
      }
      v = &v->struct_value()[index];
      source = &(*fields)[index];
      if (source->type->id() == TypeId::kStruct) fields = &source->type->fields();
    }
    if (v->is_null()) {
      tuple.push_back(Value::Null());
      continue;
    }
    ST_ASSIGN_OR_RETURN(Value p, f.transform.Apply(*source->type, *v));
    tuple.push_back(std::move(p));
  }
  return Value::MakeStruct(std::move(tuple));
}

Result<std::string> PartitionSpec::PartitionPath(const Schema& schema,
                                                 const Value& partition) const {
  if (partition.kind() != Value::Kind::kStruct ||
      partition.struct_value().size() != fields_.size()) {
    return Err(InvalidArgument("partition tuple must be a Struct with " +
                               std::to_string(fields_.size()) + " values for spec " +
                               std::to_string(spec_id_)));
  }
  ST_ASSIGN_OR_RETURN(TypePtr type, PartitionType(schema));
  std::string path;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) path += "/";
    const Type& result_type = *type->fields()[i].type;
    const Value& value = partition.struct_value()[i];
    if (!value.is_null() && !ValueMatchesType(result_type, value)) {
      return Err(InvalidArgument("partition value for '" + fields_[i].name +
                                 "' does not match its type " + result_type.ToString()));
    }
    const std::string human = fields_[i].transform.ToHumanString(result_type, value);
    path += JavaUrlEncoderCompatibleEncode(fields_[i].name) + "=" +
            JavaUrlEncoderCompatibleEncode(human);
  }
  return path;
}

}  // namespace st::iceberg
