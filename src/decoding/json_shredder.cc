#include <simdjson.h>

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "decoding/json_shredder_internal.h"
#include "decoding/typed_values_internal.h"

namespace st::decoding {

namespace od = simdjson::ondemand;

struct JsonShredder::ParserHolder {
  od::parser parser;
};

namespace {

std::string_view JsonTypeName(od::json_type type) {
  switch (type) {
    case od::json_type::array:
      return "array";
    case od::json_type::object:
      return "object";
    case od::json_type::number:
      return "number";
    case od::json_type::string:
      return "string";
    case od::json_type::boolean:
      return "boolean";
    case od::json_type::null:
      return "null";
  }
  return "value";
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

// JSON number grammar (RFC 8259 §6) over the whole token.
bool IsJsonNumber(std::string_view t) {
  size_t i = 0;
  auto digits = [&]() {
    const size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > start;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

// Whether the document has tokens after the value just consumed.
bool HasTrailingContent(od::document& doc) {
  return doc.current_location().error() == simdjson::SUCCESS;
}

}  // namespace

class JsonShredder::Walker {
 public:
  Walker(JsonShredder& owner, ColumnBuffers& out, RecordError* error)
      : owner_(owner), out_(out), error_(error) {}

  bool Document(std::string_view json) {
    auto& padded = owner_.padded_;
    padded.assign(json.data(), json.size());
    padded.resize(json.size() + simdjson::SIMDJSON_PADDING);
    od::document doc;
    if (auto e =
            owner_.parser_->parser.iterate(padded.data(), json.size(), padded.size()).get(doc)) {
      return Malformed(e, "");
    }
    od::json_type type;
    if (auto e = doc.type().get(type)) return Malformed(e, "");
    if (type != od::json_type::object) return NotAnObject(doc, type);
    od::object object;
    if (auto e = doc.get_object().get(object)) return Malformed(e, "");
    if (!Object(owner_.plan_.root, object, 0, 1)) return false;
    if (HasTrailingContent(doc)) {
      return Fail(kMalformedJson,
                  "record value is not valid JSON: content after the top-level object");
    }
    return true;
  }

 private:
  bool Fail(std::string_view code, std::string message) {
    error_->code = std::string(code);
    error_->message = std::move(message);
    return false;
  }

  bool Malformed(simdjson::error_code e, const std::string& path) {
    if (e == simdjson::DEPTH_ERROR) return TooDeep(path);
    std::string message = "record value is not valid JSON: ";
    message += simdjson::error_message(e);
    if (!path.empty()) message += " (at field " + path + ")";
    return Fail(kMalformedJson, std::move(message));
  }

  bool TooDeep(const std::string& path) {
    return Fail(kNestingTooDeep, "record value nests objects/arrays deeper than " +
                                     std::to_string(kMaxJsonNesting) + " levels" +
                                     (path.empty() ? "" : " (at field " + path + ")"));
  }

  bool Mismatch(const ShredNode& node, std::string_view got) {
    return Fail(kTypeMismatch, "field " + node.path + " must be " + ExpectedTypeName(node) +
                                   "; got " + std::string(got));
  }

  bool FromSimdjson(simdjson::error_code e, const ShredNode& node, od::json_type type) {
    if (e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE ||
        e == simdjson::NUMBER_ERROR) {
      return Mismatch(node, e == simdjson::INCORRECT_TYPE ? std::string(JsonTypeName(type))
                                                          : "a number out of range");
    }
    return Malformed(e, node.path);
  }

  // A valid JSON document that is not an object is a type mismatch; anything
  // else is malformed.
  bool NotAnObject(od::document& doc, od::json_type type) {
    simdjson::error_code e = simdjson::SUCCESS;
    switch (type) {
      case od::json_type::array: {
        od::array array;
        e = doc.get_array().get(array);
        if (!e) {
          for (auto element : array) {
            od::value v;
            if ((e = std::move(element).get(v))) break;
            if (!Skip(v, 1, "")) return false;
          }
        }
        break;
      }
      case od::json_type::string:
        e = doc.get_string().error();
        break;
      case od::json_type::number:
        e = IsJsonNumber(TrimRight(doc.raw_json_token().value_unsafe())) ? simdjson::SUCCESS
                                                                         : simdjson::NUMBER_ERROR;
        break;
      case od::json_type::boolean:
        e = doc.get_bool().error();
        break;
      case od::json_type::null: {
        bool is_null = false;
        e = doc.is_null().get(is_null);
        if (!e && !is_null) e = simdjson::N_ATOM_ERROR;
        break;
      }
      case od::json_type::object:
        break;
    }
    if (e) return Malformed(e, "");
    if (type != od::json_type::array && HasTrailingContent(doc)) {
      return Fail(kMalformedJson,
                  "record value is not valid JSON: content after the top-level value");
    }
    return Fail(kTypeMismatch,
                "record value must be a JSON object; got " + std::string(JsonTypeName(type)));
  }

  void EmitNulls(const ShredNode& node, int16_t def, int16_t rep) {
    PushNulls(node, def, rep, out_);
  }

  bool Missing(const ShredNode& node, int16_t rep) { return PushMissing(node, rep, out_, error_); }

  bool Object(const ShredNode& node, od::object& object, int16_t rep, int depth) {
    std::fill(node.seen.begin(), node.seen.end(), 0);
    for (auto field_result : object) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return Malformed(e, node.path);
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return Malformed(e, node.path);
      const int index = node.FindChild(key);
      if (index < 0) {
        if (!Skip(field.value(), depth, node.path)) return false;
        continue;
      }
      const ShredNode& child = node.children[index];
      if (node.seen[index]) {
        return Fail(kMalformedJson, "record value has the key of field " + child.path + " twice");
      }
      node.seen[index] = 1;
      if (!Field(child, field.value(), rep, depth)) return false;
    }
    for (size_t i = 0; i < node.children.size(); ++i) {
      if (!node.seen[i] && !Missing(node.children[i], rep)) return false;
    }
    return true;
  }

  // A value inside a container at `depth`.
  bool Field(const ShredNode& node, od::value value, int16_t rep, int depth) {
    od::json_type type;
    if (auto e = value.type().get(type)) return Malformed(e, node.path);
    if (type == od::json_type::null) {
      bool is_null = false;
      if (auto e = value.is_null().get(is_null); e || !is_null) {
        return Malformed(e ? e : simdjson::N_ATOM_ERROR, node.path);
      }
      return Missing(node, rep);
    }
    switch (node.kind) {
      case ShredNode::Kind::kStruct: {
        if (type != od::json_type::object) return Mismatch(node, JsonTypeName(type));
        if (depth + 1 > kMaxJsonNesting) return TooDeep(node.path);
        od::object object;
        if (auto e = value.get_object().get(object)) return Malformed(e, node.path);
        return Object(node, object, rep, depth + 1);
      }
      case ShredNode::Kind::kList: {
        if (type != od::json_type::array) return Mismatch(node, JsonTypeName(type));
        if (depth + 1 > kMaxJsonNesting) return TooDeep(node.path);
        od::array array;
        if (auto e = value.get_array().get(array)) return Malformed(e, node.path);
        const ShredNode& element = node.children[0];
        bool first = true;
        for (auto element_result : array) {
          od::value v;
          if (auto e = std::move(element_result).get(v)) return Malformed(e, node.path);
          if (!Field(element, v, first ? rep : node.repeated_level, depth + 1)) return false;
          first = false;
        }
        if (first) EmitNulls(node, node.def_level, rep);  // Empty list.
        return true;
      }
      case ShredNode::Kind::kMap: {
        if (type != od::json_type::object) return Mismatch(node, JsonTypeName(type));
        if (depth + 1 > kMaxJsonNesting) return TooDeep(node.path);
        od::object object;
        if (auto e = value.get_object().get(object)) return Malformed(e, node.path);
        const ShredNode& key_node = node.children[0];
        const ShredNode& value_node = node.children[1];
        // Readers reject maps with duplicate keys. Keys stay valid (in the
        // parser's string buffer) for the whole document; small maps are
        // checked by a scan, large ones through a set.
        constexpr size_t kScanKeys = 16;
        std::string_view few_keys[kScanKeys];
        size_t key_count = 0;
        std::unordered_set<std::string_view> many_keys;
        bool first = true;
        for (auto field_result : object) {
          od::field field;
          if (auto e = std::move(field_result).get(field)) return Malformed(e, node.path);
          std::string_view key;
          if (auto e = field.unescaped_key().get(key)) return Malformed(e, node.path);
          bool duplicate = false;
          if (key_count < kScanKeys) {
            for (size_t k = 0; k < key_count; ++k) duplicate |= few_keys[k] == key;
            few_keys[key_count] = key;
          } else {
            if (key_count == kScanKeys) many_keys.insert(few_keys, few_keys + kScanKeys);
            duplicate = !many_keys.insert(key).second;
          }
          ++key_count;
          if (duplicate) {
            return Fail(kMalformedJson, "record value has the key \"" + std::string(key) +
                                            "\" twice in map field " + node.path);
          }
          const int16_t entry_rep = first ? rep : node.repeated_level;
          ColumnBuffer& keys = out_.column(key_node.column);
          keys.PushLevels(key_node.def_level, entry_rep);
          keys.arena.append(key);
          keys.EndBytes();
          if (!Field(value_node, field.value(), entry_rep, depth + 1)) return false;
          first = false;
        }
        if (first) EmitNulls(node, node.def_level, rep);  // Empty map.
        return true;
      }
      case ShredNode::Kind::kPrimitive:
        break;
    }
    if (type == od::json_type::object || type == od::json_type::array) {
      return Mismatch(node, JsonTypeName(type));
    }
    if (!Primitive(node, value, type, rep)) return false;
    if (node.partition_slot >= 0) Capture(node);
    return true;
  }

  bool Primitive(const ShredNode& node, od::value& value, od::json_type type, int16_t rep) {
    ColumnBuffer& c = out_.column(node.column);
    const int16_t def = node.def_level;
    switch (node.type_id) {
      case iceberg::TypeId::kBoolean: {
        if (type != od::json_type::boolean) return Mismatch(node, JsonTypeName(type));
        bool b = false;
        if (auto e = value.get_bool().get(b)) {
          return Malformed(e == simdjson::INCORRECT_TYPE ? simdjson::T_ATOM_ERROR : e, node.path);
        }
        c.PushLevels(def, rep);
        c.bools.push_back(b ? 1 : 0);
        return true;
      }
      case iceberg::TypeId::kInt:
      case iceberg::TypeId::kLong: {
        if (type != od::json_type::number) return Mismatch(node, JsonTypeName(type));
        int64_t v = 0;
        if (auto e = value.get_int64().get(v)) {
          if (!IsJsonNumber(TrimRight(value.raw_json_token()))) {
            return Malformed(simdjson::NUMBER_ERROR, node.path);
          }
          return Mismatch(node, e == simdjson::INCORRECT_TYPE ? "a non-integer number"
                                                              : "an integer out of range");
        }
        if (node.type_id == iceberg::TypeId::kInt) {
          if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
            return Mismatch(node, std::to_string(v) + " (out of range)");
          }
          c.PushLevels(def, rep);
          c.i32.push_back(static_cast<int32_t>(v));
        } else {
          c.PushLevels(def, rep);
          c.i64.push_back(v);
        }
        return true;
      }
      case iceberg::TypeId::kFloat:
      case iceberg::TypeId::kDouble: {
        if (type != od::json_type::number) return Mismatch(node, JsonTypeName(type));
        double v = 0;
        if (auto e = value.get_double().get(v)) {
          if (!IsJsonNumber(TrimRight(value.raw_json_token()))) {
            return Malformed(simdjson::NUMBER_ERROR, node.path);
          }
          return FromSimdjson(e, node, type);
        }
        c.PushLevels(def, rep);
        if (node.type_id == iceberg::TypeId::kFloat) {
          c.f32.push_back(static_cast<float>(v));
        } else {
          c.f64.push_back(v);
        }
        return true;
      }
      case iceberg::TypeId::kDecimal: {
        if (type != od::json_type::number) return Mismatch(node, JsonTypeName(type));
        std::string_view token = TrimRight(value.raw_json_token());
        if (!IsJsonNumber(token)) return Malformed(simdjson::NUMBER_ERROR, node.path);
        if (!PushDecimalText(node, token, rep, c)) {
          return Mismatch(node, std::string(token.substr(0, 50)) +
                                    " (more digits than the precision or scale allow)");
        }
        return true;
      }
      default:
        break;
    }
    // The rest are JSON strings.
    if (type != od::json_type::string) return Mismatch(node, JsonTypeName(type));
    std::string_view text;
    if (auto e = value.get_string().get(text)) return FromSimdjson(e, node, type);
    if (!PushTextValue(node, text, rep, c)) return Mismatch(node, QuoteForMessage(text));
    return true;
  }

  // Partition sources are top-level primitives: read back the value just pushed.
  void Capture(const ShredNode& node) {
    owner_.partition_values_[node.partition_slot] = LastValue(node, out_.column(node.column));
  }

  // Validates a value of a field the schema does not have (it is dropped).
  bool Skip(od::value value, int depth, const std::string& path) {
    od::json_type type;
    if (auto e = value.type().get(type)) return Malformed(e, path);
    switch (type) {
      case od::json_type::object: {
        if (depth + 1 > kMaxJsonNesting) return TooDeep(path);
        od::object object;
        if (auto e = value.get_object().get(object)) return Malformed(e, path);
        for (auto field_result : object) {
          od::field field;
          if (auto e = std::move(field_result).get(field)) return Malformed(e, path);
          std::string_view key;
          if (auto e = field.unescaped_key().get(key)) return Malformed(e, path);
          if (!Skip(field.value(), depth + 1, path)) return false;
        }
        return true;
      }
      case od::json_type::array: {
        if (depth + 1 > kMaxJsonNesting) return TooDeep(path);
        od::array array;
        if (auto e = value.get_array().get(array)) return Malformed(e, path);
        for (auto element : array) {
          od::value v;
          if (auto e = std::move(element).get(v)) return Malformed(e, path);
          if (!Skip(v, depth + 1, path)) return false;
        }
        return true;
      }
      case od::json_type::string:
        if (auto e = value.get_string().error()) return Malformed(e, path);
        return true;
      case od::json_type::number:
        if (!IsJsonNumber(TrimRight(value.raw_json_token()))) {
          return Malformed(simdjson::NUMBER_ERROR, path);
        }
        return true;
      case od::json_type::boolean:
        if (auto e = value.get_bool().error()) return Malformed(e, path);
        return true;
      case od::json_type::null: {
        bool is_null = false;
        if (auto e = value.is_null().get(is_null); e || !is_null) {
          return Malformed(e ? e : simdjson::N_ATOM_ERROR, path);
        }
        return true;
      }
    }
    return true;
  }

  JsonShredder& owner_;
  ColumnBuffers& out_;
  RecordError* error_;
};

JsonShredder::JsonShredder(const ShredPlan& plan, int partition_slots)
    : plan_(plan), partition_values_(partition_slots), parser_(std::make_unique<ParserHolder>()) {}

JsonShredder::~JsonShredder() = default;

bool JsonShredder::Shred(std::string_view json, ColumnBuffers& out, RecordError* error) {
  std::fill(partition_values_.begin(), partition_values_.end(), Value());
  Walker walker(*this, out, error);
  return walker.Document(json);
}

}  // namespace st::decoding
