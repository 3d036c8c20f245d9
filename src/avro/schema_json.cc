// Avro schema <-> JSON. The only file of the module that sees nlohmann::json.
#include <nlohmann/json.hpp>

#include "avro/schema_internal.h"
#include "common/json_nesting.h"

namespace st::avro {
namespace {

using Json = nlohmann::ordered_json;

// Four JSON levels per schema level at most (a union array, a record
// object, its "fields" array, a field object).
static_assert(4 * internal::kMaxSchemaDepth <= kMaxJsonNesting);

std::optional<Type> PrimitiveType(std::string_view name) {
  if (name == "null") return Type::kNull;
  if (name == "boolean") return Type::kBoolean;
  if (name == "int") return Type::kInt;
  if (name == "long") return Type::kLong;
  if (name == "float") return Type::kFloat;
  if (name == "double") return Type::kDouble;
  if (name == "bytes") return Type::kBytes;
  if (name == "string") return Type::kString;
  return std::nullopt;
}

Result<std::string> StringMember(const Json& obj, const char* key, bool required,
                                 std::string_view what) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (!required) return std::string();
    return Err(InvalidArgument("avro schema: " + std::string(what) + " needs \"" + key + "\""));
  }
  if (!it->is_string()) {
    return Err(InvalidArgument("avro schema: \"" + std::string(key) + "\" of " + std::string(what) +
                               " must be a string"));
  }
  return it->get<std::string>();
}

Result<NodePtr> FromJson(const Json& json, int depth);

Result<Field> FieldFromJson(const Json& json, int depth) {
  if (!json.is_object())
    return Err(InvalidArgument("avro schema: a record field must be an object"));
  Field field;
  ST_ASSIGN_OR_RETURN(field.name, StringMember(json, "name", true, "record field"));
  auto type = json.find("type");
  if (type == json.end()) {
    return Err(InvalidArgument("avro schema: field '" + field.name + "' needs \"type\""));
  }
  auto node = FromJson(*type, depth + 1);
  if (!node) return Err(node.error().WithContext("field '" + field.name + "'"));
  field.type = std::move(*node);
  for (const auto& [key, value] : json.items()) {
    if (key == "name" || key == "type") continue;
    if (key == "doc" && value.is_string()) {
      field.doc = value.get<std::string>();
    } else if (key == "default") {
      field.default_json = value.dump();
    } else {
      field.attributes.SetJson(key, value.dump());
    }
  }
  return field;
}

Result<NodePtr> FromJson(const Json& json, int depth) {
  if (depth > internal::kMaxSchemaDepth) {
    return Err(InvalidArgument("avro schema: nested deeper than " +
                               std::to_string(internal::kMaxSchemaDepth) + " levels"));
  }
  if (json.is_string()) {
    const std::string& name = json.get_ref<const std::string&>();
    if (auto t = PrimitiveType(name)) return MakePrimitive(*t);
    return MakeReference(name);
  }
  if (json.is_array()) {
    std::vector<NodePtr> branches;
    for (const Json& branch : json) {
      ST_ASSIGN_OR_RETURN(NodePtr node, FromJson(branch, depth + 1));
      branches.push_back(std::move(node));
    }
    return MakeUnion(std::move(branches));
  }
  if (!json.is_object()) {
    return Err(InvalidArgument("avro schema: expected a type name, union array or object, got " +
                               json.dump()));
  }
  auto type_it = json.find("type");
  if (type_it == json.end() || !type_it->is_string()) {
    return Err(InvalidArgument("avro schema: object without a string \"type\": " +
                               json.dump().substr(0, 200)));
  }
  const std::string& type_name = type_it->get_ref<const std::string&>();
  NodePtr node;
  // Members interpreted for this type; the rest become attributes.
  std::vector<std::string_view> known = {"type"};
  if (auto t = PrimitiveType(type_name)) {
    node = MakePrimitive(*t);
  } else if (type_name == "record" || type_name == "error") {
    node = MakePrimitive(Type::kRecord);
    auto fields = json.find("fields");
    if (fields == json.end() || !fields->is_array()) {
      return Err(InvalidArgument("avro schema: record needs a \"fields\" array"));
    }
    for (const Json& f : *fields) {
      ST_ASSIGN_OR_RETURN(Field field, FieldFromJson(f, depth));
      node->fields.push_back(std::move(field));
    }
    known.insert(known.end(), {"fields"});
  } else if (type_name == "enum") {
    node = MakePrimitive(Type::kEnum);
    auto symbols = json.find("symbols");
    if (symbols == json.end() || !symbols->is_array()) {
      return Err(InvalidArgument("avro schema: enum needs a \"symbols\" array"));
    }
    for (const Json& s : *symbols) {
      if (!s.is_string()) return Err(InvalidArgument("avro schema: enum symbols must be strings"));
      node->symbols.push_back(s.get<std::string>());
    }
    if (auto def = json.find("default"); def != json.end()) {
      if (!def->is_string())
        return Err(InvalidArgument("avro schema: enum default must be a string"));
      node->enum_default = def->get<std::string>();
    }
    known.insert(known.end(), {"symbols", "default"});
  } else if (type_name == "array" || type_name == "map") {
    const char* key = type_name == "array" ? "items" : "values";
    auto child = json.find(key);
    if (child == json.end()) {
      return Err(InvalidArgument("avro schema: " + type_name + " needs \"" + key + "\""));
    }
    ST_ASSIGN_OR_RETURN(NodePtr c, FromJson(*child, depth + 1));
    node = type_name == "array" ? MakeArray(std::move(c)) : MakeMap(std::move(c));
    known.push_back(key);
  } else if (type_name == "fixed") {
    node = MakePrimitive(Type::kFixed);
    auto size = json.find("size");
    if (size == json.end() || !size->is_number_integer()) {
      return Err(InvalidArgument("avro schema: fixed needs an integer \"size\""));
    }
    node->fixed_size =
        size->is_number_unsigned()
            ? static_cast<int64_t>(std::min<uint64_t>(size->get<uint64_t>(), INT64_MAX))
            : size->get<int64_t>();
    known.push_back("size");
  } else if (type_name == "union") {
    return Err(
        InvalidArgument("avro schema: write a union as a JSON array, not {\"type\":\"union\"}"));
  } else {
    node = MakeReference(type_name);
  }
  bool named =
      node->type == Type::kRecord || node->type == Type::kEnum || node->type == Type::kFixed;
  if (named) {
    ST_ASSIGN_OR_RETURN(node->name, StringMember(json, "name", true, type_name));
    ST_ASSIGN_OR_RETURN(node->name_space, StringMember(json, "namespace", false, type_name));
    node->null_namespace = node->name_space.empty() && json.contains("namespace");
    known.insert(known.end(), {"name", "namespace"});
  }
  for (const auto& [key, value] : json.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    if (key == "doc" && named && value.is_string()) {
      node->doc = value.get<std::string>();
    } else if (key == "logicalType" && value.is_string()) {
      node->logical_type = value.get<std::string>();
    } else if (key == "precision" && value.is_number_integer() && value.get<int64_t>() >= 0 &&
               value.get<int64_t>() <= INT32_MAX) {
      node->precision = static_cast<int32_t>(value.get<int64_t>());
      node->has_precision = true;
    } else if (key == "scale" && value.is_number_integer() && value.get<int64_t>() >= 0 &&
               value.get<int64_t>() <= INT32_MAX) {
      node->scale = static_cast<int32_t>(value.get<int64_t>());
      node->has_scale = true;
    } else {
      node->attributes.SetJson(key, value.dump());
    }
  }
  return node;
}

void AddAttributes(const Attributes& attributes, Json* out) {
  for (const auto& [key, json] : attributes.entries()) {
    (*out)[key] = Json::parse(json);
  }
}

Json ToJsonValue(const Node& node) {
  bool plain = node.logical_type.empty() && !node.has_precision && !node.has_scale &&
               node.attributes.empty();
  switch (node.type) {
    case Type::kUnion: {
      Json out = Json::array();
      for (const NodePtr& b : node.branches) out.push_back(ToJsonValue(*b));
      return out;
    }
    case Type::kReference:
      if (plain) return node.reference;
      break;
    case Type::kRecord:
    case Type::kEnum:
    case Type::kFixed:
    case Type::kArray:
    case Type::kMap:
      break;
    default:
      if (plain) return std::string(TypeName(node.type));
      break;
  }
  Json out = Json::object();
  if (node.type == Type::kReference) {
    out["type"] = node.reference;
  } else {
    out["type"] = std::string(TypeName(node.type));
  }
  if (node.type == Type::kRecord || node.type == Type::kEnum || node.type == Type::kFixed) {
    out["name"] = node.name;
    if (!node.name_space.empty() || node.null_namespace) out["namespace"] = node.name_space;
    if (!node.doc.empty()) out["doc"] = node.doc;
  }
  switch (node.type) {
    case Type::kRecord: {
      Json fields = Json::array();
      for (const Field& f : node.fields) {
        Json field = Json::object();
        field["name"] = f.name;
        field["type"] = ToJsonValue(*f.type);
        if (!f.doc.empty()) field["doc"] = f.doc;
        if (f.default_json.has_value()) field["default"] = Json::parse(*f.default_json);
        AddAttributes(f.attributes, &field);
        fields.push_back(std::move(field));
      }
      out["fields"] = std::move(fields);
      break;
    }
    case Type::kEnum:
      out["symbols"] = node.symbols;
      if (node.enum_default.has_value()) out["default"] = *node.enum_default;
      break;
    case Type::kFixed:
      out["size"] = node.fixed_size;
      break;
    case Type::kArray:
      out["items"] = ToJsonValue(*node.items);
      break;
    case Type::kMap:
      out["values"] = ToJsonValue(*node.values);
      break;
    default:
      break;
  }
  if (!node.logical_type.empty()) out["logicalType"] = node.logical_type;
  if (node.has_precision) out["precision"] = node.precision;
  if (node.has_scale) out["scale"] = node.scale;
  AddAttributes(node.attributes, &out);
  return out;
}

}  // namespace

namespace internal {

std::string QuoteJsonString(std::string_view text) {
  return Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<int64_t> JsonToInt(const std::string& json) {
  Json value = Json::parse(json, nullptr, false);
  if (!value.is_number_integer()) return std::nullopt;
  if (value.is_number_unsigned() && value.get<uint64_t>() > INT64_MAX) return std::nullopt;
  return value.get<int64_t>();
}

std::optional<std::string> JsonToString(const std::string& json) {
  Json value = Json::parse(json, nullptr, false);
  if (!value.is_string()) return std::nullopt;
  return value.get<std::string>();
}

bool IsValidJson(std::string_view json) {
  if (!CheckJsonNesting(json, "attribute").ok()) return false;
  return Json::accept(json);
}

}  // namespace internal

std::vector<std::string> FieldAliases(const Field& field) {
  std::vector<std::string> out;
  const std::string* json = field.attributes.FindJson("aliases");
  if (json == nullptr) return out;
  Json value = Json::parse(*json, nullptr, false);
  if (!value.is_array()) return out;
  for (const Json& alias : value) {
    if (alias.is_string()) out.push_back(alias.get<std::string>());
  }
  return out;
}

Result<Schema> Schema::Parse(std::string_view json) {
  ST_TRY(CheckJsonNesting(json, "avro schema"));
  Json parsed = Json::parse(json, nullptr, false);
  if (parsed.is_discarded()) {
    return Err(
        InvalidArgument("avro schema: not valid JSON (" + std::to_string(json.size()) + " bytes)"));
  }
  ST_ASSIGN_OR_RETURN(NodePtr root, FromJson(parsed, 0));
  return Make(root);
}

namespace {

// Every named type defined in `node`'s tree (not through references).
void CollectNamed(const NodePtr& node, internal::ExternalNames* out) {
  if (node == nullptr) return;
  switch (node->type) {
    case Type::kRecord:
      out->emplace(node->full_name, node);
      for (const Field& f : node->fields) CollectNamed(f.type, out);
      break;
    case Type::kEnum:
    case Type::kFixed:
      out->emplace(node->full_name, node);
      break;
    case Type::kArray:
      CollectNamed(node->items, out);
      break;
    case Type::kMap:
      CollectNamed(node->values, out);
      break;
    case Type::kUnion:
      for (const NodePtr& b : node->branches) CollectNamed(b, out);
      break;
    default:
      break;
  }
}

Result<NodePtr> ParseNode(std::string_view json, const std::string& what) {
  ST_TRY(CheckJsonNesting(json, what));
  Json parsed = Json::parse(json, nullptr, false);
  if (parsed.is_discarded()) {
    return Err(
        InvalidArgument(what + ": not valid JSON (" + std::to_string(json.size()) + " bytes)"));
  }
  return FromJson(parsed, 0);
}

}  // namespace

Result<Schema> Schema::Parse(std::string_view json,
                             const std::vector<std::string_view>& referenced) {
  if (referenced.empty()) return Parse(json);
  // The validated trees own the definitions the copy below reads.
  internal::ExternalNames external;
  for (size_t i = 0; i < referenced.size(); ++i) {
    const std::string what = "avro schema reference " + std::to_string(i + 1);
    ST_ASSIGN_OR_RETURN(NodePtr source, ParseNode(referenced[i], what));
    Result<NodePtr> validated = internal::ValidateAndCopy(source, &external);
    if (!validated.has_value()) return Err(validated.error().WithContext(what));
    // Earlier references' names win: the registry lists each once.
    CollectNamed(*validated, &external);
  }
  ST_ASSIGN_OR_RETURN(NodePtr root, ParseNode(json, "avro schema"));
  ST_ASSIGN_OR_RETURN(NodePtr copy, internal::ValidateAndCopy(root, &external));
  return Schema(std::shared_ptr<const Node>(std::move(copy)));
}

std::string Schema::ToJson() const {
  return ToJsonValue(*root_).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace st::avro
