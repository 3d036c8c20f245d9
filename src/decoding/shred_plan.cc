#include "decoding/channel_schema.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {
namespace {

Status Build(const iceberg::NestedField& field, const std::string& path, int16_t parent_def,
             int16_t parent_rep, int* next_column, ShredNode* node) {
  node->type = field.type;
  node->name = field.name;
  node->type_id = field.type->id();
  node->path = path;
  node->required = field.required;
  node->def_level = static_cast<int16_t>(parent_def + (field.required ? 0 : 1));
  node->first_column = *next_column;
  switch (field.type->id()) {
    case iceberg::TypeId::kStruct: {
      node->kind = ShredNode::Kind::kStruct;
      const auto& fields = field.type->fields();
      node->children.resize(fields.size());
      node->seen.resize(fields.size());
      for (size_t i = 0; i < fields.size(); ++i) {
        ST_TRY(Build(fields[i], path + "." + fields[i].name, node->def_level, parent_rep,
                     next_column, &node->children[i]));
        node->child_by_name.emplace(fields[i].name, static_cast<int>(i));
      }
      break;
    }
    case iceberg::TypeId::kList:
    case iceberg::TypeId::kMap: {
      const bool is_map = field.type->id() == iceberg::TypeId::kMap;
      node->kind = is_map ? ShredNode::Kind::kMap : ShredNode::Kind::kList;
      node->repeated_level = static_cast<int16_t>(parent_rep + 1);
      const auto& fields = field.type->fields();
      if (is_map && fields[0].type->id() != iceberg::TypeId::kString) {
        return InvalidArgument("map column " + path + " has " + fields[0].type->ToString() +
                               " keys; only string keys can come from JSON objects");
      }
      node->children.resize(fields.size());
      for (size_t i = 0; i < fields.size(); ++i) {
        ST_TRY(Build(fields[i], path + "." + fields[i].name,
                     static_cast<int16_t>(node->def_level + 1), node->repeated_level, next_column,
                     &node->children[i]));
      }
      break;
    }
    default:
      node->kind = ShredNode::Kind::kPrimitive;
      node->column = (*next_column)++;
      break;
  }
  node->end_column = *next_column;
  return Status::OK();
}

Status CheckLevels(const ShredNode& node, int16_t rep, const parquet::Schema& parquet_schema) {
  if (node.kind == ShredNode::Kind::kPrimitive) {
    const auto& c = parquet_schema.columns().at(node.column);
    if (c.max_def_level != node.def_level || c.max_rep_level != rep) {
      return Internal("shred plan levels of " + node.path + " disagree with the Parquet schema");
    }
    return Status::OK();
  }
  const int16_t child_rep = node.kind == ShredNode::Kind::kStruct ? rep : node.repeated_level;
  for (const auto& child : node.children) ST_TRY(CheckLevels(child, child_rep, parquet_schema));
  return Status::OK();
}

}  // namespace

int ShredNode::FindChild(std::string_view name) const {
  if (next_hint < children.size() && children[next_hint].name == name) {
    return static_cast<int>(next_hint++);
  }
  int found = -1;
  if (children.size() <= 8) {  // A short scan beats hashing the key.
    for (size_t i = 0; i < children.size(); ++i) {
      if (children[i].name == name) {
        found = static_cast<int>(i);
        break;
      }
    }
  } else if (auto it = child_by_name.find(name); it != child_by_name.end()) {
    found = it->second;
  }
  if (found >= 0) next_hint = static_cast<size_t>(found) + 1;
  return found;
}

Result<ShredPlan> MakeShredPlan(const iceberg::Schema& schema,
                                const parquet::Schema& parquet_schema) {
  ShredPlan plan;
  plan.root.kind = ShredNode::Kind::kStruct;
  plan.root.type_id = iceberg::TypeId::kStruct;
  plan.root.required = true;
  int next_column = 0;
  std::vector<ShredNode> children;
  for (const auto& field : schema.fields()) {
    ShredNode node;
    ST_TRY(Build(field, field.name, 0, 0, &next_column, &node));
    if (field.name == kKafkaMetadataColumn) {
      plan.kafka = std::move(node);
      plan.has_kafka = true;
    } else {
      plan.root.child_by_name.emplace(field.name, static_cast<int>(children.size()));
      children.push_back(std::move(node));
    }
  }
  plan.root.children = std::move(children);
  plan.root.seen.resize(plan.root.children.size());
  plan.root.end_column = next_column;
  if (next_column != parquet_schema.num_columns()) {
    return Err(Internal("shred plan has " + std::to_string(next_column) +
                        " leaf columns, the Parquet schema " +
                        std::to_string(parquet_schema.num_columns())));
  }
  ST_TRY(CheckLevels(plan.root, 0, parquet_schema));
  if (plan.has_kafka) ST_TRY(CheckLevels(plan.kafka, 0, parquet_schema));
  return plan;
}

std::string ExpectedTypeName(const ShredNode& node) {
  switch (node.kind) {
    case ShredNode::Kind::kStruct:
      return "object (struct)";
    case ShredNode::Kind::kList:
      return "array (list)";
    case ShredNode::Kind::kMap:
      return "object (map)";
    case ShredNode::Kind::kPrimitive:
      break;
  }
  const std::string name = node.type->ToString();
  switch (node.type_id) {
    case iceberg::TypeId::kTimestampTz:
      return name + " (RFC 3339 date-time string with offset)";
    case iceberg::TypeId::kTimestamp:
      return name + " (RFC 3339 date-time string)";
    case iceberg::TypeId::kDate:
      return name + " (YYYY-MM-DD string)";
    case iceberg::TypeId::kTime:
      return name + " (HH:MM:SS[.ffffff] string)";
    case iceberg::TypeId::kUuid:
      return name + " (canonical UUID string)";
    case iceberg::TypeId::kBinary:
    case iceberg::TypeId::kFixed:
      return name + " (base64 string)";
    case iceberg::TypeId::kString:
      return name + " (JSON string)";
    case iceberg::TypeId::kBoolean:
      return name + " (true or false)";
    case iceberg::TypeId::kInt:
      return name + " (integer within 32 bits)";
    case iceberg::TypeId::kLong:
      return name + " (integer within 64 bits)";
    case iceberg::TypeId::kDecimal:
      return name + " (JSON number)";
    default:
      return name + " (JSON number)";
  }
}

}  // namespace st::decoding
