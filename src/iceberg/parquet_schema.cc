#include "iceberg/parquet_schema.h"

#include <vector>

namespace st::iceberg {
namespace {

using parquet::Node;
using parquet::Repetition;

Node ToNode(const NestedField& field) {
  const Repetition rep = field.required ? Repetition::kRequired : Repetition::kOptional;
  const Type& type = *field.type;
  const std::optional<int32_t> id = field.id;
  const std::string& name = field.name;
  switch (type.id()) {
    case TypeId::kBoolean:
      return Node::Boolean(name, rep, id);
    case TypeId::kInt:
      return Node::Int32(name, rep, id);
    case TypeId::kLong:
      return Node::Int64(name, rep, id);
    case TypeId::kFloat:
      return Node::Float(name, rep, id);
    case TypeId::kDouble:
      return Node::Double(name, rep, id);
    case TypeId::kDecimal:
      return Node::Decimal(name, rep, id, type.precision(), type.scale());
    case TypeId::kDate:
      return Node::Date(name, rep, id);
    case TypeId::kTime:
      return Node::Time(name, rep, id);
    case TypeId::kTimestamp:
      return Node::Timestamp(name, rep, id, /*adjusted_to_utc=*/false);
    case TypeId::kTimestampTz:
      return Node::Timestamp(name, rep, id, /*adjusted_to_utc=*/true);
    case TypeId::kString:
      return Node::String(name, rep, id);
    case TypeId::kUuid:
      return Node::Uuid(name, rep, id);
    case TypeId::kFixed:
      return Node::Fixed(name, rep, id, type.fixed_length());
    case TypeId::kBinary:
      return Node::Binary(name, rep, id);
    case TypeId::kStruct: {
      std::vector<Node> children;
      children.reserve(type.fields().size());
      for (const auto& child : type.fields()) children.push_back(ToNode(child));
      return Node::Struct(name, rep, id, std::move(children));
    }
    case TypeId::kList:
      return Node::List(name, rep, id, ToNode(type.element()));
    case TypeId::kMap:
      return Node::Map(name, rep, id, ToNode(type.key()), ToNode(type.value()));
  }
  ST_CHECK(false);
  return Node::Boolean(name, rep, id);
}

}  // namespace

Result<parquet::Schema> ToParquetSchema(const Schema& schema) {
  std::vector<Node> fields;
  fields.reserve(schema.fields().size());
  for (const auto& field : schema.fields()) fields.push_back(ToNode(field));
  auto result = parquet::Schema::Make(std::move(fields));
  if (!result)
    return Err(result.error().WithContext("parquet schema of table schema " +
                                          std::to_string(schema.schema_id())));
  return result;
}

}  // namespace st::iceberg
