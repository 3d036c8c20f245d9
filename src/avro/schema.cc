#include "avro/schema.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "avro/schema_internal.h"

namespace st::avro {

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kNull:
      return "null";
    case Type::kBoolean:
      return "boolean";
    case Type::kInt:
      return "int";
    case Type::kLong:
      return "long";
    case Type::kFloat:
      return "float";
    case Type::kDouble:
      return "double";
    case Type::kBytes:
      return "bytes";
    case Type::kString:
      return "string";
    case Type::kRecord:
      return "record";
    case Type::kEnum:
      return "enum";
    case Type::kArray:
      return "array";
    case Type::kMap:
      return "map";
    case Type::kUnion:
      return "union";
    case Type::kFixed:
      return "fixed";
    case Type::kReference:
      return "reference";
  }
  return "unknown";
}

void Attributes::SetJson(std::string key, std::string json) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(json);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(json));
}

void Attributes::SetInt(std::string key, int64_t value) {
  SetJson(std::move(key), std::to_string(value));
}

void Attributes::SetBool(std::string key, bool value) {
  SetJson(std::move(key), value ? "true" : "false");
}

void Attributes::SetString(std::string key, std::string_view value) {
  SetJson(std::move(key), internal::QuoteJsonString(value));
}

void Attributes::Remove(std::string_view key) {
  std::erase_if(entries_, [&](const auto& e) { return e.first == key; });
}

const std::string* Attributes::FindJson(std::string_view key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::optional<int64_t> Attributes::GetInt(std::string_view key) const {
  const std::string* json = FindJson(key);
  return json == nullptr ? std::nullopt : internal::JsonToInt(*json);
}

std::optional<bool> Attributes::GetBool(std::string_view key) const {
  const std::string* json = FindJson(key);
  if (json == nullptr) return std::nullopt;
  if (*json == "true") return true;
  if (*json == "false") return false;
  return std::nullopt;
}

std::optional<std::string> Attributes::GetString(std::string_view key) const {
  const std::string* json = FindJson(key);
  return json == nullptr ? std::nullopt : internal::JsonToString(*json);
}

NodePtr MakePrimitive(Type type) {
  auto node = std::make_shared<Node>();
  node->type = type;
  return node;
}
NodePtr MakeNull() { return MakePrimitive(Type::kNull); }
NodePtr MakeBoolean() { return MakePrimitive(Type::kBoolean); }
NodePtr MakeInt() { return MakePrimitive(Type::kInt); }
NodePtr MakeLong() { return MakePrimitive(Type::kLong); }
NodePtr MakeFloat() { return MakePrimitive(Type::kFloat); }
NodePtr MakeDouble() { return MakePrimitive(Type::kDouble); }
NodePtr MakeBytes() { return MakePrimitive(Type::kBytes); }
NodePtr MakeString() { return MakePrimitive(Type::kString); }

NodePtr MakeRecord(std::string name, std::vector<Field> fields) {
  auto node = MakePrimitive(Type::kRecord);
  node->name = std::move(name);
  node->fields = std::move(fields);
  return node;
}

NodePtr MakeEnum(std::string name, std::vector<std::string> symbols) {
  auto node = MakePrimitive(Type::kEnum);
  node->name = std::move(name);
  node->symbols = std::move(symbols);
  return node;
}

NodePtr MakeFixed(std::string name, int64_t size) {
  auto node = MakePrimitive(Type::kFixed);
  node->name = std::move(name);
  node->fixed_size = size;
  return node;
}

NodePtr MakeArray(NodePtr items) {
  auto node = MakePrimitive(Type::kArray);
  node->items = std::move(items);
  return node;
}

NodePtr MakeMap(NodePtr values) {
  auto node = MakePrimitive(Type::kMap);
  node->values = std::move(values);
  return node;
}

NodePtr MakeUnion(std::vector<NodePtr> branches) {
  auto node = MakePrimitive(Type::kUnion);
  node->branches = std::move(branches);
  return node;
}

NodePtr MakeOptional(NodePtr type) { return MakeUnion({MakeNull(), std::move(type)}); }

NodePtr MakeReference(std::string name) {
  auto node = MakePrimitive(Type::kReference);
  node->reference = std::move(name);
  return node;
}

NodePtr WithLogicalType(NodePtr node, std::string logical_type) {
  node->logical_type = std::move(logical_type);
  return node;
}

NodePtr MakeDecimal(NodePtr bytes_or_fixed, int32_t precision, int32_t scale) {
  bytes_or_fixed->logical_type = "decimal";
  bytes_or_fixed->precision = precision;
  bytes_or_fixed->scale = scale;
  bytes_or_fixed->has_precision = true;
  bytes_or_fixed->has_scale = true;
  return bytes_or_fixed;
}

NodePtr MakeLogicalMap(std::string record_name, NodePtr key, int32_t key_id, NodePtr value,
                       int32_t value_id) {
  std::vector<Field> fields;
  fields.push_back(MakeField("key", std::move(key), key_id));
  fields.push_back(MakeField("value", std::move(value), value_id));
  return WithLogicalType(MakeArray(MakeRecord(std::move(record_name), std::move(fields))), "map");
}

Field MakeField(std::string name, NodePtr type, std::optional<int32_t> field_id) {
  Field field;
  field.name = std::move(name);
  field.type = std::move(type);
  if (field_id.has_value()) field.attributes.SetInt("field-id", *field_id);
  return field;
}

Field MakeOptionalField(std::string name, NodePtr type, std::optional<int32_t> field_id) {
  Field field = MakeField(std::move(name), MakeOptional(std::move(type)), field_id);
  field.default_json = "null";
  return field;
}

Schema::Schema() : root_(std::make_shared<const Node>()) {}

Result<Schema> Schema::Make(const NodePtr& root) {
  ST_ASSIGN_OR_RETURN(NodePtr copy, internal::ValidateAndCopy(root));
  return Schema(std::shared_ptr<const Node>(std::move(copy)));
}

}  // namespace st::avro
