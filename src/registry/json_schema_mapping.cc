// Walks a JSON Schema document with nlohmann::ordered_json so that
// properties keep their document order (field ids follow it).
#include "registry/json_schema_mapping.h"

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "common/json_nesting.h"
#include "registry/json_ref_internal.h"

namespace st::registry {

namespace {

using Json = nlohmann::ordered_json;

constexpr int kMaxRefHops = 32;
constexpr int kMaxDecimalScale = 38;

Status Bad(const std::string& path, const std::string& why) {
  return InvalidArgument("JSON schema node '" + (path.empty() ? std::string("/") : path) +
                         "': " + why);
}

std::string EscapePointerToken(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// A schema node after following $ref and nullable unions.
struct Shape {
  const Json* node = nullptr;
  const Json* document = nullptr;  // Where the node's own local $refs point.
  std::string path;
  std::string type;  // string, integer, number, boolean, object, array, enum
  bool nullable = false;
};

class Mapper {
 public:
  Mapper(const Json& root, const std::map<std::string, Json>& references)
      : root_(root), references_(references) {}

  // A key: an object with properties maps as Run() does; anything else is
  // one field "key" of the root's type.
  Result<JsonKeyMapping> RunKey() {
    ST_ASSIGN_OR_RETURN(Shape shape, Classify(root_, "", &root_));
    if (shape.type == "object" && shape.node->contains("properties") &&
        (*shape.node)["properties"].is_object() && !(*shape.node)["properties"].empty()) {
      ST_ASSIGN_OR_RETURN(iceberg::Schema fields, Run());
      return JsonKeyMapping{std::move(fields), false};
    }
    iceberg::NestedField field;
    field.id = ++next_id_;
    field.name = "key";
    field.required = !shape.nullable;
    ST_ASSIGN_OR_RETURN(field.type, Convert(shape, 1));
    Result<iceberg::Schema> schema = iceberg::Schema::Make(0, {std::move(field)});
    if (!schema.has_value()) {
      return Err(InvalidArgument("the JSON key schema maps to an invalid Iceberg schema: " +
                                 schema.error().message()));
    }
    return JsonKeyMapping{*std::move(schema), true};
  }

  Result<iceberg::Schema> Run() {
    ST_ASSIGN_OR_RETURN(Shape shape, Classify(root_, "", &root_));
    if (shape.type != "object" || !shape.node->contains("properties") ||
        !(*shape.node)["properties"].is_object() || (*shape.node)["properties"].empty()) {
      return Err(Bad(shape.path,
                     "the root must be an object schema with \"properties\"; each property "
                     "becomes a column"));
    }
    ST_ASSIGN_OR_RETURN(std::vector<iceberg::NestedField> fields, StructFields(shape, 1));
    Result<iceberg::Schema> schema = iceberg::Schema::Make(0, std::move(fields));
    if (!schema.has_value()) {
      return Err(InvalidArgument("the JSON schema maps to an invalid Iceberg schema: " +
                                 schema.error().message()));
    }
    return schema;
  }

 private:
  // The document a "$ref" in `document` names: itself for "#...", else
  // the schema reference registered under its document part.
  Result<const Json*> TargetDocument(const std::string& ref, const std::string& path,
                                     const Json* document) const {
    const std::string file = ref.substr(0, ref.find('#'));
    if (file.empty()) return document;
    std::string base_id;
    if (document->is_object() && document->contains("$id") && (*document)["$id"].is_string()) {
      base_id = (*document)["$id"].get<std::string>();
    }
    for (const std::string& name : JsonRefCandidateNames(file, base_id)) {
      auto it = references_.find(name);
      if (it != references_.end()) return &it->second;
    }
    return Err(Bad(path, "$ref '" + ref + "' names neither this document (\"#/...\") nor one " +
                             "of the schema's references; register the referenced schema and " +
                             "list it under \"references\" with the name '" + file + "'"));
  }

  std::string NameOf(const Json* document) const {
    for (const auto& [name, parsed] : references_) {
      if (&parsed == document) return name;
    }
    return "";
  }

  // Follows `ref` from `*document`; on success `*document` is the document
  // the target is in.
  Result<const Json*> FollowPointer(const std::string& ref, const std::string& path,
                                    const Json** document) const {
    ST_ASSIGN_OR_RETURN(const Json* target_document, TargetDocument(ref, path, *document));
    const size_t hash = ref.find('#');
    std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
    if (!pointer.empty() && pointer[0] != '/') {
      return Err(Bad(path, "$ref '" + ref + "' is not a JSON pointer fragment ('#/...')"));
    }
    *document = target_document;
    const Json* node = target_document;
    size_t at = 0;
    while (at < pointer.size()) {
      size_t next = pointer.find('/', at + 1);
      std::string raw =
          pointer.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
      std::string token;
      for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
          token += raw[i + 1] == '0' ? '~' : '/';
          ++i;
        } else {
          token += raw[i];
        }
      }
      if (node->is_object() && node->contains(token)) {
        node = &(*node)[token];
      } else if (node->is_array() && !token.empty() &&
                 token.find_first_not_of("0123456789") == std::string::npos &&
                 std::stoul(token) < node->size()) {
        node = &(*node)[std::stoul(token)];
      } else {
        return Err(Bad(path, "$ref '" + ref + "' points to nothing in " +
                                 (hash == 0 ? "this document" : "the referenced schema")));
      }
      if (next == std::string::npos) break;
      at = next;
    }
    return node;
  }

  // `unions`: how many oneOf/anyOf led here. Without a bound, a $ref from a
  // union branch back to the union would recurse forever.
  // `document`: the document `start` is in (its local $refs resolve there).
  Result<Shape> Classify(const Json& start, const std::string& start_path, const Json* document,
                         int unions = 0) const {
    const Json* node = &start;
    std::string path = start_path;
    for (int hops = 0; node->is_object() && node->contains("$ref"); ++hops) {
      if (hops == kMaxRefHops || !(*node)["$ref"].is_string()) {
        return Err(Bad(path, "$ref is not a string or forms a cycle"));
      }
      std::string ref = (*node)["$ref"].get<std::string>();
      ST_ASSIGN_OR_RETURN(node, FollowPointer(ref, path, &document));
      // Paths in another document name it: "address.json#/properties/city".
      const size_t hash = ref.find('#');
      const std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
      path = document == &root_ ? pointer : NameOf(document) + "#" + pointer;
    }
    if (!node->is_object()) {
      return Err(Bad(path, "a schema must be a JSON object with a \"type\""));
    }
    const Json& schema = *node;
    for (const char* combinator : {"oneOf", "anyOf"}) {
      if (!schema.contains(combinator)) continue;
      if (unions == kMaxJsonSchemaNesting) {
        return Err(Bad(path, std::string(combinator) + " nests deeper than " +
                                 std::to_string(kMaxJsonSchemaNesting) +
                                 " levels or forms a $ref cycle; flatten the schema"));
      }
      return ClassifyUnion(schema, path, document, combinator, unions + 1);
    }
    if (schema.contains("allOf")) {
      return Err(Bad(path, "\"allOf\" is not supported; merge the subschemas into one"));
    }
    Shape shape;
    shape.node = node;
    shape.document = document;
    shape.path = path;
    std::vector<std::string> types;
    if (schema.contains("type")) {
      const Json& type = schema["type"];
      if (type.is_string()) {
        types.push_back(type.get<std::string>());
      } else if (type.is_array()) {
        for (const Json& t : type) {
          if (!t.is_string()) return Err(Bad(path, "\"type\" array entries must be strings"));
          types.push_back(t.get<std::string>());
        }
      } else {
        return Err(Bad(path, "\"type\" must be a string or an array of strings"));
      }
    }
    std::vector<std::string> non_null;
    for (const std::string& t : types) {
      if (t == "null") {
        shape.nullable = true;
      } else {
        non_null.push_back(t);
      }
    }
    if (non_null.size() > 1) {
      return Err(Bad(path,
                     "a union of several non-null types is not supported; use one type "
                     "(optionally with \"null\")"));
    }
    if (non_null.size() == 1) {
      shape.type = non_null[0];
      if (shape.type == "string" && schema.contains("enum")) shape.type = "enum";
    } else if (schema.contains("enum")) {
      shape.type = "enum";
      if (schema["enum"].is_array()) {
        for (const Json& v : schema["enum"]) shape.nullable = shape.nullable || v.is_null();
      }
    } else if (types.empty() &&
               (schema.contains("properties") || schema.contains("additionalProperties"))) {
      shape.type = "object";
    } else if (types.empty() && schema.contains("items")) {
      shape.type = "array";
    } else {
      return Err(Bad(path, types.empty() ? "the schema has no \"type\"; add one"
                                         : "a column cannot be only \"null\""));
    }
    return shape;
  }

  Result<Shape> ClassifyUnion(const Json& schema, const std::string& path, const Json* document,
                              const char* combinator, int unions) const {
    const Json& branches = schema[combinator];
    if (!branches.is_array()) return Err(Bad(path, std::string(combinator) + " must be an array"));
    bool nullable = false;
    std::optional<Shape> value;
    for (size_t i = 0; i < branches.size(); ++i) {
      const Json& branch = branches[i];
      std::string branch_path = path + "/" + combinator + "/" + std::to_string(i);
      if (branch.is_object() && branch.contains("type") && branch["type"] == "null") {
        nullable = true;
        continue;
      }
      if (value.has_value()) {
        return Err(Bad(path, std::string(combinator) +
                                 " with more than one non-null branch is not supported"));
      }
      ST_ASSIGN_OR_RETURN(value, Classify(branch, branch_path, document, unions));
    }
    if (!value.has_value()) return Err(Bad(path, "a column cannot be only \"null\""));
    value->nullable = value->nullable || nullable;
    return *value;
  }

  // The fields of an object schema; `depth` is theirs (top level = 1).
  Result<std::vector<iceberg::NestedField>> StructFields(const Shape& shape, int depth) {
    if (depth > kMaxJsonSchemaNesting) {
      return Err(Bad(shape.path, "nesting deeper than " + std::to_string(kMaxJsonSchemaNesting) +
                                     " levels is not supported; flatten the schema"));
    }
    const Json& schema = *shape.node;
    std::vector<std::string> required;
    if (schema.contains("required") && schema["required"].is_array()) {
      for (const Json& name : schema["required"]) {
        if (name.is_string()) required.push_back(name.get<std::string>());
      }
    }
    struct Pending {
      std::string name;
      Shape shape;
      std::string doc;
    };
    std::vector<Pending> pending;
    for (const auto& [name, child] : schema["properties"].items()) {
      std::string child_path = shape.path + "/properties/" + EscapePointerToken(name);
      if (name.empty()) return Err(Bad(child_path, "a property needs a non-empty name"));
      ST_ASSIGN_OR_RETURN(Shape child_shape, Classify(child, child_path, shape.document));
      std::string doc;
      if (child.is_object() && child.contains("description") && child["description"].is_string()) {
        doc = child["description"].get<std::string>();
      }
      pending.push_back({name, std::move(child_shape), std::move(doc)});
    }
    // Iceberg Java's fresh-id order: every field of this struct, then their children.
    std::vector<iceberg::NestedField> fields;
    for (Pending& p : pending) {
      ST_TRY(CountFields(shape.path, 1));
      iceberg::NestedField field;
      field.id = ++next_id_;
      field.name = p.name;
      bool listed = false;
      for (const std::string& r : required) listed = listed || r == p.name;
      field.required = listed && !p.shape.nullable;
      field.doc = p.doc;
      fields.push_back(std::move(field));
    }
    for (size_t i = 0; i < pending.size(); ++i) {
      ST_ASSIGN_OR_RETURN(fields[i].type, Convert(pending[i].shape, depth));
    }
    return fields;
  }

  // The type of a field at `depth`.
  Result<iceberg::TypePtr> Convert(const Shape& shape, int depth) {
    const Json& schema = *shape.node;
    const std::string& type = shape.type;
    if (type == "enum") return iceberg::Type::String();
    if (type == "boolean") return iceberg::Type::Boolean();
    if (type == "string") return ConvertString(schema);
    if (type == "integer") return ConvertInteger(schema);
    if (type == "number") return ConvertNumber(shape);
    if (type == "object") {
      bool has_properties = schema.contains("properties") && schema["properties"].is_object() &&
                            !schema["properties"].empty();
      if (has_properties) {
        ST_ASSIGN_OR_RETURN(std::vector<iceberg::NestedField> fields,
                            StructFields(shape, depth + 1));
        return iceberg::Type::Struct(std::move(fields));
      }
      if (schema.contains("additionalProperties") && schema["additionalProperties"].is_object()) {
        return ConvertMap(shape, depth);
      }
      return Err(Bad(shape.path,
                     "an object needs \"properties\" (a struct) or an \"additionalProperties\" "
                     "schema (a map)"));
    }
    if (type == "array") {
      if (!schema.contains("items") || !schema["items"].is_object()) {
        return Err(
            Bad(shape.path, "an array needs one \"items\" schema (tuples are not supported)"));
      }
      if (depth + 1 > kMaxJsonSchemaNesting) {
        return Err(Bad(shape.path, "nesting deeper than " + std::to_string(kMaxJsonSchemaNesting) +
                                       " levels is not supported; flatten the schema"));
      }
      ST_ASSIGN_OR_RETURN(Shape element,
                          Classify(schema["items"], shape.path + "/items", shape.document));
      ST_TRY(CountFields(shape.path, 1));
      int32_t element_id = ++next_id_;
      ST_ASSIGN_OR_RETURN(iceberg::TypePtr element_type, Convert(element, depth + 1));
      return iceberg::Type::List(element_id, !element.nullable, std::move(element_type));
    }
    return Err(Bad(shape.path, "type '" + type +
                                   "' is not supported; use string, integer, number, boolean, "
                                   "object or array"));
  }

  Result<iceberg::TypePtr> ConvertMap(const Shape& shape, int depth) {
    if (depth + 1 > kMaxJsonSchemaNesting) {
      return Err(Bad(shape.path, "nesting deeper than " + std::to_string(kMaxJsonSchemaNesting) +
                                     " levels is not supported; flatten the schema"));
    }
    ST_ASSIGN_OR_RETURN(Shape value,
                        Classify((*shape.node)["additionalProperties"],
                                 shape.path + "/additionalProperties", shape.document));
    ST_TRY(CountFields(shape.path, 2));
    int32_t key_id = ++next_id_;
    int32_t value_id = ++next_id_;
    ST_ASSIGN_OR_RETURN(iceberg::TypePtr value_type, Convert(value, depth + 1));
    return iceberg::Type::Map(key_id, iceberg::Type::String(), value_id, !value.nullable,
                              std::move(value_type));
  }

  static Result<iceberg::TypePtr> ConvertString(const Json& schema) {
    std::string format;
    if (schema.contains("format") && schema["format"].is_string()) {
      format = schema["format"].get<std::string>();
    }
    if (format == "date-time") return iceberg::Type::TimestampTz();
    if (format == "date") return iceberg::Type::Date();
    if (format == "time") return iceberg::Type::Time();
    if (format == "uuid") return iceberg::Type::Uuid();
    if (format == "byte" ||
        (schema.contains("contentEncoding") && schema["contentEncoding"] == "base64")) {
      return iceberg::Type::Binary();
    }
    return iceberg::Type::String();
  }

  // int only when both bounds are present and inside 32 bits.
  static Result<iceberg::TypePtr> ConvertInteger(const Json& schema) {
    constexpr double kIntMax = 2147483647.0;
    constexpr double kIntMin = -2147483648.0;
    auto bound_fits = [&](const char* inclusive, const char* exclusive, bool upper) {
      const double limit = upper ? kIntMax : kIntMin;
      const double step = upper ? 1.0 : -1.0;
      auto inside = [&](double v, double lim) { return upper ? v <= lim : v >= lim; };
      bool fits = false;
      if (schema.contains(exclusive) && schema[exclusive].is_number()) {
        fits = fits || inside(schema[exclusive].get<double>(), limit + step);
      }
      if (schema.contains(inclusive) && schema[inclusive].is_number()) {
        // draft-04: a boolean exclusiveMaximum only tightens maximum.
        fits = fits || inside(schema[inclusive].get<double>(), limit);
      }
      return fits;
    };
    if (bound_fits("maximum", "exclusiveMaximum", true) &&
        bound_fits("minimum", "exclusiveMinimum", false)) {
      return iceberg::Type::Int();
    }
    return iceberg::Type::Long();
  }

  static Result<iceberg::TypePtr> ConvertNumber(const Shape& shape) {
    const Json& schema = *shape.node;
    if (!schema.contains("multipleOf")) return iceberg::Type::Double();
    if (!schema["multipleOf"].is_number() || schema["multipleOf"].get<double>() <= 0) {
      return Err(Bad(shape.path, "\"multipleOf\" must be a number greater than 0"));
    }
    double step = schema["multipleOf"].get<double>();
    for (int scale = 0; scale <= kMaxDecimalScale; ++scale) {
      double scaled = step * std::pow(10.0, scale);
      if (std::fabs(scaled - std::round(scaled)) <= 1e-9 * std::max(1.0, std::fabs(scaled))) {
        return iceberg::Type::Decimal(38, scale);
      }
    }
    return Err(Bad(shape.path,
                   "\"multipleOf\" has more than 38 fractional digits; a decimal "
                   "column cannot hold it"));
  }

  // A $ref used several times is expanded each time: a definition that
  // refers to itself twice doubles the field count per level.
  Status CountFields(const std::string& path, int more) const {
    if (next_id_ + more <= kMaxJsonSchemaFields) return Status::OK();
    return Bad(path, "the schema maps to more than " + std::to_string(kMaxJsonSchemaFields) +
                         " Iceberg fields (each use of a $ref counts its fields again)");
  }

  const Json& root_;
  const std::map<std::string, Json>& references_;
  int32_t next_id_ = 0;
};

}  // namespace

namespace {

// Parses the document and its references; `map` runs a Mapper over them.
template <typename T, typename Map>
Result<T> WithParsed(std::string_view json_schema_document, const JsonSchemaReferences& references,
                     Map&& map) {
  ST_TRY(CheckJsonNesting(json_schema_document, "the JSON schema"));
  Json root = Json::parse(json_schema_document, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    return Err(InvalidArgument("the JSON schema is not a JSON document; check its syntax"));
  }
  std::map<std::string, Json> parsed;
  for (const auto& [name, text] : references) {
    const std::string what = "the JSON schema reference '" + name + "'";
    ST_TRY(CheckJsonNesting(text, what));
    Json document = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) {
      return Err(InvalidArgument(what + " is not a JSON document; check its syntax"));
    }
    parsed.emplace(name, std::move(document));
  }
  Mapper mapper(root, parsed);
  return map(mapper);
}

}  // namespace

Result<iceberg::Schema> JsonSchemaToIceberg(std::string_view json_schema_document,
                                            const JsonSchemaReferences& references) {
  return WithParsed<iceberg::Schema>(json_schema_document, references,
                                     [](Mapper& mapper) { return mapper.Run(); });
}

Result<JsonKeyMapping> JsonSchemaKeyToIceberg(std::string_view json_schema_document,
                                              const JsonSchemaReferences& references) {
  return WithParsed<JsonKeyMapping>(json_schema_document, references,
                                    [](Mapper& mapper) { return mapper.RunKey(); });
}

}  // namespace st::registry
