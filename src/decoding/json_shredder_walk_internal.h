// The On-Demand walk of JsonShredder, written once over a simdjson kernel's
// On-Demand types and compiled once per kernel: json_shredder.cc (fallback)
// and json_shredder_haswell.cc (haswell, with <simdjson.h> and this header
// inside one AVX2 target region). Include it after <simdjson.h> (with
// SIMDJSON_BUILTIN_IMPLEMENTATION set to the kernel) and, in a target region,
// after every other header it includes: an inline function defined in a
// target region is emitted with that target under a name the baseline
// translation units share, and the linker may keep either copy
// (tools/check_simd_isolation.py checks the objects for this).
//
// `Od` names the kernel's On-Demand types: JsonType, Document, Object,
// Array, JsonValue, Field, Parser.
#pragma once

#ifndef SIMDJSON_H
#error "include <simdjson.h> first"
#endif

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/value.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/json_shredder_internal.h"
#include "decoding/record.h"
#include "decoding/shred_plan_internal.h"
#include "decoding/typed_values_internal.h"

// Declares `Name`, the On-Demand types of simdjson kernel `kernel`, for Od.
#define ST_JSON_ONDEMAND_TYPES(Name, kernel)                \
  struct Name {                                             \
    using JsonType = simdjson::kernel::ondemand::json_type; \
    using Document = simdjson::kernel::ondemand::document;  \
    using Object = simdjson::kernel::ondemand::object;      \
    using Array = simdjson::kernel::ondemand::array;        \
    using JsonValue = simdjson::kernel::ondemand::value;    \
    using Field = simdjson::kernel::ondemand::field;        \
    using Parser = simdjson::kernel::ondemand::parser;      \
  }

// A build may define ST_JSON_WALK_HOT (json_shredder_haswell.cc: flatten, as
// its simdjson functions are not always_inline). Error paths stay out of line.
#ifndef ST_JSON_WALK_HOT
#define ST_JSON_WALK_HOT
#endif
#define ST_JSON_WALK_COLD [[gnu::cold, gnu::noinline]]

namespace st::decoding {

// What a kernel's walk keeps between records.
template <class Od>
struct JsonWalkState {
  JsonWalkState(const ShredPlan& p, std::vector<Value>* values)
      : plan(p), partition_values(values) {}
  const ShredPlan& plan;
  std::vector<Value>* partition_values;
  std::string padded;
  typename Od::Parser parser;
};

template <class Od>
class JsonWalker {
  using JsonType = typename Od::JsonType;
  using OdDocument = typename Od::Document;
  using OdObject = typename Od::Object;
  using OdArray = typename Od::Array;
  using OdValue = typename Od::JsonValue;
  using OdField = typename Od::Field;

 public:
  JsonWalker(JsonWalkState<Od>& state, ColumnBuffers& out, RecordError* error)
      : state_(state), out_(out), error_(error) {}

  ST_JSON_WALK_HOT bool Document(std::string_view json) {
    auto& padded = state_.padded;
    padded.assign(json.data(), json.size());
    padded.resize(json.size() + simdjson::SIMDJSON_PADDING);
    OdDocument doc;
    if (auto e = state_.parser.iterate(padded.data(), json.size(), padded.size()).get(doc)) {
      return Malformed(e, "");
    }
    JsonType type;
    if (auto e = doc.type().get(type)) return Malformed(e, "");
    if (type != JsonType::object) return NotAnObject(doc, type);
    OdObject object;
    if (auto e = doc.get_object().get(object)) return Malformed(e, "");
    if (!Object(state_.plan.root, object, 0, 1)) return false;
    if ((doc.current_location().error() == simdjson::SUCCESS)) {
      return Fail(kMalformedJson,
                  "record value is not valid JSON: content after the top-level object");
    }
    return true;
  }

 private:
  static std::string_view TypeName(JsonType type) {
    switch (type) {
      case JsonType::array:
        return "array";
      case JsonType::object:
        return "object";
      case JsonType::number:
        return "number";
      case JsonType::string:
        return "string";
      case JsonType::boolean:
        return "boolean";
      case JsonType::null:
        return "null";
    }
    return "value";
  }

  ST_JSON_WALK_COLD bool Fail(std::string_view code, std::string message) {
    error_->code = std::string(code);
    error_->message = std::move(message);
    return false;
  }

  ST_JSON_WALK_COLD bool Malformed(simdjson::error_code e, const std::string& path) {
    if (e == simdjson::DEPTH_ERROR) return TooDeep(path);
    std::string message = "record value is not valid JSON: ";
    message += simdjson::error_message(e);
    if (!path.empty()) message += " (at field " + path + ")";
    return Fail(kMalformedJson, std::move(message));
  }

  ST_JSON_WALK_COLD bool TooDeep(const std::string& path) {
    return Fail(kNestingTooDeep, "record value nests objects/arrays deeper than " +
                                     std::to_string(kMaxJsonNesting) + " levels" +
                                     (path.empty() ? "" : " (at field " + path + ")"));
  }

  ST_JSON_WALK_COLD bool Mismatch(const ShredNode& node, std::string_view got) {
    return Fail(kTypeMismatch, "field " + node.path + " must be " + ExpectedTypeName(node) +
                                   "; got " + std::string(got));
  }

  ST_JSON_WALK_COLD bool FromSimdjson(simdjson::error_code e, const ShredNode& node,
                                      JsonType type) {
    if (e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE ||
        e == simdjson::NUMBER_ERROR) {
      return Mismatch(node, e == simdjson::INCORRECT_TYPE ? std::string(TypeName(type))
                                                          : "a number out of range");
    }
    return Malformed(e, node.path);
  }

  // A valid JSON document that is not an object is a type mismatch; anything
  // else is malformed.
  ST_JSON_WALK_COLD bool NotAnObject(OdDocument& doc, JsonType type) {
    simdjson::error_code e = simdjson::SUCCESS;
    switch (type) {
      case JsonType::array: {
        OdArray array;
        e = doc.get_array().get(array);
        if (!e) {
          for (auto element : array) {
            OdValue v;
            if ((e = std::move(element).get(v))) break;
            if (!Skip(v, 1, "")) return false;
          }
        }
        break;
      }
      case JsonType::string:
        e = doc.get_string().error();
        break;
      case JsonType::number:
        e = IsJsonNumber(TrimJsonWhitespaceRight(doc.raw_json_token().value_unsafe()))
                ? simdjson::SUCCESS
                : simdjson::NUMBER_ERROR;
        break;
      case JsonType::boolean:
        e = doc.get_bool().error();
        break;
      case JsonType::null: {
        bool is_null = false;
        e = doc.is_null().get(is_null);
        if (!e && !is_null) e = simdjson::N_ATOM_ERROR;
        break;
      }
      case JsonType::object:
        break;
    }
    if (e) return Malformed(e, "");
    if (type != JsonType::array && (doc.current_location().error() == simdjson::SUCCESS)) {
      return Fail(kMalformedJson,
                  "record value is not valid JSON: content after the top-level value");
    }
    return Fail(kTypeMismatch,
                "record value must be a JSON object; got " + std::string(TypeName(type)));
  }

  void EmitNulls(const ShredNode& node, int16_t def, int16_t rep) {
    PushNulls(node, def, rep, out_);
  }

  bool Missing(const ShredNode& node, int16_t rep) { return PushMissing(node, rep, out_, error_); }

  ST_JSON_WALK_HOT bool Object(const ShredNode& node, OdObject& object, int16_t rep, int depth) {
    std::fill(node.seen.begin(), node.seen.end(), 0);
    for (auto field_result : object) {
      OdField field;
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
  ST_JSON_WALK_HOT bool Field(const ShredNode& node, OdValue value, int16_t rep, int depth) {
    JsonType type;
    if (auto e = value.type().get(type)) return Malformed(e, node.path);
    if (type == JsonType::null) {
      bool is_null = false;
      if (auto e = value.is_null().get(is_null); e || !is_null) {
        return Malformed(e ? e : simdjson::N_ATOM_ERROR, node.path);
      }
      return Missing(node, rep);
    }
    switch (node.kind) {
      case ShredNode::Kind::kStruct: {
        if (type != JsonType::object) return Mismatch(node, TypeName(type));
        if (depth + 1 > kMaxJsonNesting) return TooDeep(node.path);
        OdObject object;
        if (auto e = value.get_object().get(object)) return Malformed(e, node.path);
        return Object(node, object, rep, depth + 1);
      }
      case ShredNode::Kind::kList: {
        if (type != JsonType::array) return Mismatch(node, TypeName(type));
        if (depth + 1 > kMaxJsonNesting) return TooDeep(node.path);
        OdArray array;
        if (auto e = value.get_array().get(array)) return Malformed(e, node.path);
        const ShredNode& element = node.children[0];
        bool first = true;
        for (auto element_result : array) {
          OdValue v;
          if (auto e = std::move(element_result).get(v)) return Malformed(e, node.path);
          if (!Field(element, v, first ? rep : node.repeated_level, depth + 1)) return false;
          first = false;
        }
        if (first) EmitNulls(node, node.def_level, rep);  // Empty list.
        return true;
      }
      case ShredNode::Kind::kMap: {
        if (type != JsonType::object) return Mismatch(node, TypeName(type));
        if (depth + 1 > kMaxJsonNesting) return TooDeep(node.path);
        OdObject object;
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
          OdField field;
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
    if (type == JsonType::object || type == JsonType::array) {
      return Mismatch(node, TypeName(type));
    }
    if (!Primitive(node, value, type, rep)) return false;
    if (node.partition_slot >= 0) Capture(node);
    return true;
  }

  ST_JSON_WALK_HOT bool Primitive(const ShredNode& node, OdValue& value, JsonType type,
                                  int16_t rep) {
    ColumnBuffer& c = out_.column(node.column);
    const int16_t def = node.def_level;
    switch (node.type_id) {
      case iceberg::TypeId::kBoolean: {
        if (type != JsonType::boolean) return Mismatch(node, TypeName(type));
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
        if (type != JsonType::number) return Mismatch(node, TypeName(type));
        int64_t v = 0;
        if (auto e = value.get_int64().get(v)) {
          if (!IsJsonNumber(TrimJsonWhitespaceRight(value.raw_json_token()))) {
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
        if (type != JsonType::number) return Mismatch(node, TypeName(type));
        double v = 0;
        if (auto e = value.get_double().get(v)) {
          if (!IsJsonNumber(TrimJsonWhitespaceRight(value.raw_json_token()))) {
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
        if (type != JsonType::number) return Mismatch(node, TypeName(type));
        std::string_view token = TrimJsonWhitespaceRight(value.raw_json_token());
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
    if (type != JsonType::string) return Mismatch(node, TypeName(type));
    std::string_view text;
    if (auto e = value.get_string().get(text)) return FromSimdjson(e, node, type);
    if (!PushTextValue(node, text, rep, c)) return Mismatch(node, QuoteForMessage(text));
    return true;
  }

  // Partition sources are top-level primitives: read back the value just pushed.
  void Capture(const ShredNode& node) {
    (*state_.partition_values)[node.partition_slot] = LastValue(node, out_.column(node.column));
  }

  // Validates a value of a field the schema does not have (it is dropped).
  ST_JSON_WALK_HOT bool Skip(OdValue value, int depth, const std::string& path) {
    JsonType type;
    if (auto e = value.type().get(type)) return Malformed(e, path);
    switch (type) {
      case JsonType::object: {
        if (depth + 1 > kMaxJsonNesting) return TooDeep(path);
        OdObject object;
        if (auto e = value.get_object().get(object)) return Malformed(e, path);
        for (auto field_result : object) {
          OdField field;
          if (auto e = std::move(field_result).get(field)) return Malformed(e, path);
          std::string_view key;
          if (auto e = field.unescaped_key().get(key)) return Malformed(e, path);
          if (!Skip(field.value(), depth + 1, path)) return false;
        }
        return true;
      }
      case JsonType::array: {
        if (depth + 1 > kMaxJsonNesting) return TooDeep(path);
        OdArray array;
        if (auto e = value.get_array().get(array)) return Malformed(e, path);
        for (auto element : array) {
          OdValue v;
          if (auto e = std::move(element).get(v)) return Malformed(e, path);
          if (!Skip(v, depth + 1, path)) return false;
        }
        return true;
      }
      case JsonType::string:
        if (auto e = value.get_string().error()) return Malformed(e, path);
        return true;
      case JsonType::number:
        if (!IsJsonNumber(TrimJsonWhitespaceRight(value.raw_json_token()))) {
          return Malformed(simdjson::NUMBER_ERROR, path);
        }
        return true;
      case JsonType::boolean:
        if (auto e = value.get_bool().error()) return Malformed(e, path);
        return true;
      case JsonType::null: {
        bool is_null = false;
        if (auto e = value.is_null().get(is_null); e || !is_null) {
          return Malformed(e ? e : simdjson::N_ATOM_ERROR, path);
        }
        return true;
      }
    }
    return true;
  }

  JsonWalkState<Od>& state_;
  ColumnBuffers& out_;
  RecordError* error_;
};

template <class Od>
class JsonKernelImpl final : public JsonShredKernel {
 public:
  JsonKernelImpl(const ShredPlan& plan, std::vector<Value>* partition_values)
      : state_(plan, partition_values) {}

  bool Shred(std::string_view json, ColumnBuffers& out, RecordError* error) override {
    JsonWalker<Od> walker(state_, out, error);
    return walker.Document(json);
  }

 private:
  JsonWalkState<Od> state_;
};

}  // namespace st::decoding
