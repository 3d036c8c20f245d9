#include "decoding/avro_union_internal.h"

namespace st::decoding {

AvroUnionShape ShapeOf(const avro::Node& node) {
  AvroUnionShape shape;
  if (node.type == avro::Type::kNull) {
    shape.nullable = true;
    return shape;
  }
  if (node.type != avro::Type::kUnion) {
    shape.branches.push_back(&node);
    return shape;
  }
  for (size_t i = 0; i < node.branches.size(); ++i) {
    const avro::Node& branch = node.branches[i]->Resolve();
    if (branch.type == avro::Type::kNull) {
      shape.nullable = true;
      shape.null_branch = static_cast<int>(i);
    } else {
      shape.branches.push_back(&branch);
    }
  }
  return shape;
}

std::string AvroBranchName(const avro::Node& branch) {
  const avro::Node& n = branch.Resolve();
  if (n.type == avro::Type::kRecord || n.type == avro::Type::kEnum ||
      n.type == avro::Type::kFixed) {
    const size_t dot = n.full_name.rfind('.');
    return dot == std::string::npos ? n.full_name : n.full_name.substr(dot + 1);
  }
  return std::string(avro::TypeName(n.type));
}

bool AvroFieldHasAlias(const avro::Field& field, std::string_view name) {
  if (field.attributes.FindJson("aliases") == nullptr) return false;
  for (const std::string& alias : avro::FieldAliases(field)) {
    const size_t dot = alias.rfind('.');
    const std::string_view simple = dot == std::string::npos
                                        ? std::string_view(alias)
                                        : std::string_view(alias).substr(dot + 1);
    if (simple == name) return true;
  }
  return false;
}

int FindWriterField(const avro::Node& record, std::string_view table_name) {
  for (size_t i = 0; i < record.fields.size(); ++i) {
    if (record.fields[i].name == table_name) return static_cast<int>(i);
  }
  for (size_t i = 0; i < record.fields.size(); ++i) {
    if (AvroFieldHasAlias(record.fields[i], table_name)) return static_cast<int>(i);
  }
  return -1;
}

bool AvroResolves(const iceberg::Type& w, const iceberg::Type& t) {
  using iceberg::TypeId;
  if (w == t) return true;
  switch (w.id()) {
    case TypeId::kInt:
      return t.id() == TypeId::kLong || t.id() == TypeId::kFloat || t.id() == TypeId::kDouble;
    case TypeId::kLong:
      return t.id() == TypeId::kFloat || t.id() == TypeId::kDouble;
    case TypeId::kFloat:
      return t.id() == TypeId::kDouble;
    case TypeId::kString:
      return t.id() == TypeId::kBinary;
    case TypeId::kBinary:
      return t.id() == TypeId::kString;
    case TypeId::kDecimal:
      return t.id() == TypeId::kDecimal && t.scale() == w.scale() && t.precision() >= w.precision();
    default:
      return false;
  }
}

}  // namespace st::decoding
