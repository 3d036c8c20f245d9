// Schema validation and name resolution: turns a tree built by hand or by the
// JSON parser into the frozen, resolved copy a Schema holds.
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

#include "avro/schema_internal.h"

namespace st::avro::internal {
namespace {

bool IsPrimitiveName(std::string_view name) {
  return name == "null" || name == "boolean" || name == "int" || name == "long" ||
         name == "float" || name == "double" || name == "bytes" || name == "string";
}

bool IsValidSimpleName(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(name[0])) return false;
  for (char c : name.substr(1)) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool IsValidFullName(std::string_view name) {
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    if (!IsValidSimpleName(name.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// Largest decimal precision a fixed of `size` bytes can hold.
int64_t MaxDecimalPrecision(int64_t size) {
  if (size <= 0) return 0;
  if (size > 16) return std::numeric_limits<int64_t>::max();
  // floor(log10(2^(8*size - 1) - 1)); log10 of a power of two is never an integer.
  return static_cast<int64_t>(std::floor(static_cast<double>(8 * size - 1) * std::log10(2.0)));
}

Status CheckAttributes(const Attributes& attributes) {
  for (const auto& [key, json] : attributes.entries()) {
    if (key.empty()) return InvalidArgument("avro schema: empty attribute name");
    if (!IsValidJson(json)) {
      return InvalidArgument("avro schema: attribute '" + key + "' is not valid JSON text");
    }
  }
  return Status::OK();
}

class Copier {
 public:
  explicit Copier(const ExternalNames* external) : external_(external) {}
  Result<NodePtr> Copy(const NodePtr& src, const std::string& enclosing_ns, int depth);

 private:
  Status Named(const Node& src, Node* dst, const std::string& enclosing_ns, std::string* ns);
  Status CheckUnion(const Node& node);
  void Derive(Node* node);

  std::unordered_map<std::string, const Node*> named_;     // full name → definition.
  std::unordered_map<const Node*, std::string> seen_src_;  // Source named node → full name.
  const ExternalNames* external_;                          // May be null.
};

Status Copier::Named(const Node& src, Node* dst, const std::string& enclosing_ns, std::string* ns) {
  if (!IsValidFullName(src.name)) {
    return InvalidArgument("avro schema: invalid " + std::string(TypeName(src.type)) + " name '" +
                           src.name + "'; use [A-Za-z_][A-Za-z0-9_]* parts");
  }
  if (!src.name_space.empty() && !IsValidFullName(src.name_space)) {
    return InvalidArgument("avro schema: invalid namespace '" + src.name_space + "' of '" +
                           src.name + "'");
  }
  size_t dot = src.name.rfind('.');
  if (dot != std::string::npos) {
    *ns = src.name.substr(0, dot);
    dst->full_name = src.name;
  } else {
    *ns = !src.name_space.empty() ? src.name_space : src.null_namespace ? "" : enclosing_ns;
    dst->full_name = ns->empty() ? src.name : *ns + "." + src.name;
  }
  std::string simple = dot == std::string::npos ? src.name : src.name.substr(dot + 1);
  if (IsPrimitiveName(simple)) {
    return InvalidArgument("avro schema: named type '" + dst->full_name +
                           "' may not reuse a primitive type name");
  }
  if (!named_.emplace(dst->full_name, dst).second) {
    return InvalidArgument("avro schema: named type '" + dst->full_name +
                           "' is defined twice; refer to it by name after the first definition");
  }
  return Status::OK();
}

Status Copier::CheckUnion(const Node& node) {
  std::set<std::string> keys;
  for (const NodePtr& branch : node.branches) {
    const Node& b = branch->Resolve();
    if (b.type == Type::kUnion) {
      return InvalidArgument("avro schema: a union may not directly contain another union");
    }
    bool named = b.type == Type::kRecord || b.type == Type::kEnum || b.type == Type::kFixed;
    std::string key = named ? b.full_name : std::string(TypeName(b.type));
    if (!keys.insert(key).second) {
      return InvalidArgument("avro schema: union has two branches of type '" + key + "'; keep one");
    }
  }
  return Status::OK();
}

void Copier::Derive(Node* node) {
  switch (node->type) {
    case Type::kNull:
      node->min_encoded_bytes = 0;
      break;
    case Type::kFloat:
      node->min_encoded_bytes = 4;
      break;
    case Type::kDouble:
      node->min_encoded_bytes = 8;
      break;
    case Type::kFixed:
      node->min_encoded_bytes = node->fixed_size;
      break;
    case Type::kRecord: {
      int64_t sum = 0;
      for (const Field& f : node->fields) sum += f.type->min_encoded_bytes;
      node->min_encoded_bytes = sum;
      break;
    }
    case Type::kReference:
      // A reference into a record still being copied sees 0: a safe lower bound.
      node->min_encoded_bytes = node->resolved->min_encoded_bytes;
      break;
    default:
      node->min_encoded_bytes = 1;
      break;
  }
  // Precision above 38 cannot be held by the Int128 of Value::Decimal; such
  // values stay Binary rather than failing to decode.
  if (node->logical_type == "decimal" && node->has_precision && node->precision > 0 &&
      node->precision <= 38 && node->scale >= 0 && node->scale <= node->precision) {
    node->is_decimal =
        node->type == Type::kBytes ||
        (node->type == Type::kFixed && node->precision <= MaxDecimalPrecision(node->fixed_size));
  }
  if (node->type == Type::kArray && node->logical_type == "map") {
    const Node& items = node->items->Resolve();
    node->is_logical_map = items.type == Type::kRecord && items.fields.size() == 2 &&
                           items.fields[0].name == "key" && items.fields[1].name == "value";
  }
}

Result<NodePtr> Copier::Copy(const NodePtr& src, const std::string& enclosing_ns, int depth) {
  if (src == nullptr) return Err(InvalidArgument("avro schema: missing type (null node)"));
  if (depth > kMaxSchemaDepth) {
    return Err(InvalidArgument("avro schema: nested deeper than " +
                               std::to_string(kMaxSchemaDepth) + " levels"));
  }
  auto dst = std::make_shared<Node>();
  if (auto it = seen_src_.find(src.get()); it != seen_src_.end()) {
    // The same named node object used twice: the second use is a reference.
    dst->type = Type::kReference;
    dst->reference = it->second;
    dst->resolved = named_.at(it->second);
    Derive(dst.get());
    return dst;
  }
  dst->type = src->type;
  dst->name = src->name;
  dst->name_space = src->name_space;
  dst->null_namespace = src->null_namespace;
  dst->doc = src->doc;
  dst->logical_type = src->logical_type;
  dst->precision = src->precision;
  dst->scale = src->scale;
  dst->has_precision = src->has_precision;
  dst->has_scale = src->has_scale;
  dst->attributes = src->attributes;
  ST_TRY(CheckAttributes(src->attributes));

  std::string ns = enclosing_ns;
  switch (src->type) {
    case Type::kRecord: {
      ST_TRY(Named(*src, dst.get(), enclosing_ns, &ns));
      seen_src_.emplace(src.get(), dst->full_name);
      std::set<std::string_view> names;
      for (const Field& field : src->fields) {
        if (!IsValidSimpleName(field.name)) {
          return Err(InvalidArgument("avro schema: record '" + dst->full_name +
                                     "' has invalid field name '" + field.name + "'"));
        }
        if (!names.insert(field.name).second) {
          return Err(InvalidArgument("avro schema: record '" + dst->full_name +
                                     "' has two fields named '" + field.name + "'"));
        }
        ST_TRY(CheckAttributes(field.attributes));
        if (field.default_json.has_value() && !IsValidJson(*field.default_json)) {
          return Err(InvalidArgument("avro schema: field '" + field.name +
                                     "' default is not valid JSON text"));
        }
        Field copy;
        copy.name = field.name;
        copy.doc = field.doc;
        copy.default_json = field.default_json;
        copy.attributes = field.attributes;
        auto type = Copy(field.type, ns, depth + 1);
        if (!type) {
          return Err(type.error().WithContext("field '" + dst->full_name + "." + field.name + "'"));
        }
        copy.type = std::move(*type);
        dst->fields.push_back(std::move(copy));
      }
      break;
    }
    case Type::kEnum: {
      ST_TRY(Named(*src, dst.get(), enclosing_ns, &ns));
      seen_src_.emplace(src.get(), dst->full_name);
      std::set<std::string_view> symbols;
      for (const std::string& symbol : src->symbols) {
        if (!IsValidSimpleName(symbol) || !symbols.insert(symbol).second) {
          return Err(InvalidArgument("avro schema: enum '" + dst->full_name +
                                     "' has an invalid or repeated symbol '" + symbol + "'"));
        }
      }
      if (src->enum_default.has_value() && symbols.count(*src->enum_default) == 0) {
        return Err(InvalidArgument("avro schema: enum '" + dst->full_name + "' default '" +
                                   *src->enum_default + "' is not one of its symbols"));
      }
      dst->symbols = src->symbols;
      dst->enum_default = src->enum_default;
      break;
    }
    case Type::kFixed:
      ST_TRY(Named(*src, dst.get(), enclosing_ns, &ns));
      seen_src_.emplace(src.get(), dst->full_name);
      if (src->fixed_size < 0 || src->fixed_size > std::numeric_limits<int32_t>::max()) {
        return Err(InvalidArgument("avro schema: fixed '" + dst->full_name + "' has invalid size " +
                                   std::to_string(src->fixed_size)));
      }
      dst->fixed_size = src->fixed_size;
      break;
    case Type::kArray: {
      ST_ASSIGN_OR_RETURN(dst->items, Copy(src->items, ns, depth + 1));
      break;
    }
    case Type::kMap: {
      ST_ASSIGN_OR_RETURN(dst->values, Copy(src->values, ns, depth + 1));
      break;
    }
    case Type::kUnion: {
      if (src->branches.empty()) return Err(InvalidArgument("avro schema: empty union"));
      for (const NodePtr& branch : src->branches) {
        ST_ASSIGN_OR_RETURN(NodePtr copy, Copy(branch, ns, depth + 1));
        dst->branches.push_back(std::move(copy));
      }
      ST_TRY(CheckUnion(*dst));
      break;
    }
    case Type::kReference: {
      const std::string& ref = src->reference;
      auto it = named_.end();
      if (ref.find('.') == std::string::npos && !enclosing_ns.empty()) {
        it = named_.find(enclosing_ns + "." + ref);
      }
      if (it == named_.end()) it = named_.find(ref);
      if (it == named_.end() && external_ != nullptr) {
        // A type of a referenced schema: defined here, at its first use.
        auto ext = external_->end();
        if (ref.find('.') == std::string::npos && !enclosing_ns.empty()) {
          ext = external_->find(enclosing_ns + "." + ref);
        }
        if (ext == external_->end()) ext = external_->find(ref);
        if (ext != external_->end()) {
          const std::string& full = ext->first;
          const size_t dot = full.rfind('.');
          return Copy(ext->second, dot == std::string::npos ? "" : full.substr(0, dot), depth);
        }
      }
      if (it == named_.end()) {
        return Err(InvalidArgument("avro schema: unknown type '" + ref +
                                   "'; define a named type before referring to it"));
      }
      dst->reference = ref;
      dst->resolved = it->second;
      break;
    }
    default:
      break;
  }
  Derive(dst.get());
  return dst;
}

}  // namespace

Result<NodePtr> ValidateAndCopy(const NodePtr& root, const ExternalNames* external) {
  Copier copier(external);
  return copier.Copy(root, "", 0);
}

}  // namespace st::avro::internal
