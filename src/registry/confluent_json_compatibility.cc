#include "registry/confluent_json_compatibility.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "common/json_nesting.h"
#include "registry/json_ref_internal.h"

namespace st::registry::confluent {

namespace {

using Json = nlohmann::json;

constexpr int kMaxJsonCompareDepth = 64;
constexpr int kMaxJsonRefHops = 32;
constexpr size_t kMaxJsonComparePairs = 100000;
constexpr size_t kMaxJsonMessages = 16;

// Keywords that restrict which documents are valid but are not modelled:
// the reader's value must equal the writer's.
constexpr const char* kEqualityOnly[] = {"not",
                                         "if",
                                         "then",
                                         "else",
                                         "dependencies",
                                         "dependentRequired",
                                         "dependentSchemas",
                                         "propertyNames",
                                         "contains",
                                         "minContains",
                                         "maxContains",
                                         "additionalItems",
                                         "prefixItems",
                                         "unevaluatedProperties",
                                         "unevaluatedItems"};

// Keywords that restrict nothing: a schema with only these accepts anything.
constexpr const char* kAnnotations[] = {
    "title", "description", "default",   "examples",   "$comment",    "$schema", "$id",
    "id",    "readOnly",    "writeOnly", "deprecated", "definitions", "$defs"};

struct Document {
  Json root;
  std::map<std::string, Json> references;
};

Result<Json> ParseSchemaText(const std::string& text, const std::string& what) {
  ST_TRY(CheckJsonNesting(text, what));
  Json parsed = Json::parse(text, nullptr, false);
  if (parsed.is_discarded()) return Err(InvalidArgument(what + " is not one JSON document"));
  if (!parsed.is_object() && !parsed.is_boolean()) {
    return Err(InvalidArgument(what + " is not a JSON Schema (an object or a boolean)"));
  }
  return parsed;
}

Result<Document> ParseDocument(const RegisteredSchema& schema) {
  Document out;
  ST_ASSIGN_OR_RETURN(out.root, ParseSchemaText(schema.schema, "the JSON schema"));
  for (const auto& [name, text] : schema.references) {
    ST_ASSIGN_OR_RETURN(Json parsed, ParseSchemaText(text, "the JSON schema reference " + name));
    out.references.emplace(name, std::move(parsed));
  }
  return out;
}

// A schema node, the document its local $refs resolve in, and the
// combinators already handled for it (kSkip* bits: the node compared as if
// it lacked them; no copy of the schema is made).
struct SchemaNode {
  const Json* schema = nullptr;
  const Json* document = nullptr;
  uint8_t skip = 0;
};
constexpr uint8_t kSkipAnyOf = 1;
constexpr uint8_t kSkipOneOf = 2;
constexpr uint8_t kSkipAllOf = 4;

uint8_t SkipBit(const char* combinator) {
  const std::string_view key = combinator;
  return key == "anyOf" ? kSkipAnyOf : key == "oneOf" ? kSkipOneOf : kSkipAllOf;
}

std::string TypesText(const std::set<std::string>& types) {
  std::string out = "[";
  for (const std::string& t : types) out += (out.size() > 1 ? ", " : "") + t;
  return out + "]";
}

std::string JsonTypeOf(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "integer";
    case Json::value_t::number_float:
      return std::floor(value.get<double>()) == value.get<double>() ? "integer" : "number";
    case Json::value_t::string:
      return "string";
    case Json::value_t::array:
      return "array";
    default:
      return "object";
  }
}

const Json* Member(const Json& schema, const char* key) {
  if (!schema.is_object()) return nullptr;
  auto it = schema.find(key);
  return it == schema.end() ? nullptr : &*it;
}

std::optional<double> Number(const Json& schema, const char* key) {
  const Json* v = Member(schema, key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

// The declared types; nullopt = any.
std::optional<std::set<std::string>> DeclaredTypes(const Json& schema) {
  const Json* type = Member(schema, "type");
  if (type == nullptr) return std::nullopt;
  std::set<std::string> out;
  if (type->is_string()) out.insert(type->get<std::string>());
  if (type->is_array()) {
    for (const Json& t : *type) {
      if (t.is_string()) out.insert(t.get<std::string>());
    }
  }
  return out;
}

// The values `enum` and `const` allow; nullopt = not restricted.
std::optional<std::vector<const Json*>> AllowedValues(const Json& schema) {
  std::optional<std::vector<const Json*>> out;
  if (const Json* values = Member(schema, "enum"); values != nullptr && values->is_array()) {
    out.emplace();
    for (const Json& v : *values) out->push_back(&v);
  }
  if (const Json* value = Member(schema, "const"); value != nullptr) {
    if (!out.has_value()) {
      out.emplace(1, value);
    } else {
      std::vector<const Json*> kept;
      for (const Json* v : *out) {
        if (*v == *value) kept.push_back(v);
      }
      out = std::move(kept);
    }
  }
  return out;
}

bool IsTrivial(const Json& schema) {
  if (schema.is_boolean()) return schema.get<bool>();
  if (!schema.is_object()) return true;
  for (const auto& [key, value] : schema.items()) {
    bool annotation = false;
    for (const char* known : kAnnotations) annotation = annotation || key == known;
    if (!annotation) return false;
  }
  return true;
}

// A lower (or upper) bound: value, exclusive.
struct Bound {
  double value = 0;
  bool exclusive = false;
};

std::optional<Bound> LowerBound(const Json& schema, const char* inclusive, const char* exclusive) {
  std::optional<Bound> out;
  if (auto v = Number(schema, inclusive)) out = Bound{*v, false};
  const Json* ex = Member(schema, exclusive);
  if (ex != nullptr && ex->is_boolean() && ex->get<bool>() && out.has_value()) {
    out->exclusive = true;  // Draft 4.
  }
  return out;
}

class Comparer {
 public:
  Comparer(const Document& reader, const Document& writer) : reader_(reader), writer_(writer) {}

  std::vector<std::string> messages;

  void Check(SchemaNode r, SchemaNode w, const std::string& path, int depth) {
    if (stopped_) return;
    if (++work_ > kMaxJsonComparePairs) {
      Add(path, "NOT_COMPARED, the schemas are too large to compare (more than " +
                    std::to_string(kMaxJsonComparePairs) + " node pairs)");
      stopped_ = true;
      return;
    }
    if (depth > kMaxJsonCompareDepth) {
      Add(path, "NOT_COMPARED, the schemas nest deeper than " +
                    std::to_string(kMaxJsonCompareDepth) + " levels");
      return;
    }
    std::string problem;
    if (!Resolve(r, reader_, &problem) || !Resolve(w, writer_, &problem)) {
      Add(path, "NOT_COMPARED, " + problem);
      return;
    }
    if (!visited_.insert({{r.schema, r.skip}, {w.schema, w.skip}}).second) return;
    const Json& rs = *r.schema;
    const Json& ws = *w.schema;
    if (ws.is_boolean() && !ws.get<bool>()) return;  // The writer writes nothing.
    if (IsTrivial(rs)) return;
    if (rs.is_boolean()) {  // false
      Add(path, "TYPE_NARROWED, the reader accepts nothing (false)");
      return;
    }
    if (Combinators(r, w, path, depth)) return;
    Core(r, w, path, depth);
  }

 private:
  void Add(const std::string& path, const std::string& text) {
    if (messages.size() < kMaxJsonMessages) messages.push_back("at " + path + ": " + text);
  }

  // Follows $ref chains; false with `problem` when one does not resolve.
  bool Resolve(SchemaNode& node, const Document& document, std::string* problem) {
    for (int hops = 0;; ++hops) {
      if (!node.schema->is_object()) {
        if (!node.schema->is_boolean()) node.schema = &kTrue;
        return true;
      }
      const Json* ref = Member(*node.schema, "$ref");
      if (ref == nullptr || !ref->is_string()) return true;
      if (hops == kMaxJsonRefHops) {
        *problem = "$ref chains longer than " + std::to_string(kMaxJsonRefHops) + " hops";
        return false;
      }
      const std::string& text = ref->get_ref<const std::string&>();
      const size_t hash = text.find('#');
      const std::string file = text.substr(0, hash);
      const std::string pointer = hash == std::string::npos ? "" : text.substr(hash + 1);
      const Json* root = node.document;
      if (!file.empty()) {
        const Json* id = root->is_object() ? Member(*root, "$id") : nullptr;
        const std::string base_id = id != nullptr && id->is_string() ? id->get<std::string>() : "";
        root = nullptr;
        for (const std::string& name : JsonRefCandidateNames(file, base_id)) {
          auto it = document.references.find(name);
          if (it != document.references.end()) {
            root = &it->second;
            break;
          }
        }
        if (root == nullptr) {
          *problem = "$ref " + text + " names neither this schema nor one of its references";
          return false;
        }
      }
      const Json* target = root;
      if (!pointer.empty()) {
        try {
          Json::json_pointer parsed(pointer);
          target = root->contains(parsed) ? &root->at(parsed) : nullptr;
        } catch (const std::exception&) {
          target = nullptr;
        }
      }
      if (target == nullptr) {
        *problem = "$ref " + text + " does not resolve";
        return false;
      }
      node = SchemaNode{target, root};
    }
  }

  static SchemaNode Without(SchemaNode node, const char* combinator) {
    node.skip |= SkipBit(combinator);
    return node;
  }

  // `node`'s array `combinator`, unless absent or already handled.
  static const Json* Combinator(const SchemaNode& node, const char* combinator) {
    if (node.skip & SkipBit(combinator)) return nullptr;
    const Json* value = Member(*node.schema, combinator);
    return value != nullptr && value->is_array() ? value : nullptr;
  }

  // Whether `r` accepts `w`, without reporting.
  bool Quietly(SchemaNode r, SchemaNode w, int depth) {
    Comparer probe(reader_, writer_);
    probe.work_ = work_;
    probe.Check(r, w, "#", depth);
    work_ = probe.work_;
    if (probe.stopped_) stopped_ = true;
    return probe.messages.empty();
  }

  // anyOf/oneOf/allOf on either side; true when handled.
  bool Combinators(SchemaNode r, SchemaNode w, const std::string& path, int depth) {
    for (const char* key : {"anyOf", "oneOf"}) {
      const Json* branches = Combinator(w, key);
      if (branches == nullptr) continue;
      if (Quietly(r, Without(w, key), depth + 1)) return true;
      for (size_t i = 0; i < branches->size(); ++i) {
        Check(r, SchemaNode{&(*branches)[i], w.document},
              path + "/" + key + "/" + std::to_string(i), depth + 1);
      }
      return true;
    }
    if (const Json* parts = Combinator(w, "allOf"); parts != nullptr) {
      if (Quietly(r, Without(w, "allOf"), depth + 1)) return true;
      for (const Json& part : *parts) {
        if (Quietly(r, SchemaNode{&part, w.document}, depth + 1)) return true;
      }
      Add(path,
          "NOT_COMPARED, the writer's allOf parts are not merged and the reader accepts "
          "none of them alone");
      return true;
    }
    if (const Json* parts = Combinator(r, "allOf"); parts != nullptr) {
      for (size_t i = 0; i < parts->size(); ++i) {
        Check(SchemaNode{&(*parts)[i], r.document}, w, path + "/allOf/" + std::to_string(i),
              depth + 1);
      }
      Check(Without(r, "allOf"), w, path, depth + 1);
      return true;
    }
    for (const char* key : {"anyOf", "oneOf"}) {
      const Json* branches = Combinator(r, key);
      if (branches == nullptr) continue;
      Check(Without(r, key), w, path, depth + 1);
      for (const Json& branch : *branches) {
        if (Quietly(SchemaNode{&branch, r.document}, w, depth + 1)) return true;
      }
      Add(path, std::string("COMBINED_TYPE_SUBSCHEMAS_CHANGED, no branch of the reader's ") + key +
                    " accepts the writer's schema");
      return true;
    }
    return false;
  }

  void Core(SchemaNode r, SchemaNode w, const std::string& path, int depth) {
    const Json& rs = *r.schema;
    const Json& ws = *w.schema;
    std::optional<std::vector<const Json*>> writer_values = AllowedValues(ws);
    std::optional<std::set<std::string>> writer_types = DeclaredTypes(ws);
    if (!writer_types.has_value() && writer_values.has_value()) {
      writer_types.emplace();
      for (const Json* v : *writer_values) writer_types->insert(JsonTypeOf(*v));
    }
    if (std::optional<std::set<std::string>> reader_types = DeclaredTypes(rs)) {
      if (!writer_types.has_value()) {
        Add(path, "TYPE_NARROWED, the reader accepts only " + TypesText(*reader_types) +
                      ", the writer any type");
      } else {
        std::set<std::string> refused;
        for (const std::string& t : *writer_types) {
          if (reader_types->count(t) == 0 && !(t == "integer" && reader_types->count("number"))) {
            refused.insert(t);
          }
        }
        if (!refused.empty()) {
          Add(path, "TYPE_CHANGED, the writer may write " + TypesText(refused) +
                        ", the reader accepts " + TypesText(*reader_types));
        }
      }
    }
    if (std::optional<std::vector<const Json*>> reader_values = AllowedValues(rs)) {
      if (!writer_values.has_value()) {
        Add(path,
            "ENUM_ARRAY_NARROWED, the reader allows only the values of its enum/const, "
            "the writer has none");
      } else {
        for (const Json* v : *writer_values) {
          bool found = false;
          for (const Json* allowed : *reader_values) found = found || *allowed == *v;
          if (!found) {
            Add(path, "ENUM_ARRAY_NARROWED, the writer may write " + v->dump(-1, ' ', true) +
                          ", which the reader's enum/const lacks");
          }
        }
      }
    }
    for (const char* key : kEqualityOnly) {
      const Json* rv = Member(rs, key);
      const Json* wv = Member(ws, key);
      if (rv != nullptr && (wv == nullptr || *wv != *rv)) {
        Add(path, std::string("NOT_COMPARED, the reader's ") + key +
                      " differs from the writer's (compared for equality only)");
      }
    }
    auto writes = [&](const char* type) {
      if (!writer_types.has_value()) return true;
      if (writer_types->count(type)) return true;
      return std::string(type) == "number" && writer_types->count("integer") > 0;
    };
    if (writes("number")) Numbers(rs, ws, path);
    if (writes("string")) Strings(rs, ws, path);
    if (writes("array")) Arrays(r, w, path, depth);
    if (writes("object")) Objects(r, w, path, depth);
  }

  void Numbers(const Json& rs, const Json& ws, const std::string& path) {
    auto compare = [&](std::optional<Bound> rb, std::optional<Bound> wb, bool lower,
                       const char* rule) {
      if (!rb.has_value()) return;
      bool ok = false;
      if (wb.has_value()) {
        const bool inside = lower ? wb->value > rb->value : wb->value < rb->value;
        ok = inside || (wb->value == rb->value && (!rb->exclusive || wb->exclusive));
      }
      if (!ok) {
        Add(path, std::string(rule) + ", the reader's bound " + Json(rb->value).dump() +
                      (rb->exclusive ? " (exclusive)" : "") + " is tighter than the writer's " +
                      (wb.has_value() ? Json(wb->value).dump() : std::string("(none)")));
      }
    };
    // Each keyword pair read both ways: draft 4 (boolean exclusive*) and
    // draft 6+ (numeric exclusive*) give each side up to two bounds; the
    // writer's tightest must be inside each of the reader's.
    auto bounds = [](const Json& s, bool lower) {
      std::vector<Bound> out;
      const char* inclusive = lower ? "minimum" : "maximum";
      const char* exclusive = lower ? "exclusiveMinimum" : "exclusiveMaximum";
      if (auto b = LowerBound(s, inclusive, exclusive)) out.push_back(*b);
      if (auto v = Number(s, exclusive)) out.push_back(Bound{*v, true});
      return out;
    };
    for (bool lower : {true, false}) {
      std::vector<Bound> wb = bounds(ws, lower);
      std::optional<Bound> tightest;
      for (const Bound& b : wb) {
        if (!tightest.has_value()) {
          tightest = b;
          continue;
        }
        const bool tighter = lower ? b.value > tightest->value : b.value < tightest->value;
        if (tighter || (b.value == tightest->value && b.exclusive)) tightest = b;
      }
      for (const Bound& rb : bounds(rs, lower)) {
        compare(rb, tightest, lower, lower ? "MINIMUM_INCREASED" : "MAXIMUM_DECREASED");
      }
    }
    if (auto rm = Number(rs, "multipleOf"); rm.has_value() && *rm > 0) {
      auto wm = Number(ws, "multipleOf");
      const double ratio = wm.has_value() ? *wm / *rm : 0.5;
      if (!wm.has_value() || std::fabs(ratio - std::round(ratio)) > 1e-9 || ratio < 1) {
        Add(path, "MULTIPLE_OF_CHANGED, the reader requires multiples of " + Json(*rm).dump() +
                      ", the writer " + (wm.has_value() ? Json(*wm).dump() : "does not"));
      }
    }
  }

  // Reader's `key` must be ≥ (at_least) or ≤ the writer's, and present when the reader has it.
  void Limit(const Json& rs, const Json& ws, const char* key, bool reader_max,
             const std::string& rule, const std::string& path) {
    auto rv = Number(rs, key);
    if (!rv.has_value()) return;
    auto wv = Number(ws, key);
    const bool ok = wv.has_value() && (reader_max ? *wv <= *rv : *wv >= *rv);
    if (!ok) {
      Add(path, rule + ", the reader's " + key + " " + Json(*rv).dump() + ", the writer's " +
                    (wv.has_value() ? Json(*wv).dump() : std::string("(none)")));
    }
  }

  void SameText(const Json& rs, const Json& ws, const char* key, const std::string& rule,
                const std::string& path) {
    const Json* rv = Member(rs, key);
    if (rv == nullptr) return;
    const Json* wv = Member(ws, key);
    if (wv == nullptr || *wv != *rv) {
      Add(path, rule + ", the reader's " + key + " " + rv->dump(-1, ' ', true) +
                    " differs from the writer's " +
                    (wv == nullptr ? std::string("(none)") : wv->dump(-1, ' ', true)));
    }
  }

  void Strings(const Json& rs, const Json& ws, const std::string& path) {
    Limit(rs, ws, "maxLength", true, "MAX_LENGTH_DECREASED", path);
    Limit(rs, ws, "minLength", false, "MIN_LENGTH_INCREASED", path);
    SameText(rs, ws, "pattern", "PATTERN_CHANGED", path);
    SameText(rs, ws, "format", "FORMAT_CHANGED", path);
  }

  void Arrays(SchemaNode r, SchemaNode w, const std::string& path, int depth) {
    const Json& rs = *r.schema;
    const Json& ws = *w.schema;
    Limit(rs, ws, "maxItems", true, "MAX_ITEMS_DECREASED", path);
    Limit(rs, ws, "minItems", false, "MIN_ITEMS_INCREASED", path);
    if (const Json* unique = Member(rs, "uniqueItems"); unique != nullptr && *unique == true) {
      const Json* wu = Member(ws, "uniqueItems");
      if (wu == nullptr || *wu != true)
        Add(path, "UNIQUE_ITEMS_ADDED, the reader needs unique items");
    }
    const Json* ri = Member(rs, "items");
    const Json* wi = Member(ws, "items");
    if ((ri != nullptr && ri->is_array()) || (wi != nullptr && wi->is_array())) {
      if (ri != nullptr && (wi == nullptr || *ri != *wi)) {
        Add(path, "NOT_COMPARED, tuple items differ (compared for equality only)");
      }
      return;
    }
    if (ri == nullptr) return;
    Check(SchemaNode{ri, r.document}, SchemaNode{wi == nullptr ? &kTrue : wi, w.document},
          path + "/items", depth + 1);
  }

  void Objects(SchemaNode r, SchemaNode w, const std::string& path, int depth) {
    const Json& rs = *r.schema;
    const Json& ws = *w.schema;
    Limit(rs, ws, "maxProperties", true, "MAX_PROPERTIES_DECREASED", path);
    Limit(rs, ws, "minProperties", false, "MIN_PROPERTIES_INCREASED", path);
    // patternProperties change which properties additionalProperties covers,
    // on both sides: any difference is reported.
    const Json* rp = Member(rs, "patternProperties");
    const Json* wp = Member(ws, "patternProperties");
    if ((rp != nullptr || wp != nullptr) && (rp == nullptr || wp == nullptr || *rp != *wp)) {
      Add(path, "NOT_COMPARED, patternProperties differ (compared for equality only)");
    }
    static const Json kNoProperties = Json::object();
    const Json* rprops = Member(rs, "properties");
    const Json* wprops = Member(ws, "properties");
    if (rprops == nullptr || !rprops->is_object()) rprops = &kNoProperties;
    if (wprops == nullptr || !wprops->is_object()) wprops = &kNoProperties;
    const Json* rap = Member(rs, "additionalProperties");
    const Json* wap = Member(ws, "additionalProperties");
    if (rap == nullptr || !(rap->is_object() || rap->is_boolean())) rap = &kTrue;
    if (wap == nullptr || !(wap->is_object() || wap->is_boolean())) wap = &kTrue;
    const bool reader_closed = rap->is_boolean() && !rap->get<bool>();
    const bool writer_closed = wap->is_boolean() && !wap->get<bool>();
    for (const auto& [name, schema] : wprops->items()) {
      const std::string at = path + "/properties/" + name;
      if (auto it = rprops->find(name); it != rprops->end()) {
        Check(SchemaNode{&*it, r.document}, SchemaNode{&schema, w.document}, at, depth + 1);
      } else if (reader_closed) {
        Add(at, "PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL, the writer may write property " +
                    name + ", the reader's content model is closed");
      } else if (!IsTrivial(*rap)) {
        Check(SchemaNode{rap, r.document}, SchemaNode{&schema, w.document}, at, depth + 1);
      }
    }
    for (const auto& [name, schema] : rprops->items()) {
      if (wprops->contains(name) || writer_closed || IsTrivial(schema)) continue;
      const std::string at = path + "/properties/" + name;
      if (IsTrivial(*wap)) {
        Add(at, "PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, property " + name +
                    " is new in the reader, and the writer's open content model may write any "
                    "value under that name");
      } else {
        Check(SchemaNode{&schema, r.document}, SchemaNode{wap, w.document}, at, depth + 1);
      }
    }
    if (reader_closed && !writer_closed) {
      Add(path,
          "ADDITIONAL_PROPERTIES_NARROWED, the reader's content model is closed "
          "(additionalProperties false), the writer's is not");
    } else if (!writer_closed && !IsTrivial(*rap)) {
      Check(SchemaNode{rap, r.document}, SchemaNode{wap, w.document},
            path + "/additionalProperties", depth + 1);
    }
    if (const Json* required = Member(rs, "required");
        required != nullptr && required->is_array()) {
      const Json* wr = Member(ws, "required");
      for (const Json& name : *required) {
        bool found = false;
        if (wr != nullptr && wr->is_array()) {
          for (const Json& n : *wr) found = found || n == name;
        }
        if (!found && name.is_string()) {
          Add(path, "REQUIRED_ATTRIBUTE_ADDED, property " + name.get<std::string>() +
                        " is required by the reader, not by the writer");
        }
      }
    }
  }

  static const Json kTrue;
  const Document& reader_;
  const Document& writer_;
  std::set<std::pair<std::pair<const Json*, uint8_t>, std::pair<const Json*, uint8_t>>> visited_;
  size_t work_ = 0;
  bool stopped_ = false;
};

const Json Comparer::kTrue = Json(true);

class JsonSchemaChecker final : public SchemaCompatibilityChecker {
 public:
  Result<std::vector<std::string>> ReadIncompatibilities(
      const RegisteredSchema& reader, const RegisteredSchema& writer) const override {
    return JsonSchemaReadIncompatibilities(reader, writer);
  }
  Status Validate(const RegisteredSchema& schema) const override {
    return ValidateJsonSchemaDocument(schema);
  }
};

}  // namespace

Result<std::vector<std::string>> JsonSchemaReadIncompatibilities(const RegisteredSchema& reader,
                                                                 const RegisteredSchema& writer) {
  ST_ASSIGN_OR_RETURN(Document r, ParseDocument(reader));
  ST_ASSIGN_OR_RETURN(Document w, ParseDocument(writer));
  Comparer comparer(r, w);
  comparer.Check(SchemaNode{&r.root, &r.root}, SchemaNode{&w.root, &w.root}, "#", 1);
  return std::move(comparer.messages);
}

Status ValidateJsonSchemaDocument(const RegisteredSchema& schema) {
  Result<Document> parsed = ParseDocument(schema);
  return parsed.has_value() ? Status::OK() : parsed.error();
}

std::shared_ptr<const SchemaCompatibilityChecker> MakeJsonSchemaCompatibilityChecker() {
  return std::make_shared<JsonSchemaChecker>();
}

}  // namespace st::registry::confluent
